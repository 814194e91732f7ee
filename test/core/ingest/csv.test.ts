import { describe, expect, it } from 'vitest';
import { splitDelimited } from '../../../src/core/ingest/csv';
import { fixtureCounts, ingestFixture, ingestText } from '../helpers';

const T = 'http://www.example.test';
const ROWS: [string, number, number][] = [
  [`${T}/`, 200, 5120],
  [`${T}/a.html`, 200, 2048],
  [`${T}/search?q=a,b`, 200, 3100],
  [`${T}/missing.html`, 404, 312],
  [`${T}/a.html?sessionid=42`, 200, 2048],
  [`${T}/style.css`, 304, -1],
];

for (const [name, format] of [
  ['urls.csv', 'csv'],
  ['urls.tsv', 'tsv'],
] as const) {
  describe(name, () => {
    it('reads every row: quoted URL with a comma, status, empty size as unknown', async () => {
      const { pages, summary, formats } = await ingestFixture(name);
      const counts = fixtureCounts[name] as { rows: number; status_200: number; empty_size: number };
      expect(formats).toEqual([{ format, compressed: false }]);
      expect(summary.recordsByType).toEqual({ row: counts.rows });
      expect(pages.map((p) => [p.page.url, p.page.status, p.page.sizeMin])).toEqual(ROWS);
      expect(pages.filter((p) => p.page.status === 200)).toHaveLength(counts.status_200);
      expect(pages.filter((p) => p.page.sizeMin === -1)).toHaveLength(counts.empty_size);
      expect(pages.map((p) => p.page.offset)).toEqual([2, 3, 4, 5, 6, 7]);
      expect(pages.every((p) => p.page.recordType === 'row')).toBe(true);
    });
  });
}

describe('splitDelimited', () => {
  it('splits RFC 4180 CSV', () => {
    expect(splitDelimited('a,b,c', ',')).toEqual(['a', 'b', 'c']);
    expect(splitDelimited('"a,b",c', ',')).toEqual(['a,b', 'c']);
    expect(splitDelimited('"say ""hi""",x', ',')).toEqual(['say "hi"', 'x']);
    expect(splitDelimited('a,,c,', ',')).toEqual(['a', '', 'c', '']);
    expect(splitDelimited(' a , b ', ',')).toEqual(['a', 'b']);
    expect(splitDelimited('', ',')).toEqual(['']);
  });

  it('splits TSV', () => {
    expect(splitDelimited('a\tb,c\t', '\t')).toEqual(['a', 'b,c', '']);
  });
});

describe('CSV (synthetic)', () => {
  it('finds the url column anywhere, skips rows without a URL and comments', async () => {
    const text = [
      'size,URL,status',
      '10,http://a.test/,200',
      '# comment',
      '5,,404',
      '7,http://b.test/,x',
    ].join('\n');
    const { pages, summary } = await ingestText(text, 'any.csv');
    expect(pages.map((p) => [p.page.url, p.page.status, p.page.sizeMin])).toEqual([
      ['http://a.test/', 200, 10],
      ['http://b.test/', 0, 7],
    ]);
    expect(summary.skipped).toEqual({ 'rows without a URL': 1 });
  });
});
