import { describe, expect, it } from 'vitest';
import { createCrawlLogReader, heritrixStatusLabel } from '../../../src/core/ingest/crawl-log';
import { FormatFault } from '../../../src/core/ingest/errors';
import { fixtureCounts, fixtureText, ingestFixture, ingestText, pagesByUrl } from '../helpers';

const T = 'http://www.example.test';

describe('crawl.log (Heritrix)', () => {
  const counts = fixtureCounts['crawl.log'] as {
    lines: number;
    status_200: number;
    negative_status: number;
    dns: number;
    not_found: number;
    redirects: number;
    same_digest_pair: [string, string];
  };

  it('reads every line; pages are the fetched URLs only (not dns:, not Heritrix’s own codes)', async () => {
    const { summary, pages, formats } = await ingestFixture('crawl.log');
    expect(formats).toEqual([{ format: 'crawl-log', compressed: false }]);
    expect(summary.recordsByType).toEqual({ 'crawl-log line': counts.lines });
    expect(summary.skipped).toEqual({
      'dns: lookups': counts.dns,
      'status -1: DNS lookup failed': 1,
      'status -9998: robots.txt precluded': 1,
    });
    expect(pages).toHaveLength(counts.lines - counts.dns - counts.negative_status);
    expect(pages.some((p) => p.page.url.startsWith('dns:') || p.page.status <= 0)).toBe(false);
    expect(summary.error).toBeNull();
  });

  it('counts pages by status class', async () => {
    const { pages, summary } = await ingestFixture('crawl.log');
    const statuses = pages.map((p) => p.page.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(counts.status_200);
    expect(statuses.filter((s) => s === 404)).toHaveLength(counts.not_found);
    expect(statuses.filter((s) => s >= 300 && s < 400)).toHaveLength(counts.redirects);
    expect(summary.statusCounts).toEqual({
      '2xx': counts.status_200,
      '3xx': counts.redirects,
      '4xx': counts.not_found,
    });
    const byUrl = pagesByUrl(pages);
    expect(byUrl.has('http://nohost.example.test/')).toBe(false);
    expect(byUrl.has(`${T}/private/secret.html`)).toBe(false);
  });

  it('prefixes bare base32 digests with "sha1:" and leaves prefixed ones alone', async () => {
    const raw = fixtureText('crawl.log');
    expect(raw).toMatch(/\/b\.html .* 5HLR6XXHZEWW3SPJF7622F5YXVEUDD4Y /);
    const { pages } = await ingestFixture('crawl.log');
    const byUrl = pagesByUrl(pages);
    expect(byUrl.get(`${T}/b.html`)!.digest).toBe('sha1:5HLR6XXHZEWW3SPJF7622F5YXVEUDD4Y');
    expect(byUrl.get(`${T}/`)!.digest).toBe('sha1:5AZETPJ3U6MTFYLPWH5VCAG27LPJSVGC');
    for (const p of pages) expect(p.page.digest).toMatch(/^(sha1:[A-Z2-7]{32})?$/);
    // Every digest is "sha1:…" or empty ("-" in the log).
    expect(pages.every((p) => p.page.digest === '' || p.page.digest.startsWith('sha1:'))).toBe(true);
    const [a, b] = counts.same_digest_pair;
    expect(byUrl.get(a)!.digest).toBe(byUrl.get(b)!.digest);
    expect(byUrl.get(a)!.digest).not.toBe(byUrl.get(`${T}/b.html`)!.digest);
  });

  it('reads size, MIME, time, line number and the discovery path', async () => {
    const { pages } = await ingestFixture('crawl.log');
    const byUrl = pagesByUrl(pages);
    const a = byUrl.get(`${T}/a.html`)!;
    expect(a).toMatchObject({
      sizeMin: 2048,
      sizeMax: 2048,
      mime: 'text/html',
      fetchedAt: '2024-01-15T10:00:03.010Z',
      offset: 4,
      recordType: 'crawl-log line',
      host: 'www.example.test',
    });
    expect(byUrl.get(`${T}/big.bin`)).toMatchObject({ sizeMin: 1048576, mime: 'application/octet-stream' });
    const fresh = pages.find((p) => p.page.url === `${T}/new`)!;
    expect(fresh.content.headers).toContainEqual(['discovery-path', 'LR']);
    expect(fresh.content.headers).toContainEqual(['via', `${T}/old`]);
    const dup = pages.find((p) => p.page.url === `${T}/a.html?sessionid=42`)!;
    expect(dup.content.headers).toContainEqual(['annotations', 'duplicate:digest']);
  });

  it('lists a line that is not a crawl.log line with its number and reads on', async () => {
    const lines = fixtureText('crawl.log').split('\n');
    const text = [...lines.slice(0, 4), 'this line is not from Heritrix', ...lines.slice(4)].join('\n');
    const { pages, summary } = await ingestText(text, 'broken-crawl.log');
    const whole = await ingestFixture('crawl.log');
    expect(pages).toHaveLength(whole.pages.length);
    expect(summary.error).toBeNull();
    expect(summary.warnings).toHaveLength(1);
    expect(summary.warnings[0]).toMatchObject({ fileName: 'broken-crawl.log', line: 5 });
    expect(summary.warnings[0].message).toContain('broken-crawl.log at line 5');
    expect(summary.warnings[0].message).toContain('this line is not from Heritrix');
  });

  it('the reader rejects a file in which no line is a crawl.log line', () => {
    // The sniffer never hands such a file to the reader; the reader still refuses it on its own.
    const warned: number[] = [];
    const reader = createCrawlLogReader({
      fileName: 'cut.log',
      baseUrl: '',
      page: () => {
        throw new Error('no page expected');
      },
      warn: (_reason, line) => warned.push(line),
      record: () => {},
      skip: () => {},
      nextSeq: () => 0,
      offsetBase: 0,
    });
    reader.push(new TextEncoder().encode('2024-01-15T10:00:01Z 200\nnot a log\n'), 0);
    expect(() => reader.end()).toThrow(FormatFault);
    expect(() => reader.end()).toThrow(/none of its 2 lines/);
    expect(warned).toEqual([1, 2]);
  });
});

describe('crawl.log cut out of a metadata ARC (crawl-stray.log)', () => {
  const c = fixtureCounts['crawl-stray.log'] as {
    lines: number;
    log_lines: number;
    bad_lines: number[];
    pages: number;
    status_classes: Record<string, number>;
    heritrix: Record<string, number>;
    dns: number;
  };

  it('is a crawl.log although its first line is an ARC header; the stray lines are problems with their numbers', async () => {
    const { summary, pages, formats } = await ingestFixture('crawl-stray.log');
    expect(formats).toEqual([{ format: 'crawl-log', compressed: false }]);
    expect(summary.error).toBeNull();
    expect(summary.recordsByType).toEqual({ 'crawl-log line': c.log_lines });
    expect(summary.warnings.map((w) => w.line)).toEqual(c.bad_lines);
    expect(summary.warnings[0].message).toContain('crawl-stray.log at line 1');
    expect(summary.warnings[0].message).toContain('metadata://netarkivet.dk/crawl/logs/crawl.log');
    expect(pages).toHaveLength(c.pages);
  });

  it('counts by status class and each Heritrix code with its meaning; only fetched URLs are pages', async () => {
    const { summary, pages } = await ingestFixture('crawl-stray.log');
    expect(summary.statusCounts).toEqual(c.status_classes);
    expect(pages.every((p) => p.page.status > 0)).toBe(true);
    expect(summary.skipped).toEqual({
      'dns: lookups': c.dns,
      'status -5003: blocked by quota': c.heritrix['-5003'],
      'status -61: robots.txt prerequisite failed': c.heritrix['-61'],
      'status -2: connect failed': c.heritrix['-2'],
      'status 0: not attempted': c.heritrix['0'],
      'status -9998: robots.txt precluded': c.heritrix['-9998'],
    });
    expect(heritrixStatusLabel(-12345)).toBe('status -12345: Heritrix code not in the table');
  });
});
