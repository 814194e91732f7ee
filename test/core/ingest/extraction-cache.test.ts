import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { nodeNatives } from '../../../src/cli/natives';
import { extractHtmlTidy } from '../../../src/core/html/extract';
import { ExtractionCache, extractPageBody } from '../../../src/core/ingest/extraction-cache';
import { httpResponse, ingestBytes, warcRecord, concat } from '../helpers';

/** The same HTML served under several URLs, with relative links and (on one copy) a <base>. */
const PAGE = `<html><head><title>Story 7</title></head><body><nav><a href="/">Home</a> · <a href="list">List</a></nav>
<p>The harbour cranes were idle all week.</p><p>Barges waited <a href="../up">upstream</a>.</p>
<footer>© the paper</footer></body></html>`;
const WITH_BASE = PAGE.replace('<head>', '<head><base href="/archive/">');

function response(url: string, html: string, digest?: string): Uint8Array {
  return warcRecord(
    [
      ['WARC-Type', 'response'],
      ['WARC-Target-URI', url],
      ['WARC-Date', '2024-01-15T10:00:00Z'],
      ['Content-Type', 'application/http; msgtype=response'],
      ...(digest ? ([['WARC-Payload-Digest', digest]] as [string, string][]) : []),
    ],
    httpResponse(200, [['Content-Type', 'text/html; charset=utf-8']], html),
  );
}

