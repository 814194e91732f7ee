import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPages, markInterrupted } from '../../src/db/queries';
import { db } from '../../src/db/schema';
import { runIngest, runPart } from '../../src/workers/ingest-job';
import { httpResponse, warcRecord } from '../core/helpers';

/**
 * A WARC of `n` HTML pages, 100 a host in turn (h0.test, h1.test, …), a record a part of the File: its
 * stream hands over a record at a time, so the pipeline's batches are exactly 500 pages (5 hosts).
 */
function warcOfPages(n: number, pad = 0): File {
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
          200,
          [['Content-Type', 'text/html']],
          `<title>Page ${i}</title><p>text ${i}</p>${' '.repeat(pad)}`,
        ),
      ),
    );
  }
  return new File(records as BlobPart[], 'crawl.warc');
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

/** Read one file to the end (never cancelled), as the worker does. */
const read = (file: File, spawn?: Parameters<typeof runIngest>[3]) =>
  runIngest(
    { files: [file] },
    () => {},
    () => false,
    spawn,
  );

/** The page rows really stored, and on how many hosts. */
async function stored(datasetId: number): Promise<{ pages: number; hosts: number }> {
  const pages = await loadPages(db(), datasetId);
  return { pages: pages.length, hosts: new Set(pages.map((p) => p.host)).size };
}

afterEach(async () => {
  await db().delete();
  await db().open();
});

describe('ingest job: a full disk', () => {
  it('keeps the hosts of the pages really stored when a write fails mid-read (no summary to carry)', async () => {
    const release = quotaFrom(3);
    try {
      const r = await read(warcOfPages(1200));
      expect(r.kind).toBe('stopped');
      if (r.kind !== 'stopped') return;
      expect(r.error.reason).toMatch(/storage for this site is full/);
      const row = (await db().datasets.get(r.datasetId))!;
      expect(row.status).toBe('partial');
      // Two batches of 500 stored (seqs 0–999): hosts h0…h9 — not the 12 read, nor 0.
      const kept = await stored(r.datasetId);
      expect(kept).toEqual({ pages: 1000, hosts: 10 });
      expect(row.pages).toBe(kept.pages);
      expect(r.pages).toBe(kept.pages);
      expect(row.hosts).toBe(kept.hosts);
    } finally {
      release();
    }
  });

  it('keeps the hosts of the pages really stored when parallel parts run out of space (summary passed)', async () => {
    // 8.4 MB: read in two parts, here both in this thread; each stores its first batch, then is refused.
    const file = warcOfPages(1200, 7000);
    const runner = () => ({
      run: (req: Parameters<typeof runPart>[0], onProgress: Parameters<typeof runPart>[1]) =>
        runPart(req, onProgress, () => false),
      cancel: () => {},
      terminate: () => {},
    });
    const release = quotaFrom(3);
    try {
      const r = await read(file, { parts: 2, runner });
      expect(r.kind).toBe('stopped');
      if (r.kind !== 'stopped') return;
      const row = (await db().datasets.get(r.datasetId))!;
      expect(row.status).toBe('partial');
      const kept = await stored(r.datasetId);
      expect(kept.pages).toBeGreaterThanOrEqual(1000);
      expect(kept.hosts).toBeGreaterThan(0);
      expect(row.pages).toBe(kept.pages);
      expect(row.hosts).toBe(kept.hosts);
    } finally {
      release();
    }
  });

  it('gives an interrupted dataset the hosts of its stored pages too', async () => {
    const release = quotaFrom(3);
    let id: number;
    try {
      const r = await read(warcOfPages(1200));
      id = (r as { datasetId: number }).datasetId;
    } finally {
      release();
    }
    // As if the tab had been closed while reading: the row is left 'ingesting' with no counts.
    await db().datasets.update(id, { status: 'ingesting', pages: 0, hosts: 0, heartbeat: 0 });
    expect(await markInterrupted(db())).toBe(1);
    const row = (await db().datasets.get(id))!;
    expect(row.status).toBe('interrupted');
    const kept = await stored(id);
    expect(kept).toEqual({ pages: 1000, hosts: 10 });
    expect(row.pages).toBe(kept.pages);
    expect(row.hosts).toBe(kept.hosts);
  });
});
