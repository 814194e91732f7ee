import { describe, expect, it } from 'vitest';
import { parseDelimited } from '../../../src/core/ingest/delimited';
import {
  decodeLabels,
  describeProblems,
  encodeLabelsCsv,
  encodeLabelsJson,
  type LabelRecord,
} from '../../../src/core/eval/labels-codec';
import { locatePair, pairKey } from '../../../src/core/eval/pair-key';
import { findPair } from '../../../src/core/clusters/pair-index';

const rows: LabelRecord[] = [
  {
    a: 3,
    b: 17,
    urlA: 'http://x.test/a,b?q="1"',
    urlB: 'http://x.test/plain',
    label: 'not',
    strategy: 'stratified',
    pi: 0.25,
    at: '2024-05-01T10:00:00.000Z',
  },
  {
    a: 4,
    b: 9,
    urlA: 'http://x.test/line\nbreak',
    urlB: 'http://x.test/crlf\r\nbreak,"quoted"',
    label: 'dup',
    strategy: 'near-threshold',
    pi: NaN,
    at: '2024-05-01T10:01:00.000Z',
  },
  {
    a: 5,
    b: 6,
    urlA: 'http://x.test/u',
    urlB: 'http://x.test/v',
    label: 'unsure',
    strategy: 'random',
    pi: 1,
    at: '',
  },
];

describe('delimited text (RFC 4180)', () => {
  it('reads quoted separators, doubled quotes and line breaks inside quotes, LF or CRLF records', () => {
    expect(parseDelimited('a,"b,c","say ""hi"""\r\n"multi\nline",x\n')).toEqual([
      ['a', 'b,c', 'say "hi"'],
      ['multi\nline', 'x'],
    ]);
    expect(parseDelimited('a\tb,c\n', { sep: '\t' })).toEqual([['a', 'b,c']]);
    expect(parseDelimited(' a ,"b " ', { trim: true })).toEqual([['a', 'b ']]);
    expect(parseDelimited('x,\n,y')).toEqual([
      ['x', ''],
      ['', 'y'],
    ]);
  });
});

describe('labels codec', () => {
  it('round-trips CSV with commas, quotes and line breaks in URLs', () => {
    const text = encodeLabelsCsv(rows);
    const back = decodeLabels(text);
    expect(back.problems).toEqual([]);
    expect(back.rows).toEqual(rows);
  });

  it('round-trips JSON (NaN π written as null, read back as NaN)', () => {
    const text = encodeLabelsJson(rows);
    expect(text).toContain('"pi": null');
    const back = decodeLabels(text);
    expect(back.problems).toEqual([]);
    expect(back.rows).toEqual(rows);
  });

  it('keeps the label of a URL with a comma (the old split(",") read it from the wrong column)', () => {
    const text = encodeLabelsCsv([rows[0]]);
    // What the two split(',') parsers did: the comma in url_a shifts every later column by one.
    const [head, line] = text.trim().split('\n');
    const naive = line.split(',')[head.split(',').indexOf('label')];
    expect(naive).not.toBe('not');
    const [r] = decodeLabels(text).rows;
    expect(r.label).toBe('not');
    expect(r.urlA).toBe('http://x.test/a,b?q="1"');
    expect(r.strategy).toBe('stratified');
    expect(r.pi).toBe(0.25);
  });

  it('reports unreadable rows with their number and reason instead of guessing', () => {
    const text = [
      'url_a,url_b,label,pi',
      'http://x.test/1,http://x.test/2,dup,0.5',
      'http://x.test/1,http://x.test/3,dpu,0.5',
      'http://x.test/1,,not,0.5',
      'http://x.test/4,http://x.test/5,not,7',
      '',
      'http://x.test/6,http://x.test/7,NOT,',
    ].join('\n');
    const { rows: ok, problems } = decodeLabels(text);
    expect(ok.map((r) => [r.urlA, r.label, r.pi])).toEqual([
      ['http://x.test/1', 'dup', 0.5],
      ['http://x.test/6', 'not', 1],
    ]);
    expect(problems.map((p) => p.row)).toEqual([2, 3, 4]);
    expect(problems[0].reason).toMatch(/label "dpu"/);
    expect(describeProblems(problems)).toMatch(/^3 rows skipped: row 2: label "dpu"/);
    expect(decodeLabels('a,b\n1,2\n').problems[0].reason).toMatch(/no "label" column/);
    expect(decodeLabels('[{"a":1}').problems[0].reason).toMatch(/not valid JSON/);
  });

  it('reads files without π as uniformly drawn (π = 1)', () => {
    const { rows: r } = decodeLabels('a,b,label\n1,2,dup\n');
    expect(r[0]).toMatchObject({ a: 1, b: 2, pi: 1, strategy: 'random', urlA: '' });
  });
});

describe('pair lookup', () => {
  it('keys unordered pairs once and finds them in the sorted pair table', () => {
    expect(pairKey(9, 2)).toBe(pairKey(2, 9));
    const p = { a: Uint32Array.of(0, 0, 1, 2, 2), b: Uint32Array.of(1, 3, 2, 3, 4), count: 5 };
    for (let k = 0; k < p.count; k++) {
      expect(findPair(p, p.a[k], p.b[k])).toBe(k);
      expect(findPair(p, p.b[k], p.a[k])).toBe(k);
    }
    expect(findPair(p, 0, 2)).toBeNull();
    expect(findPair(p, 3, 4)).toBeNull();
    const index = new Map([
      ['u0', 0],
      ['u2', 2],
      ['u4', 4],
    ]);
    expect(locatePair(p, index, 'u4', 'u2')).toBe(4);
    expect(locatePair(p, index, 'u0', 'u9')).toBeNull();
  });
});
