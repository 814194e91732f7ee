/**
 * Pages written into a dataset: a batch at a time, its row's stored bytes and pages metered; what a value
 * takes in IndexedDB, the quota's errors, and the last pages given back for room.
 */
import type { IngestedPage } from '../core/types';
import type { PageContent } from '../core/types';
import { chunkBytes, packChunk, type StoredChunk } from './chunks';
import { assertDatasetExists } from './orphans';
import { forgetChunks } from './page-contents';
import { pageChunksOf } from './page-rows';
import type { StoredPage } from './rows';
import type { WorkbenchDb } from './schema';

/**
 * What one writer (an ingest worker) has stored into a dataset but not yet added to its row's
 * storedBytes. The row (heartbeat, storedBytes) is rewritten at most every TOUCH_MS, not with each
 * batch: every write of it costs a read and a write in the transaction and wakes every tab's dataset
 * list (a liveQuery), which re-rendered the app ~10 times a second during a large ingest (generated
 * 210 MB in Chromium: 13.31 → 13.18 s, median of 3 drops A/B — within the noise, but less churn).
 * The row's `pages` counts the pages stored so far while the read runs (the header and the dataset
 * list show them live); the job's end writes the final counts.
 */
export class StoreMeter {
  /** Bytes and pages stored but not yet added to the row. */
  pending = 0;
  pendingPages = 0;
  last = 0;
}
const TOUCH_MS = 1000;

/**
 * One batch of pages in one transaction: a batch is written whole or not at all, as two values — its
 * page rows (StoredPageChunk) and its contents (StoredChunk), both keyed by its first seq. Without a
 * meter (tests, one-off writes) the dataset row is updated with every batch. A dataset deleted while it
 * is read gets no more rows: the transaction finds its row gone and throws DatasetGone (orphans.ts).
 */
export async function writeBatch(
  d: WorkbenchDb,
  datasetId: number,
  batch: IngestedPage[],
  meter = new StoreMeter(),
): Promise<void> {
  if (batch.length === 0) return;
  const { chunk, pages, row, bytes: stored } = prepareBatch(datasetId, batch);
  const bytes = meter.pending + stored;
  const count = meter.pendingPages + pages.length;
  const now = Date.now();
  const touch = now - meter.last >= TOUCH_MS;
  // Every request at once, not one after the other's answer: each answer is a task of this worker, which
  // is parsing the next batch meanwhile, so a transaction awaited step by step stayed open for several of
  // its parsing bursts — and kept the other part's writer (same stores) waiting that long. The check
  // comes first in the queue; when it throws, the transaction aborts and the puts are undone.
  await d.transaction('rw', d.pageChunks, d.chunks, d.datasets, () =>
    Promise.all([
      assertDatasetExists(d, datasetId),
      d.pageChunks.put({ datasetId, chunk, pages }),
      d.chunks.put(row),
      touch ? addStored(d, datasetId, bytes, count) : undefined,
    ]),
  );
  meter.pending = touch ? 0 : bytes;
  meter.pendingPages = touch ? 0 : count;
  if (touch) meter.last = now;
}

/**
 * A batch as writeBatch stores it: its page rows, its contents packed into one chunk, keyed by its first
 * seq, and about what they take. Pure: the warm-up (workers/warm-up.ts) runs it too, so that V8 has
 * compiled it for the shapes a job's write gives it.
 */
export function prepareBatch(
  datasetId: number,
  batch: IngestedPage[],
): { chunk: number; pages: StoredPage[]; row: StoredChunk; bytes: number } {
  const chunk = batch[0].page.seq;
  const pages: StoredPage[] = new Array(batch.length);
  const contents: PageContent[] = new Array(batch.length);
  for (let i = 0; i < batch.length; i++) {
    pages[i] = { ...batch[i].page, datasetId, chunk };
    contents[i] = batch[i].content;
  }
  const row = packChunk(datasetId, chunk, contents);
  return { chunk, pages, row, bytes: approxBytes(pages) + chunkBytes(row) };
}

/** Add what a meter still holds to its dataset's row (a writer's last act; quiet when it cannot). */
export async function flushMeter(d: WorkbenchDb, datasetId: number, meter: StoreMeter): Promise<void> {
  if (meter.pending === 0 && meter.pendingPages === 0) return;
  try {
    await d.transaction('rw', d.datasets, () => addStored(d, datasetId, meter.pending, meter.pendingPages));
    meter.pending = 0;
    meter.pendingPages = 0;
  } catch {
    // A full disk refuses even this: storedBytes is an estimate, the pages are what must be right.
  }
}

async function addStored(d: WorkbenchDb, datasetId: number, bytes: number, pages: number): Promise<void> {
  await d.datasets
    .where(':id')
    .equals(datasetId)
    .modify((row) => {
      row.heartbeat = Date.now();
      row.storedBytes = (row.storedBytes ?? 0) + bytes;
      // Pages stored so far, while the read runs; finishDataset writes the final count.
      if (row.status === 'ingesting') row.pages = (row.pages ?? 0) + pages;
    });
}

/**
 * About how many bytes a value takes when IndexedDB stores it: strings one byte a character, two when any
 * character is beyond Latin-1 (V8 serialises them so), typed arrays their byteLength, 8 a number. Used to
 * show storage per dataset; navigator.storage.estimate() gives only the origin's total.
 */
export function approxBytes(v: unknown, depth = 0): number {
  if (v === null || v === undefined) return 1;
  switch (typeof v) {
    case 'string':
      return (/[\u0100-\uffff]/.test(v) ? 2 : 1) * v.length + 4;
    case 'number':
      return 8;
    case 'boolean':
      return 1;
    case 'object': {
      if (ArrayBuffer.isView(v)) return v.byteLength + 8;
      if (v instanceof ArrayBuffer) return v.byteLength + 8;
      if (depth > 8) return 0;
      let n = 4;
      if (Array.isArray(v)) for (const x of v) n += approxBytes(x, depth + 1);
      // for…in, not Object.entries: no [key, value] array a property (page rows are ~20 properties).
      else
        for (const k in v)
          if (Object.hasOwn(v, k)) n += k.length + approxBytes((v as Record<string, unknown>)[k], depth + 1);
      return n;
    }
    default:
      return 0;
  }
}

/** Is this (possibly wrapped, as Dexie wraps DOMExceptions) error the browser's storage quota? */
export function isQuotaError(e: unknown): boolean {
  for (
    let x = e as { name?: string; message?: string; inner?: unknown; cause?: unknown } | null, i = 0;
    x && i < 5;
    i++
  ) {
    if (x.name === 'QuotaExceededError' || /QuotaExceeded|quota/i.test(x.message ?? '')) return true;
    x = (x.inner ?? x.cause ?? null) as typeof x;
  }
  return false;
}

/**
 * Give back at least the last `n` pages (highest seqs) of a dataset, with their text: room for a final
 * write. Pages are stored a batch to a value, so the whole batches holding them go.
 */
export async function dropLastPages(d: WorkbenchDb, datasetId: number, n: number): Promise<void> {
  const keys: [number, number][] = [];
  let given = 0;
  await pageChunksOf(d, datasetId)
    .reverse()
    .until(() => given >= n)
    .each((c) => {
      keys.push([datasetId, c.chunk]);
      given += c.pages.length;
    });
  await d.transaction('rw', d.pageChunks, d.chunks, async () => {
    await d.pageChunks.bulkDelete(keys);
    await d.chunks.bulkDelete(keys);
  });
  forgetChunks(d, datasetId);
}
