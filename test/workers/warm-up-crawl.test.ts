/**
 * The crawl an idle ingest worker makes for its warm-up (src/workers/warm-up-crawl.ts): the core reads it
 * whole, and its pages take the HTML paths they are there for — numeric and attribute entities, comments,
 * raw-text elements, relative links and <base>, odd schemes, stated and computed digests.
 */
import { describe, expect, it } from 'vitest';
import { ingestCrawl } from '../../src/core/ingest/many-files';
import type { IngestedPage, IngestSummary } from '../../src/core/types';
import { warmUpCrawl } from '../../src/workers/warm-up-crawl';

async function read(bytes: Uint8Array): Promise<{ pages: IngestedPage[]; summary: IngestSummary }> {
  const pages: IngestedPage[] = [];
  const summary = await ingestCrawl(
    [
      {
        name: 'warm-up.warc.gz',
        size: bytes.length,
        read: async (a, b) => bytes.slice(a, b),
        stream: (a, b) =>
          (async function* () {
            for (let i = a; i < b; i += 4096) yield bytes.subarray(i, Math.min(b, i + 4096));
          })(),
      },
    ],
    {},
    async (batch) => {
      pages.push(...batch);
    },
  );
  return { pages, summary };
}

describe('the warm-up crawl', () => {
  it('is the same bytes on every call, and other bytes for another seed', async () => {
    const a = await warmUpCrawl();
    expect(Buffer.from(await warmUpCrawl()).equals(Buffer.from(a))).toBe(true);
    expect(Buffer.from(await warmUpCrawl(8)).equals(Buffer.from(a))).toBe(false);
  });

  it('is read whole by the core, every stated digest checked and matching', async () => {
    const { pages, summary } = await read(await warmUpCrawl());
    expect(summary.error).toBeNull();
    expect(summary.format).toBe('warc');
    expect(summary.compressed).toBe(true);
    // 48 responses and a resource; every other response states both digests.
    expect(summary.pages).toBe(49);
    expect(pages.filter((p) => p.page.recordType === 'response')).toHaveLength(48);
    expect(summary.digests).toMatchObject({ checked: 48, payloadMismatches: 0, blockMismatches: 0 });
    expect(pages.every((p) => p.page.digest.startsWith('sha1:'))).toBe(true);
  });

  it('takes the HTML paths real pages take', async () => {
    const { pages } = await read(await warmUpCrawl());
    const html = pages.filter((p) => p.page.mime === 'text/html' && p.page.status === 200);
    expect(html.length).toBeGreaterThan(30);
    // Numeric entities (decimal and hex) decoded in the text; none left as written.
    expect(html.some((p) => p.content.text.includes("\u2014'\u2014 \u{1F600}"))).toBe(true);
    expect(html.every((p) => !p.content.text.includes('&#8212;'))).toBe(true);
    // Scripts, styles and comments are not text.
    for (const p of html) {
      expect(p.content.text).not.toContain('document.write');
      expect(p.content.text).not.toContain('color: red');
      expect(p.content.text).not.toContain('header -->');
    }
    // Relative links resolved against the page and its <base>; odd schemes left out.
    const links = html.flatMap((p) => p.content.outlinks);
    expect(links.some((u) => u.startsWith('https://example.test/base/dir/'))).toBe(true);
    expect(
      links.some(
        (u) => u.startsWith('http://other.example.test/') || u.startsWith('https://other.example.test/'),
      ),
    ).toBe(true);
    expect(links.every((u) => !/^(javascript|mailto|tel|data):/.test(u))).toBe(true);
    // Redirects and errors are read as such.
    expect(pages.some((p) => p.page.status === 301)).toBe(true);
    expect(pages.some((p) => p.page.status === 404)).toBe(true);
  });
});