describe('ExtractionCache', () => {
  it('extracts a repeated HTML once: the same body, counted as a hit', () => {
    const cache = new ExtractionCache();
    const a = cache.bodyOf(PAGE);
    const b = cache.bodyOf(PAGE.slice(0, 10) + PAGE.slice(10)); // equal, another string
    expect(b).toBe(a);
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
    expect(a).toEqual(extractPageBody(PAGE));
    expect(a.body.title).toBe('Story 7');
    expect(a.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(a.hintHashes.length).toBeGreaterThan(0);
  });

  it('keeps at most its budget, the least recently used first out, and never one page over a quarter of it', () => {
    const pages = Array.from({ length: 6 }, (_, i) => `<p>${String(i).repeat(90)}</p>`);
    // Each costs ~97 characters of HTML + ~90 of text: 1,000 holds five.
    const cache = new ExtractionCache(1000);
    for (const p of pages.slice(0, 5)) cache.bodyOf(p);
    cache.bodyOf(pages[0]); // used again: now the most recent
    cache.bodyOf(pages[5]); // evicts the least recently used, pages[1]
    const misses = cache.misses;
    cache.bodyOf(pages[0]);
    expect(cache.misses).toBe(misses);
    cache.bodyOf(pages[1]);
    expect(cache.misses).toBe(misses + 1);
    const big = `<p>${'x'.repeat(400)}</p>`;
    cache.bodyOf(big);
    cache.bodyOf(big);
    expect(cache.misses).toBe(misses + 3);
  });
});

describe('ExtractionCache on a crawl without repeats', () => {
  it('keeps only probes once pages stop repeating, and keeps every page again once they repeat', () => {
    const cache = new ExtractionCache();
    const html = (i: number) => `<title>${i}</title><p>page ${i} ${'text '.repeat(20)}</p>`;
    for (let i = 0; i < 3000; i++) cache.bodyOf(html(i));
    // Quiet after ~1,000 lookups with no hit: one page in 32 kept since then.
    expect(cache.size).toBeGreaterThan(900);
    expect(cache.size).toBeLessThan(1200);
    // Repeats start (each page met twice in a row): the cache finds them and keeps every page again.
    for (let i = 3000; i < 6000; i++) {
      cache.bodyOf(html(i));
      cache.bodyOf(html(i));
    }
    const before = cache.size;
    for (let i = 6000; i < 6100; i++) cache.bodyOf(html(i));
    expect(cache.size - before).toBe(100);
  });
});

describe('ingest with the cache: the same pages as extracting every page anew', () => {
  it('gives each copy its own links (resolved against its URL or its <base>) and the same text', async () => {
    const warc = concat(
      response('http://news.test/story?id=7', PAGE),
      response('http://news.test/a/7', PAGE),
      response('http://news.test/archive/2024/7/', PAGE),
      response('http://mirror.test/copy/7', WITH_BASE),
      response('http://mirror.test/other/7', WITH_BASE),
    );
    const cached = await ingestBytes(warc, 'dust.warc');
    const fresh = await ingestBytes(warc, 'dust.warc', { bodyCacheChars: 0 });
    expect(JSON.stringify(cached.pages)).toBe(JSON.stringify(fresh.pages));
    const links = cached.pages.map((p) => p.content.outlinks);
    expect(links[0]).toEqual(['http://news.test/', 'http://news.test/list', 'http://news.test/up']);
    expect(links[1]).toEqual(['http://news.test/', 'http://news.test/a/list', 'http://news.test/up']);
    expect(links[2]).toContain('http://news.test/archive/2024/up');
    // <base href="/archive/"> resolved against each page's URL.
    expect(links[3]).toEqual([
      'http://mirror.test/',
      'http://mirror.test/archive/list',
      'http://mirror.test/up',
    ]);
    expect(new Set(cached.pages.map((p) => p.content.text)).size).toBe(1);
    expect(new Set(cached.pages.map((p) => p.page.fingerprint)).size).toBe(1);
    // Each page as extractHtmlTidy gives it on its own.
    for (const p of cached.pages) {
      const x = extractHtmlTidy(
        p.page.url.startsWith('http://mirror') ? WITH_BASE : PAGE,
        p.page.normUrl,
        true,
      );
      expect(p.content.outlinks).toEqual(x.outlinks);
      expect(p.content.rawOutlinks).toEqual(x.rawOutlinks);
      expect(p.content.text).toBe(x.text);
      expect(p.page.title).toBe(x.title);
    }
  });

  it('finds a repeat by its stated payload digest, and never trusts a digest over the HTML', async () => {
    const D = 'sha1:2WAXX5NUWNNCS2BDKCO5OVDQBJVNKIVV';
    const other = PAGE.replace('idle all week', 'busy all night');
    const warc = concat(
      response('http://news.test/a', PAGE, D),
      response('http://news.test/b', PAGE, D), // a repeat, found by its digest
      response('http://news.test/c', other, D), // a writer's wrong digest: other HTML, its own text
      response('http://news.test/d', PAGE), // no digest: found by the HTML itself
    );
    const cached = await ingestBytes(warc, 'digests.warc');
    const fresh = await ingestBytes(warc, 'digests.warc', { bodyCacheChars: 0 });
    expect(JSON.stringify(cached.pages)).toBe(JSON.stringify(fresh.pages));
    const texts = cached.pages.map((p) => p.content.text);
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toMatch(/busy all night/);
    expect(texts[3]).toBe(texts[0]);
    const cache = new ExtractionCache();
    cache.bodyOf(PAGE, D);
    cache.bodyOf(PAGE, D);
    cache.bodyOf(other, D);
    cache.bodyOf(PAGE, D); // the entry of the first stays
    expect([cache.hits, cache.misses]).toEqual([2, 2]);
  });

  it('keys a payload without a stated digest by the digest computed for it, when SHA-1 is synchronous', async () => {
    // Keyed by the HTML itself, V8 hashes every character of it: 5.7% of a Node read of a crawl without
    // digests (generated 210 MB), where the SHA-1 computed for the page's digest is already at hand.
    const asked: string[] = [];
    const bodyOf = ExtractionCache.prototype.bodyOf;
    const spy = vi.spyOn(ExtractionCache.prototype, 'bodyOf').mockImplementation(function (
      this: ExtractionCache,
      html: string,
      digest?: string,
    ) {
      asked.push(digest ?? '');
      return bodyOf.call(this, html, digest);
    });
    try {
      const warc = concat(response('http://news.test/a', PAGE), response('http://news.test/b', PAGE));
      const run = await ingestBytes(warc, 'computed.warc', { natives: nodeNatives });
      expect(asked).toHaveLength(2);
      expect(asked[0]).toMatch(/^sha1:[A-Z2-7]{32}$/);
      expect(asked[1]).toBe(asked[0]);
      expect(run.pages.map((p) => p.page.digest)).toEqual(asked);
      expect(run.pages[1].content.text).toBe(run.pages[0].content.text);
    } finally {
      spy.mockRestore();
    }
  });

  it('reads the sample crawl (DUST aliases, mirrors, reposts) to the same pages as without it', async () => {
    const sample = new Uint8Array(readFileSync(join(import.meta.dirname, '../../../sample/sample.warc.gz')));
    const cached = await ingestBytes(sample, 'sample.warc.gz', { chunkSize: 1 << 16 });
    const fresh = await ingestBytes(sample, 'sample.warc.gz', { chunkSize: 1 << 16, bodyCacheChars: 0 });
    expect(cached.pages.length).toBeGreaterThan(400);
    expect(cached.pages.map((p) => JSON.stringify(p))).toEqual(fresh.pages.map((p) => JSON.stringify(p)));
  });
});
