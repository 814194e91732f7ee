import { describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { splinkLabelsParquet } from '../../../src/core/eval/labels-foreign';
import { parseDelimited } from '../../../src/core/csv';
import {
  decodeLabels,
  describeProblems,
  encodeLabelsCsv,
  encodeLabelsJson,
} from '../../../src/core/eval/labels-codec';
import type { LabelRecord } from '../../../src/core/eval/label-record';
import { locatePair, pairKey } from '../../../src/core/eval/pair-key';
import { findPair } from '../../../src/core/candidates/pair-index';

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

  it('round-trips JSON with its source block (an object whose labels are the records)', () => {
    const source = { app: 'dedup-workbench', version: '0.1.0', dataset: 'sample.warc.gz' };
    const text = encodeLabelsJson(rows, source);
    const parsed = JSON.parse(text) as { source: unknown; labels: unknown[] };
    expect(parsed.source).toEqual(source);
    expect(parsed.labels).toHaveLength(rows.length);
    const back = decodeLabels(text);
    expect(back.problems).toEqual([]);
    expect(back.rows).toEqual(rows);
    expect(decodeLabels('{"source": {}}').problems[0].reason).toMatch(/not a JSON array of labels/);
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
      'http://x.test/6,http://x.test/7,NOT,1',
    ].join('\n');
    const { rows: ok, problems } = decodeLabels(text);
    expect(ok.map((r) => [r.urlA, r.label, r.pi])).toEqual([
      ['http://x.test/1', 'dup', 0.5],
      ['http://x.test/6', 'not', 1],
    ]);
    expect(problems.map((p) => [p.row, p.line])).toEqual([
      [2, 3],
      [3, 4],
      [4, 5],
    ]);
    expect(problems[0].reason).toMatch(/label "dpu"/);
    expect(describeProblems(problems)).toMatch(/^3 rows skipped: row 2 \(line 3\): label "dpu"/);
    expect(decodeLabels('a,b\n1,2\n').problems[0].reason).toMatch(/no "label" column/);
    expect(decodeLabels('[{"a":1}').problems[0].reason).toMatch(/not valid JSON/);
  });

  it('refuses a π that is not a finite number (NaN, Infinity, empty, 1e999), naming the line', () => {
    const text = [
      'url_a,url_b,label,strategy,pi',
      'http://x.test/1,http://x.test/2,dup,random,NaN',
      'http://x.test/1,http://x.test/3,dup,stratified,Infinity',
      '"http://x.test/multi',
      'line",http://x.test/4,not,random,',
      'http://x.test/1,http://x.test/5,not,,1e999',
      'http://x.test/1,http://x.test/6,not,random,-Infinity',
      'http://x.test/1,http://x.test/7,dup,random,0.5',
    ].join('\n');
    const { rows: ok, problems } = decodeLabels(text);
    expect(ok.map((r) => [r.urlB, r.pi])).toEqual([['http://x.test/7', 0.5]]);
    expect(problems).toEqual([
      { row: 1, line: 2, reason: 'pi "NaN" is not a finite number' },
      { row: 2, line: 3, reason: 'pi "Infinity" is not a finite number' },
      { row: 3, line: 4, reason: 'pi is empty' },
      { row: 4, line: 6, reason: 'pi "1e999" is not a finite number' },
      { row: 5, line: 7, reason: 'pi "-Infinity" is not a finite number' },
    ]);
    expect(describeProblems(problems)).toMatch(/^5 rows skipped: row 1 \(line 2\): pi "NaN" is not a finite/);
    // JSON has no NaN, but a string or a number too large for a double reads as one.
    const json = decodeLabels(
      '[{"a":1,"b":2,"label":"dup","pi":"NaN"},{"a":1,"b":3,"label":"dup","pi":1e999}]',
    );
    expect(json.rows).toEqual([]);
    expect(json.problems.map((p) => p.reason)).toEqual([
      'pi "NaN" is not a finite number',
      'pi "Infinity" is not a finite number',
    ]);
  });

  it('reads a pick that is not a probability sample (near-threshold) with no π, as older exports’ NaN too', () => {
    const text = [
      'a,b,label,strategy,pi',
      '1,2,dup,near-threshold,',
      '1,3,dup,near-threshold,NaN',
      'x,4,dup,random,1',
      '1,1e999,dup,random,1',
    ].join('\n');
    const { rows: ok, problems } = decodeLabels(text);
    expect(ok.map((r) => [r.b, r.pi])).toEqual([
      [2, NaN],
      [3, NaN],
    ]);
    expect(problems.map((p) => p.reason)).toEqual([
      'a "x" is not a page number (a whole number ≥ 0)',
      'b "1e999" is not a page number (a whole number ≥ 0)',
    ]);
  });

  it('writes URLs that begin like formulas neutralised and reads them back as they were', () => {
    const hostile: LabelRecord[] = [
      '=HYPERLINK("http://evil.test/","x")',
      "+cmd|' /C calc'!A0",
      '-2+3',
      '@SUM(1+1)',
      "'=already quoted",
    ].map((u, i) => ({ ...rows[0], a: i, b: i + 10, urlA: u, urlB: `${u}/b` }));
    const text = encodeLabelsCsv(hostile);
    const cells = parseDelimited(text).flat();
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    expect(cells).toContain(`'=HYPERLINK("http://evil.test/","x")`);
    const back = decodeLabels(text);
    expect(back.problems).toEqual([]);
    expect(back.rows).toEqual(hostile);
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

describe('labels made in other tools', () => {
  it("reads dedupe's training.json: match → dup, distinct → not, pages by their records' url", () => {
    const training = {
      distinct: [
        [
          { url: 'http://a.test/1', title: 'x' },
          { URL: 'http://a.test/2', title: 'y' },
        ],
      ],
      match: [
        [{ url: 'http://a.test/3' }, { url: 'http://a.test/3?ref=feed' }],
        [{ title: 'no url' }, { url: 'http://a.test/4' }],
      ],
    };
    const { rows, problems } = decodeLabels(JSON.stringify(training));
    expect(rows.map((r) => [r.urlA, r.urlB, r.label])).toEqual([
      ['http://a.test/3', 'http://a.test/3?ref=feed', 'dup'],
      ['http://a.test/1', 'http://a.test/2', 'not'],
    ]);
    // Not drawn with a known probability: counted apart from the weighted estimates.
    expect(rows.every((r) => r.strategy === 'near-threshold' && Number.isNaN(r.pi))).toBe(true);
    expect(problems).toEqual([
      { row: 2, reason: 'a "match" pair whose two records do not both have a url field' },
    ]);
  });

  it("reads Splink's labels table: ids as seqs or URLs, the clerical score around 0.5", () => {
    const csv = [
      'source_dataset_l,unique_id_l,source_dataset_r,unique_id_r,clerical_match_score',
      'crawl,3,crawl,7,1',
      'crawl,3,crawl,9,0',
      'crawl,4,crawl,5,0.5',
      'crawl,http://a.test/x,crawl,http://a.test/y,0.9',
      'crawl,1,crawl,2,1.5',
    ].join('\n');
    const { rows, problems } = decodeLabels(csv);
    expect(rows.map((r) => [r.a, r.b, r.urlA, r.urlB, r.label])).toEqual([
      [3, 7, '', '', 'dup'],
      [3, 9, '', '', 'not'],
      [4, 5, '', '', 'unsure'],
      [NaN, NaN, 'http://a.test/x', 'http://a.test/y', 'dup'],
    ]);
    expect(problems).toEqual([{ row: 5, line: 6, reason: 'clerical_match_score "1.5" is not in [0, 1]' }]);
  });

  it('takes y, n and u (and yes, no, match, distinct) for dup, not and unsure', () => {
    const csv = 'a,b,label\n1,2,y\n1,3,N\n1,4,u\n1,5,match\n1,6,maybe\n';
    const { rows, problems } = decodeLabels(csv);
    expect(rows.map((r) => r.label)).toEqual(['dup', 'not', 'unsure', 'dup']);
    expect(problems[0].reason).toBe('label "maybe" is not dup, not or unsure (nor y, n, u)');
  });
});

describe("Splink's labels table kept as Parquet", () => {
  it('is read as the CSV table is; a table without its columns is said so', async () => {
    const table = parquetWriteBuffer({
      columnData: [
        { name: 'unique_id_l', data: [3n, 3n, 4n], type: 'INT64' },
        { name: 'unique_id_r', data: [7n, 9n, 5n], type: 'INT64' },
        { name: 'clerical_match_score', data: [1, 0, 0.5], type: 'DOUBLE' },
      ],
    });
    const { rows, problems } = await splinkLabelsParquet(table);
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.a, r.b, r.label])).toEqual([
      [3, 7, 'dup'],
      [3, 9, 'not'],
      [4, 5, 'unsure'],
    ]);
    const other = parquetWriteBuffer({ columnData: [{ name: 'url', data: ['x'], type: 'STRING' }] });
    expect((await splinkLabelsParquet(other)).problems[0].reason).toBe(
      "a Parquet table without Splink's columns (unique_id_l, unique_id_r, clerical_match_score): its columns are url",
    );
    expect((await splinkLabelsParquet(new ArrayBuffer(8))).problems[0].reason).toMatch(
      /^not a readable Parquet file/,
    );
  });
});
