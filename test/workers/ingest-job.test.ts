import 'fake-indexeddb/auto';
import { gzipSync, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { statusClass } from '../../src/core/ingest/status';
import { chunkBytes } from '../../src/db/chunks';
import { loadPages } from '../../src/db/page-rows';
import { approxBytes } from '../../src/db/page-writes';
import { markInterrupted } from '../../src/db/queries';
import { db } from '../../src/db/schema';
import { runIngest, runPart } from '../../src/workers/ingest-job';
import { httpResponse, warcRecord } from '../core/helpers';

/** Page i's HTTP status: of each 100, 4 are 301 (0, 25, …), 10 are 404 (9, 19, …), one is 500 (55). */
const statusOf = (i: number) => (i % 25 === 0 ? 301 : i % 10 === 9 ? 404 : i % 100 === 55 ? 500 : 200);

/**
 * A WARC of `n` HTML pages, 100 a host in turn (h0.test, h1.test, …), with statuses by statusOf, a record
 * a part of the File: its stream hands over a record at a time, so the pipeline's batches are exactly 500
 * pages (5 hosts).
 */
function warcOfPages(n: number, pad = 0): File {
  return new File(pageRecords(n, pad) as BlobPart[], 'crawl.warc');
}

/** The records of warcOfPages, one gzip member each (as crawlers write a WARC.gz). */
function warcGzOfPages(n: number, pad = 0): File {
  return new File(pageRecords(n, pad).map((r) => gzipSync(r)) as BlobPart[], 'data.warc.gz');
}

function pageRecords(n: number, pad: number): Uint8Array[] {
  const records: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const id = i.toString(16).padStart(12, '0');
    const url = `http://h${Math.floor(i / 100)}.test/p${i}`;
    records.push(
      warcRecord(
        [
          ['WARC-Type', 'response'],
          ['WARC-Target-URI', url],
          ['WARC-Date', '2024-01-15T10:00:00Z'],
          ['WARC-Record-ID', `<urn:uuid:00000000-0000-0000-0000-${id}>`],
          ['Content-Type', 'application/http; msgtype=response'],
        ],
        httpResponse(
          statusOf(i),
          [['Content-Type', 'text/html']],
          `<title>Page ${i}</title><p>text ${i}</p>${' '.repeat(pad)}`,
        ),
      ),
    );
  }
  return records;
}

/**
 * A WACZ holding `warc` as archive/data.warc.gz — STORED, as the spec asks, or deflated — and a
 * pages.jsonl listing every third page (and one never captured).
 */
async function waczOf(warc: File, stored: boolean): Promise<File> {
  const urls = Array.from({ length: 1200 }, (_, i) => `http://h${Math.floor(i / 100)}.test/p${i}`);
  const listed = [...urls.filter((_, i) => i % 3 === 0), 'http://h0.test/never-captured'];
  const text = (t: string) => new TextEncoder().encode(t);
  const pages = [
    JSON.stringify({ format: 'json-pages-1.0', id: 'pages' }),
    ...listed.map((url) => JSON.stringify({ url, ts: '2024-01-15T10:00:00Z' })),
  ].join('\n');
  const zip = zipSync({
    'archive/data.warc.gz': [new Uint8Array(await warc.arrayBuffer()), { level: stored ? 0 : 1 }],
    'pages/pages.jsonl': [text(pages), { level: 6 }],
    'datapackage.json': [
      text(JSON.stringify({ profile: 'data-package', wacz_version: '1.1.1' })),
      { level: 6 },
    ],
  });
  return new File([zip as BlobPart], 'crawl.wacz');
}

/** The browser's storage is full from the `from`th batch written on (1-based): its put fails. */
function quotaFrom(from: number): () => void {
  const table = db().pageChunks;
  let puts = 0;
  const full = () => {
    if (++puts >= from) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  };
  table.hook('creating', full);
  return () => table.hook('creating').unsubscribe(full);
}

