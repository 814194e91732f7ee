import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSource } from '../../src/cli/file-source';
import { nodeNatives } from '../../src/cli/natives';
import { partsReader } from '../../src/cli/parts';
import type { UnitReader } from '../../src/core/ingest/crawl-units';
import { ingestCrawl } from '../../src/core/ingest/many-files';
import { base32 } from '../../src/core/text/sha1';
import type { IngestedPage } from '../../src/core/types';
import { seededRandom } from '../../src/core/random';
import { concat, httpResponse, warcRecord } from '../core/helpers';

const dir = mkdtempSync(join(tmpdir(), 'dw-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A WARC.gz of `n` pages (one gzip member per record, text that does not compress away, so the file
 * is large enough to cut), with revisits of earlier pages near its end (their originals lie in the
 * first parts) and a few right after their originals (same part), and a metadata record now and then.
 */
function crawl(n: number): string {
  const rnd = seededRandom(11);
  const word = () => Math.floor(rnd() * 1e9).toString(36);
  const members: Uint8Array[] = [];
  const digests: string[] = [];
  const add = (headers: [string, string][], block: Uint8Array | string) =>
    members.push(new Uint8Array(gzipSync(warcRecord(headers, block))));
  const revisit = (i: number, at: number) =>
    add(
      [
        ['WARC-Type', 'revisit'],
        ['WARC-Target-URI', `http://site.test/p/${i}?again=${at}`],
        ['WARC-Refers-To-Target-URI', `http://site.test/p/${i}`],
        ['WARC-Payload-Digest', digests[i]],
        ['WARC-Date', '2024-01-02T00:00:00Z'],
        ['WARC-Profile', 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest'],
      ],
      httpResponse(200, [['Content-Type', 'text/html']], ''),
    );
  for (let i = 0; i < n; i++) {
    const body = `<html><head><title>Page ${i}</title></head><body><p>${Array.from({ length: 300 }, word).join(' ')}</p><a href="/p/${(i * 7) % n}">next</a></body></html>`;
    const bytes = new TextEncoder().encode(body);
    digests.push('sha1:' + base32(createHash('sha1').update(bytes).digest()));
    add(
      [
        ['WARC-Type', 'response'],
        ['WARC-Target-URI', `http://site.test/p/${i}`],
        ['WARC-Date', '2024-01-01T00:00:00Z'],
        ['WARC-Payload-Digest', digests[i]],
      ],
      httpResponse(200, [['Content-Type', 'text/html; charset=utf-8']], bytes),
    );
    if (i % 50 === 10) revisit(i, i); // original in the same part
    if (i % 97 === 0)
      add(
        [
          ['WARC-Type', 'metadata'],
          ['WARC-Target-URI', `http://site.test/p/${i}`],
        ],
        'x',
      );
  }
  for (let i = 0; i < n; i += 37) revisit(i, n); // originals in earlier parts
  const path = join(dir, `crawl-${n}.warc.gz`);
  writeFileSync(path, concat(...members));
  return path;
}

/** Segments of 64 KiB: files of a few MB are cut in parts (the default is 1 MiB; any size numbers pages alike). */
const segmentBytes = 64 << 10;

async function read(path: string, readUnit?: UnitReader, name = 'crawl.warc.gz') {
  const src = await fileSource(path, { name, chunkBytes: 1 << 16 });
  const pages: IngestedPage[] = [];
  try {
    const summary = await ingestCrawl(
      [src],
      { natives: nodeNatives, readUnit, segmentBytes },
      async (batch) => void pages.push(...batch),
    );
    return { pages, summary };
  } finally {
    await src.close();
  }
}

describe('partsReader: one file read in worker threads', () => {
  it('hands on the same pages, seqs and summary as a read in order, revisits across parts resolved', async () => {
    const path = crawl(1200);
    const inOrder = await read(path);
    const inParts = await read(
      path,
      partsReader(() => path, { parts: 3, minBytes: 0 }),
    );
    expect(inOrder.pages.length).toBeGreaterThan(1200);
    // Revisits whose original is in an earlier part were resolved (the in-order read resolves them all).
    const revisits = inOrder.pages.filter((p) => p.page.recordType === 'revisit');
    expect(revisits.length).toBeGreaterThan(50);
    expect(revisits.every((p) => p.page.revisitOf >= 0)).toBe(true);
    expect(inParts.pages.map((p) => JSON.stringify(p))).toEqual(inOrder.pages.map((p) => JSON.stringify(p)));
    const same = (s: typeof inOrder.summary) => ({
      ...s,
      elapsedMs: 0,
      sinkMs: 0,
      hostNames: [...s.hostNames].sort(),
      sources: s.sources?.map((x) => ({ ...x, elapsedMs: 0, parts: 0 })),
    });
    expect(same(inParts.summary)).toEqual(same(inOrder.summary));
    expect(inParts.summary.sources?.[0].parts).toBe(3);
    expect(inOrder.summary.sources?.[0].parts).toBeUndefined();
  }, 60_000);
});

describe('partsReader: a WACZ', () => {
  it('cuts a STORED WARC member in parts like a file: the same pages (listed ones marked) as a read in order', async () => {
    const warc = crawl(900);
    const listed = Array.from({ length: 300 }, (_, i) => `http://site.test/p/${i * 3}`);
    const pagesJsonl = [
      JSON.stringify({ format: 'json-pages-1.0', id: 'pages' }),
      ...listed.map((url) => JSON.stringify({ url, ts: '2024-01-01T00:00:00Z' })),
    ].join('\n');
    const text = (t: string) => new TextEncoder().encode(t);
    const path = join(dir, 'crawl.wacz');
    writeFileSync(
      path,
      zipSync({
        'datapackage.json': [text(JSON.stringify({ wacz_version: '1.1.1' })), { level: 6 }],
        'archive/data.warc.gz': [new Uint8Array(readFileSync(warc)), { level: 0 }],
        'pages/pages.jsonl': [text(pagesJsonl), { level: 6 }],
      }),
    );
    const cut: number[][] = [];
    const inOrder = await read(path, undefined, 'crawl.wacz');
    const inParts = await read(
      path,
      partsReader(() => path, { parts: 3, minBytes: 0, onParts: (_n, bounds) => cut.push(bounds) }),
      'crawl.wacz',
    );
    expect(cut.length).toBe(1);
    expect(cut[0].length).toBe(4); // three parts
    expect(inOrder.pages.filter((p) => p.page.listed).length).toBe(300);
    expect(inParts.pages.map((p) => JSON.stringify(p))).toEqual(inOrder.pages.map((p) => JSON.stringify(p)));
    expect(inParts.summary.pageList).toEqual({ listed: 300, found: 300 });
    expect(inParts.summary.sources?.[0].name).toBe('crawl.wacz › archive/data.warc.gz');
  }, 60_000);
});
