/**
 * One crawl read whole, in the browser's parallel parts (the ingest job, parts written to IndexedDB by
 * their own workers) and in the CLI's (worker threads handing pages on in order): the same pages, the same
 * page numbers and the same revisit ties (core/ingest/parts.ts decides all three for both platforms).
 */
import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSource } from '../../src/cli/file-source';
import { nodeNatives } from '../../src/cli/natives';
import { partsReader } from '../../src/cli/parts';
import type { UnitReader } from '../../src/core/ingest/crawl-units';
import { ingestCrawl } from '../../src/core/ingest/many-files';
import { SEGMENT_SEQS } from '../../src/core/ingest/parts';
import { seededRandom } from '../../src/core/random';
import { base32 } from '../../src/core/text/sha1';
import type { PageRecord as Page } from '../../src/core/types';
import { loadPages } from '../../src/db/page-rows';
import { db } from '../../src/db/schema';
import { runIngest, runPart } from '../../src/workers/ingest-job';
import { concat, httpResponse, warcRecord } from '../core/helpers';

const dir = mkdtempSync(join(tmpdir(), 'dw-parts-agree-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Numbering segments of 16 KiB: a crawl of ~1 MB is cut where the platforms would cut a large one. */
const segmentBytes = 16 << 10;

/**
 * A WARC.gz of `n` captures (seeded): pages captured again later with the same payload (so a revisit has
 * several candidate originals, and the last earlier one is the tie), revisits of earlier captures at
 * random places (by URL and payload digest, as most crawlers write them), now and then a metadata record.
 */
function crawl(seed: number, n: number): string {
  const rnd = seededRandom(seed);
  const word = () => Math.floor(rnd() * 1e9).toString(36);
  const members: Uint8Array[] = [];
  const seen: { url: string; digest: string }[] = [];
  const add = (headers: [string, string][], block: Uint8Array | string) =>
    members.push(new Uint8Array(gzipSync(warcRecord(headers, block))));
  for (let i = 0; i < n; i++) {
    const again = seen.length > 0 && rnd() < 0.15;
    const pick = again ? seen[Math.floor(rnd() * seen.length)] : null;
    if (pick && rnd() < 0.6) {
      add(
        [
          ['WARC-Type', 'revisit'],
          ['WARC-Target-URI', pick.url],
          ['WARC-Refers-To-Target-URI', pick.url],
          ['WARC-Payload-Digest', pick.digest],
          ['WARC-Date', '2024-01-02T00:00:00Z'],
          ['WARC-Profile', 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest'],
        ],
        httpResponse(200, [['Content-Type', 'text/html']], ''),
      );
      continue;
    }
    const url = pick ? pick.url : `http://site${i % 3}.test/p/${i}`;
    const words = 50 + Math.floor(rnd() * 400);
    // A capture again of a page keeps its payload (same digest): found by URL and digest.
    const body = pick
      ? (bodies.get(pick.url) as Uint8Array)
      : new TextEncoder().encode(
          `<html><title>Page ${i}</title><p>${Array.from({ length: words }, word).join(' ')}</p></html>`,
        );
    bodies.set(url, body);
    const digest = 'sha1:' + base32(createHash('sha1').update(body).digest());
    if (!pick) seen.push({ url, digest });
    add(
      [
        ['WARC-Type', 'response'],
        ['WARC-Target-URI', url],
        ['WARC-Date', '2024-01-01T00:00:00Z'],
        ['WARC-Payload-Digest', digest],
      ],
      httpResponse(200, [['Content-Type', 'text/html; charset=utf-8']], body),
    );
    if (rnd() < 0.05)
      add(
        [
          ['WARC-Type', 'metadata'],
          ['WARC-Target-URI', url],
        ],
        'x',
      );
  }
  const path = join(dir, `crawl-${seed}.warc.gz`);
  writeFileSync(path, concat(...members));
  return path;
}
const bodies = new Map<string, Uint8Array>();

/** What must agree: the page, its number, its revisit tie. */
const agreed = (p: Page) => ({
  seq: p.seq,
  url: p.url,
  offset: p.offset,
  recordType: p.recordType,
  revisitOf: p.revisitOf,
  title: p.title,
  fingerprint: p.fingerprint,
  digest: p.digest,
});

async function readInNode(path: string, readUnit?: UnitReader): Promise<Page[]> {
  const src = await fileSource(path, { name: 'crawl.warc.gz', chunkBytes: 1 << 16 });
  const pages: Page[] = [];
  try {
    await ingestCrawl([src], { natives: nodeNatives, readUnit, segmentBytes }, async (batch) => {
      for (const p of batch) pages.push(p.page);
    });
  } finally {
    await src.close();
  }
  return pages;
}

/** The browser's ingest job with `parts` parts, each read in this thread as a worker of its own would. */
async function readInBrowserParts(path: string, parts: number): Promise<Page[]> {
  const bytes = (await import('node:fs')).readFileSync(path);
  let runners = 0;
  const r = await runIngest(
    { files: [new File([bytes], 'crawl.warc.gz')] },
    () => {},
    () => false,
    {
      parts,
      minBytes: 0,
      segmentBytes,
      runner: () => {
        runners++;
        return {
          run: (req, onProgress) => runPart(req, onProgress, () => false),
          cancel: () => {},
          terminate: () => {},
        };
      },
    },
  );
  if (r.kind !== 'done') throw new Error(`the browser's read ended ${r.kind}`);
  expect(runners).toBe(parts - 1);
  const pages = await loadPages(db(), r.datasetId);
  await db().delete();
  await db().open();
  return pages;
}

describe('one crawl whole, in browser-sized parts and in CLI-sized parts', () => {
  for (const seed of [5, 17, 29]) {
    it(`gives the same pages, page numbers and revisit ties (seed ${seed})`, async () => {
      const path = crawl(seed, 900);
      const whole = await readInNode(path);
      const cli: number[][] = [];
      const inCliParts = await readInNode(
        path,
        partsReader(() => path, { parts: 4, minBytes: 0, onParts: (_n, b) => cli.push(b) }),
      );
      const inBrowserParts = await readInBrowserParts(path, 2);

      expect(cli[0]?.length, `seed ${seed}: the CLI cut the file in four`).toBe(5);
      // Pages numbered by segment, across many segments; revisits tied across parts, some to a page
      // captured more than once (the last capture before the revisit is the tie).
      expect(new Set(whole.map((p) => Math.floor(p.seq / SEGMENT_SEQS))).size).toBeGreaterThan(20);
      const revisits = whole.filter((p) => p.recordType === 'revisit');
      expect(revisits.length).toBeGreaterThan(30);
      expect(revisits.every((p) => p.revisitOf >= 0)).toBe(true);
      const firstOfKey = new Map<string, number>();
      for (const p of whole)
        if (p.recordType !== 'revisit' && !firstOfKey.has(p.url + p.digest))
          firstOfKey.set(p.url + p.digest, p.seq);
      const tiedToALaterCapture = revisits.filter((p) => firstOfKey.get(p.url + p.digest) !== p.revisitOf);
      expect(tiedToALaterCapture.length, `seed ${seed}`).toBeGreaterThan(0);

      expect(inCliParts.map(agreed), `seed ${seed}: CLI parts`).toEqual(whole.map(agreed));
      expect(inBrowserParts.map(agreed), `seed ${seed}: browser parts`).toEqual(whole.map(agreed));
    }, 60_000);
  }
});