/** A part runner that reads its part in this thread (the worker spawns one a part). */
const inThisThread = () => ({
  run: (req: Parameters<typeof runPart>[0], onProgress: Parameters<typeof runPart>[1]) =>
    runPart(req, onProgress, () => false),
  cancel: () => {},
  terminate: () => {},
});

/** Read one file to the end (never cancelled), as the worker does. */
const read = (file: File, spawn?: Parameters<typeof runIngest>[3]) =>
  runIngest(
    { files: [file] },
    () => {},
    () => false,
    spawn,
  );

/** The page rows really stored, on how many hosts, and how many of each status class. */
async function stored(
  datasetId: number,
): Promise<{ pages: number; hosts: number; statusCounts: Record<string, number> }> {
  const pages = await loadPages(db(), datasetId);
  const statusCounts: Record<string, number> = {};
  for (const p of pages) statusCounts[statusClass(p.status)] = (statusCounts[statusClass(p.status)] ?? 0) + 1;
  return { pages: pages.length, hosts: new Set(pages.map((p) => p.host)).size, statusCounts };
}

/** Statuses of pages 0…999 by statusOf, by class. */
const FIRST_1000 = { '2xx': 850, '3xx': 40, '4xx': 100, '5xx': 10 };

afterEach(async () => {
  await db().delete();
  await db().open();
});

/**
 * Read `file` with the `refusedFrom`-th batch write and those after it refused for want of space: the
 * stopped result, its partial dataset row, and what is really stored — whose counts the row must have.
 */
async function readUntilFull(file: File, refusedFrom: number, spawn?: Parameters<typeof runIngest>[3]) {
  const release = quotaFrom(refusedFrom);
  try {
    const r = await read(file, spawn);
    if (r.kind !== 'stopped') throw new Error(`expected a stopped read, got ${r.kind}`);
    const row = (await db().datasets.get(r.datasetId))!;
    expect(row.status).toBe('partial');
    const kept = await stored(r.datasetId);
    expect(row.pages).toBe(kept.pages);
    expect(row.hosts).toBe(kept.hosts);
    expect(row.statusCounts).toEqual(kept.statusCounts);
    return { r, row, kept };
  } finally {
    release();
  }
}

/**
 * Two parts (the line lowered to 8 MB for this 8.4 MB file, numbering segments of 1 MiB for a cut near its
 * middle), both read in this thread.
 */
const TWO_PARTS = { parts: 2, runner: inThisThread, minBytes: 8 << 20, segmentBytes: 1 << 20 };

