import { describe, expect, it } from 'vitest';
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

  it('reads every line, skips the dns: lookup and makes a page of every other entry', async () => {
    const { summary, pages, formats } = await ingestFixture('crawl.log');
    expect(formats).toEqual([{ format: 'crawl-log', compressed: false }]);
    expect(summary.recordsByType).toEqual({ 'crawl-log line': counts.lines });
    expect(summary.skipped).toEqual({ 'dns: lookups': counts.dns });
    expect(pages).toHaveLength(counts.lines - counts.dns);
    expect(pages.some((p) => p.page.url.startsWith('dns:'))).toBe(false);
    expect(summary.error).toBeNull();
  });

  it('keeps statuses, including Heritrix’s negative ones', async () => {
    const { pages } = await ingestFixture('crawl.log');
    const statuses = pages.map((p) => p.page.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(counts.status_200);
    expect(statuses.filter((s) => s < 0).sort((a, b) => a - b)).toEqual([-9998, -1]);
    expect(statuses.filter((s) => s === 404)).toHaveLength(counts.not_found);
    expect(statuses.filter((s) => s >= 300 && s < 400)).toHaveLength(counts.redirects);
    const byUrl = pagesByUrl(pages);
    expect(byUrl.get('http://nohost.example.test/')).toMatchObject({
      status: -1,
      statuses: [-1],
      sizeMin: -1,
    });
    expect(byUrl.get(`${T}/private/secret.html`)).toMatchObject({ status: -9998, statuses: [-9998] });
  });

  it('prefixes bare base32 digests with "sha1:" and leaves prefixed ones alone', async () => {
    const raw = fixtureText('crawl.log');
    expect(raw).toMatch(/\/b\.html .* 5HLR6XXHZEWW3SPJF7622F5YXVEUDD4Y /);
    const { pages } = await ingestFixture('crawl.log');
    const byUrl = pagesByUrl(pages);
    expect(byUrl.get(`${T}/b.html`)!.digest).toBe('sha1:5HLR6XXHZEWW3SPJF7622F5YXVEUDD4Y');
    expect(byUrl.get(`${T}/`)!.digest).toBe('sha1:5AZETPJ3U6MTFYLPWH5VCAG27LPJSVGC');
    for (const p of pages) expect(p.page.digest).toMatch(/^(sha1:[A-Z2-7]{32})?$/);
    // "-" means no digest.
    expect(byUrl.get('http://nohost.example.test/')!.digest).toBe('');
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

  it('stops at a line that is not a crawl.log line, naming it, and keeps the lines before', async () => {
    const lines = fixtureText('crawl.log').split('\n');
    const text = [...lines.slice(0, 4), 'this line is not from Heritrix', ...lines.slice(4)].join('\n');
    const { pages, summary } = await ingestText(text, 'broken-crawl.log');
    expect(pages).toHaveLength(3); // lines 2-4 (line 1 is the dns: lookup)
    expect(summary.error).toMatchObject({ fileName: 'broken-crawl.log', line: 5 });
    expect(summary.error!.message).toContain('broken-crawl.log at line 5');
  });
});
