/** Pages' contents (stored a batch to a chunk, chunks.ts): read by page, a few chunks kept, or streamed. */
import Dexie from 'dexie';
import { ChunkReader } from './chunks';
import { loadPage } from './page-rows';
import type { StoredContent, StoredPage } from './rows';
import type { WorkbenchDb } from './schema';

export async function loadContent(
  d: WorkbenchDb,
  datasetId: number,
  seq: number,
): Promise<StoredContent | undefined> {
  const page = await loadPage(d, datasetId, seq);
  return page ? (await loadContents(d, datasetId, [page]))[0] : undefined;
}

/**
 * The contents of some pages of a dataset, in their order (undefined where there is none), each chunk
 * read once. The last chunks read are kept (CHUNK_CACHE): the page detail and batch readers walk
 * neighbouring pages, which share chunks. A chunk never changes once written (it is only deleted, with
 * its dataset or by dropLastPages, and dataset ids are never reused).
 */
export async function loadContents(
  d: WorkbenchDb,
  datasetId: number,
  pages: readonly StoredPage[],
): Promise<(StoredContent | undefined)[]> {
  const keys = [...new Set(pages.map((p) => p.chunk ?? NaN).filter((c) => !Number.isNaN(c)))];
  // The readers this call reads from, held here: another call running meanwhile (another pane's read)
  // may evict them from the cache while this one awaits its rows.
  const readers = new Map<number, ChunkReader | null>();
  const want: number[] = [];
  for (const c of keys) {
    const r = chunkCache.get(`${d.name}/${datasetId}/${c}`);
    if (r === undefined) want.push(c);
    else readers.set(c, r);
  }
  if (want.length > 0) {
    const rows = await d.chunks.bulkGet(want.map((c) => [datasetId, c] as [number, number]));
    rows.forEach((row, i) => readers.set(want[i], row ? new ChunkReader(row) : null));
  }
  const out = pages.map((p) => {
    const c = p.chunk === undefined ? undefined : readers.get(p.chunk)?.get(p.seq);
    return c ? { ...c, datasetId } : undefined;
  });
  // Keep the chunks this call used, the most recent last, up to CHUNK_CACHE.
  for (const c of keys) {
    const k = `${d.name}/${datasetId}/${c}`;
    chunkCache.delete(k);
    chunkCache.set(k, readers.get(c) ?? null);
  }
  while (chunkCache.size > Math.max(CHUNK_CACHE, keys.length))
    chunkCache.delete(chunkCache.keys().next().value!);
  return out;
}

/**
 * Chunks kept by loadContents (each ~1–5 MB of text): a few, for neighbouring pages. Keyed by database
 * name too: tests open many databases whose dataset ids repeat.
 */
const CHUNK_CACHE = 4;
const chunkCache = new Map<string, ChunkReader | null>();

/** Forget the cached chunks of a dataset (its rows were deleted). */
export function forgetChunks(d: WorkbenchDb, datasetId: number): void {
  for (const k of [...chunkCache.keys()]) if (k.startsWith(`${d.name}/${datasetId}/`)) chunkCache.delete(k);
}

/** Stream a dataset's pages with their content in batches (signature computation), in seq order. */
export async function forEachPageWithContent(
  d: WorkbenchDb,
  datasetId: number,
  batchSize: number,
  fn: (batch: { page: StoredPage; content: StoredContent | undefined }[]) => void | Promise<void>,
): Promise<void> {
  let pending: StoredPage[] = [];
  const hand = async (pages: StoredPage[]) => {
    const contents = await loadContents(d, datasetId, pages);
    await fn(pages.map((page, i) => ({ page, content: contents[i] })));
  };
  // One batch's rows at a time (a read per value, not a cursor held across the callback's awaits).
  let after: number = -Infinity;
  for (;;) {
    const c = await d.pageChunks
      .where('[datasetId+chunk]')
      .between([datasetId, after], [datasetId, Dexie.maxKey], false, true)
      .first();
    if (!c) break;
    after = c.chunk;
    for (const p of c.pages) {
      pending.push(p);
      if (pending.length === batchSize) {
        await hand(pending);
        pending = [];
      }
    }
  }
  if (pending.length > 0) await hand(pending);
}