describe('ingest job: a full disk', () => {
  it('keeps the hosts and statuses of the pages really stored when a write fails mid-read', async () => {
    const { r, kept } = await readUntilFull(warcOfPages(1200), 3);
    expect(r.error.reason).toMatch(/storage for this site is full/);
    // Two batches of 500 stored (seqs 0–999): hosts h0…h9 — not the 12 read, nor 0; their statuses
    // (there were none: no Status line in the header).
    expect(kept).toEqual({ pages: 1000, hosts: 10, statusCounts: FIRST_1000 });
    expect(r.pages).toBe(kept.pages);
  });

  it('keeps the records read, by type, when the last write fails (not the pages stored)', async () => {
    // Batches of 500, 500 and 200: the third, the last, is refused once all 1200 records were read.
    const { row, kept } = await readUntilFull(warcOfPages(1200), 3);
    expect(kept.pages).toBe(1000);
    expect(row.recordsByType).toEqual({ response: 1200 });
    expect(row.records).toBe(1200);
  });

  it('keeps the records read, by type, when a write fails mid-read and the read stops', async () => {
    // The second batch (pages 500–999) is refused: its records were read, and at most the rest of the
    // file after them (the read stops at the next chunk the fault is seen at); 500 pages are stored.
    const { row, kept } = await readUntilFull(warcOfPages(1200), 2);
    expect(kept.pages).toBe(500);
    expect(Object.keys(row.recordsByType)).toEqual(['response']);
    expect(row.records).toBe(row.recordsByType.response);
    expect(row.records).toBeGreaterThanOrEqual(1000);
    expect(row.records).toBeLessThanOrEqual(1200);
  });

  it('keeps the records of every file read before a write failed in a crawl of many', async () => {
    // Two files of 600 pages (batches 500 + 100 each): the second file's first batch is refused.
    const release = quotaFrom(3);
    try {
      const r = await runIngest(
        { files: [warcOfPages(600), warcOfPages(600)] },
        () => {},
        () => false,
      );
      if (r.kind !== 'stopped') throw new Error(`expected a stopped read, got ${r.kind}`);
      const row = (await db().datasets.get(r.datasetId))!;
      expect((await stored(r.datasetId)).pages).toBe(600);
      expect(row.pages).toBe(600);
      expect(row.records).toBeGreaterThanOrEqual(1100);
      expect(row.recordsByType).toEqual({ response: row.records });
    } finally {
      release();
    }
  });

  it('keeps the hosts and statuses of the pages really stored when parallel parts run out of space (summary passed)', async () => {
    // Each part stores its first batch, then is refused.
    const { row, kept } = await readUntilFull(warcOfPages(1200, 7000), 3, TWO_PARTS);
    expect(kept.pages).toBeGreaterThanOrEqual(1000);
    expect(kept.hosts).toBeGreaterThan(0);
    // Every part failed: the summary had no status counts at all (was {}: no Status line).
    expect(Object.keys(kept.statusCounts).length).toBeGreaterThan(1);
    // Nor records (no Records line): now those the failed parts read, refused batches included.
    expect(Object.keys(row.recordsByType)).toEqual(['response']);
    expect(row.records).toBe(row.recordsByType.response);
    expect(row.records).toBeGreaterThan(kept.pages);
    expect(row.records).toBeLessThanOrEqual(1200);
  });

  it('keeps the records by type of a finished parallel part and of a failed one, with counts from the rows stored', async () => {
    // Two parts of about 600 pages, each stored as 500 + the rest: the fourth batch written, the last, is
    // refused, so one part finishes and the other fails after its first 500, having read all its records.
    const { row, kept } = await readUntilFull(warcOfPages(1200, 7000), 4, TWO_PARTS);
    expect(kept.pages).toBeGreaterThan(1000);
    expect(kept.pages).toBeLessThan(1200);
    // Records are not rows: the records both parts read (a record a page), stored or not.
    expect(row.recordsByType).toEqual({ response: 1200 });
    expect(row.records).toBe(1200);
  });

  it('gives an interrupted dataset the hosts and statuses of its stored pages too', async () => {
    const release = quotaFrom(3);
    let id: number;
    try {
      const r = await read(warcOfPages(1200));
      id = (r as { datasetId: number }).datasetId;
    } finally {
      release();
    }
    // As if the tab had been closed while reading: the row is left 'ingesting' with no counts.
    await db().datasets.update(id, {
      status: 'ingesting',
      pages: 0,
      hosts: 0,
      statusCounts: undefined,
      heartbeat: 0,
    });
    expect(await markInterrupted(db())).toBe(1);
    const row = (await db().datasets.get(id))!;
    expect(row.status).toBe('interrupted');
    const kept = await stored(id);
    expect(kept).toEqual({ pages: 1000, hosts: 10, statusCounts: FIRST_1000 });
    expect(row.pages).toBe(kept.pages);
    expect(row.hosts).toBe(kept.hosts);
    expect(row.statusCounts).toEqual(kept.statusCounts);
  });
});

