import { describe, expect, it } from 'vitest';
import { fmtDuration, fmtWhen, kindOf, middleEllipsis, plural, rateAndEta } from '../../src/ui/format';

describe('middleEllipsis', () => {
  it('leaves short URLs whole', () => {
    expect(middleEllipsis('http://a.test/x', 64)).toBe('http://a.test/x');
  });

  it('keeps the host and the end of the path and query', () => {
    const url =
      'http://www.example-news.test/section/world/2024/04/14/some-long-slug/story?id=1234&sessionid=99';
    const s = middleEllipsis(url, 60);
    expect(s).toHaveLength(60);
    expect(s.startsWith('http://www.example-news.test')).toBe(true);
    expect(s.endsWith('?id=1234&sessionid=99')).toBe(true);
    expect(s).toContain('…');
  });

  it('splits the budget when the host alone is too long', () => {
    const url = `http://${'h'.repeat(80)}.test/path/end.html?q=1`;
    const s = middleEllipsis(url, 40);
    expect(s).toHaveLength(40);
    expect(s.endsWith('end.html?q=1')).toBe(true);
  });
});

describe('plural', () => {
  it('says one thing in the singular and any other count in the plural', () => {
    expect(plural(1, 'host')).toBe('1 host');
    expect(plural(0, 'host')).toBe('0 hosts');
    expect(plural(4, 'page')).toBe('4 pages');
    expect(plural(12_345, 'page')).toBe('12,345 pages');
  });

  it('takes an irregular plural', () => {
    expect(plural(1, 'rule stays', 'rules stay')).toBe('1 rule stays');
    expect(plural(3, 'rule stays', 'rules stay')).toBe('3 rules stay');
  });
});

describe('kindOf', () => {
  it('names a dataset by its file kind, a WACZ as a WACZ', () => {
    expect(kindOf({ format: 'warc', compressed: true })).toBe('warc.gz');
    expect(kindOf({ format: 'warc', compressed: true }, true)).toBe('warc (gzip)');
    expect(kindOf({ format: 'crawl-log', compressed: false })).toBe('crawl-log');
    expect(kindOf({ format: 'warc', compressed: true, container: 'wacz' })).toBe('wacz');
    expect(kindOf({ format: 'warc', compressed: true, container: 'wacz' }, true)).toBe('wacz: warc (gzip)');
    const zstd = { format: 'jsonl', compressed: true, sources: [{ compression: 'zstd' as const }] };
    expect(kindOf(zstd)).toBe('jsonl.zst');
    expect(kindOf(zstd, true)).toBe('jsonl (zstd)');
  });
});

describe('fmtDuration', () => {
  it('never says 0 s for work that took time: tenths under 10 s, "< 0.1 s" below that', () => {
    expect(fmtDuration(0)).toBe('< 0.1 s');
    expect(fmtDuration(40)).toBe('< 0.1 s');
    expect(fmtDuration(300)).toBe('0.3 s');
    expect(fmtDuration(1_449)).toBe('1.4 s');
    expect(fmtDuration(9_940)).toBe('9.9 s');
    expect(fmtDuration(9_960)).toBe('10 s');
    expect(fmtDuration(59_400)).toBe('59 s');
    expect(fmtDuration(95_000)).toBe('1 min 35 s');
    expect(fmtDuration(NaN)).toBe('–');
  });
});

describe('rateAndEta', () => {
  it('gives no ETA before 2 s of reading, unless 5% was read over at least a second', () => {
    // The first line: 64 KB of 34 MB, which said "ETA 1 min 35 s".
    expect(rateAndEta(64 << 10, 34e6, 300).etaMs).toBeNaN();
    expect(rateAndEta(2e6, 34e6, 500).etaMs).toBeNaN();
    expect(rateAndEta(2e6, 34e6, 1000).etaMs).toBeCloseTo(16_000);
    expect(rateAndEta(1e6, 34e6, 2000).etaMs).toBeCloseTo(66_000);
    expect(rateAndEta(1e6, 34e6, 300).rate).toBeCloseTo(1e6 / 0.3);
  });
});

describe('fmtWhen', () => {
  it('says the day and the second', () => {
    expect(fmtWhen(new Date(2026, 10, 26, 10, 59, 33).toISOString())).toBe('26 Nov 2026, 10:59:33');
    expect(fmtWhen('not a date')).toBe('–');
  });
});