describe('ingest job: the row at the end', () => {
  it('counts every batch stored in storedBytes, read in one worker or in parts, and returns the row', async () => {
    for (const spawn of [undefined, TWO_PARTS]) {
      const r = await read(warcOfPages(1200, 7000), spawn);
      if (r.kind !== 'done') throw new Error(`expected a done read, got ${r.kind}`);
      // What each stored batch takes, as writeBatch counts it.
      let want = 0;
      await db()
        .pageChunks.where('[datasetId+chunk]')
        .between([r.datasetId, -Infinity], [r.datasetId, Infinity])
        .each((c) => void (want += approxBytes(c.pages)));
      await db()
        .chunks.where('[datasetId+chunk]')
        .between([r.datasetId, -Infinity], [r.datasetId, Infinity])
        .each((c) => void (want += chunkBytes(c)));
      const row = (await db().datasets.get(r.datasetId))!;
      expect(row.status, spawn ? 'in parts' : 'in one').toBe('ready');
      expect(row.storedBytes, spawn ? 'in parts' : 'in one').toBe(want);
      expect(r.row).toEqual(row);
    }
  });
});

describe('ingest job: a WACZ', () => {
  /** The pages of a dataset, numbered and tied as read (parts number them as a read in order does). */
  async function pagesOf(datasetId: number) {
    const pages = await loadPages(db(), datasetId);
    return pages
      .sort((a, b) => a.seq - b.seq)
      .map(({ seq, url, status, title, fingerprint, digest, offset, source, listed, host }) => ({
        seq,
        url,
        status,
        title,
        fingerprint,
        digest,
        offset,
        source,
        listed: listed ?? false,
        host,
      }));
  }

  it('reads a large STORED WARC member in parallel parts, with the same pages as a read in order', async () => {
    const warc = warcGzOfPages(1200, 7000);
    const wacz = await waczOf(warc, true);
    let parts = 0;
    const counting = () => {
      parts++;
      return inThisThread();
    };
    const split = await read(wacz, { parts: 2, runner: counting, minBytes: 1 << 14, segmentBytes: 1 << 14 });
    expect(parts).toBe(1); // the second part went to a runner: the member was cut in two
    await db().datasets.clear();
    const whole = await read(wacz, { parts: 1, runner: counting, segmentBytes: 1 << 14 });
    if (split.kind !== 'done' || whole.kind !== 'done') throw new Error('both reads end');
    const a = await pagesOf(split.datasetId);
    const b = await pagesOf(whole.datasetId);
    expect(a.length).toBe(1200);
    expect(a).toEqual(b);
    // Listed pages are marked in both parts and counted once: 400 of the 401 listed were found.
    expect(a.filter((p) => p.listed).length).toBe(400);
    expect(split.summary.pageList).toEqual({ listed: 401, found: 400 });
    expect(split.summary.pageList).toEqual(whole.summary.pageList);
    expect(split.summary.sources?.[0].name).toBe('crawl.wacz › archive/data.warc.gz');
    expect(split.summary.sources?.[0].pages).toBe(1200);
    expect(split.summary.recordsByType).toEqual(whole.summary.recordsByType);
  });

  it('reads a deflated WARC member in order (it is not a range of the file)', async () => {
    const warc = warcGzOfPages(300, 7000);
    let parts = 0;
    const r = await read(await waczOf(warc, false), {
      parts: 2,
      runner: () => {
        parts++;
        return inThisThread();
      },
      minBytes: 1 << 14,
      segmentBytes: 1 << 14,
    });
    expect(r.kind).toBe('done');
    expect(parts).toBe(0);
    expect((await pagesOf((r as { datasetId: number }).datasetId)).length).toBe(300);
  });
});

describe('the storage-full message never contradicts its count', () => {
  it('says nothing is kept when no page was stored, and how many are kept otherwise', async () => {
    const { storageFullInfo } = await import('../../src/workers/ingest-faults');
    expect(storageFullInfo('x.warc', 0).reason).toBe(
      "the browser's storage for this site is full: the read stopped before any page was stored. Delete datasets you no longer need or free disk space, then read the file again",
    );
    expect(storageFullInfo('x.warc', 1).reason).toMatch(/stopped with 1 page stored, which is kept\./);
    expect(storageFullInfo('x.warc', 48186).reason).toMatch(
      /stopped with 48,186 pages stored, which are kept\./,
    );
  });
});
