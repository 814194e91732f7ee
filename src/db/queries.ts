import Dexie from 'dexie';
import type { IngestedPage, IngestSummary } from '../core/types';
import type { PageContent } from '../core/types';
import { statusClass } from '../core/ingest/status';
import { normaliseUrl } from '../core/url/normalize';
import { ChunkReader, chunkBytes, packChunk } from './chunks';
import { assertDatasetExists, deleteDatasetRows, putForDataset } from './orphans';
import type { Dataset, DatasetStatus, StoredContent, StoredPage, WorkbenchDb } from './schema';

/** A job that has not written for this long is taken as dead (tab reloaded or closed mid-ingest). */
export const HEARTBEAT_STALE_MS = 15_000;

export async function listDatasets(d: WorkbenchDb): Promise<Dataset[]> {
  return d.datasets.orderBy('created').reverse().toArray();
}

export async function createDataset(
  d: WorkbenchDb,
  init: Pick<Dataset, 'name' | 'fileName' | 'bytes' | 'format' | 'compressed'> &
    Partial<Pick<Dataset, 'lock' | 'container' | 'sample'>>,
): Promise<number> {
  return d.datasets.add(newDataset(init));
}

/** A dataset row before anything was read into it (status 'ingesting' unless said otherwise). */
export function newDataset(
  init: Pick<Dataset, 'name' | 'fileName' | 'bytes' | 'format' | 'compressed'> & Partial<Dataset>,
): Dataset {
  return {
    created: new Date().toISOString(),
    status: 'ingesting',
    heartbeat: Date.now(),
    pages: 0,
    records: 0,
    hosts: 0,
    recordsByType: {},
    skipped: {},
    bytesDecoded: 0,
    elapsedMs: 0,
    storeMs: 0,
    error: null,
    warnings: [],
    warningCount: 0,
    ...init,
  };
}

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
  const chunk = batch[0].page.seq;
  const pages: StoredPage[] = new Array(batch.length);
  const contents: PageContent[] = new Array(batch.length);
  for (let i = 0; i < batch.length; i++) {
    pages[i] = { ...batch[i].page, datasetId, chunk };
    contents[i] = batch[i].content;
  }
  const row = packChunk(datasetId, chunk, contents);
  const bytes = meter.pending + approxBytes(pages) + chunkBytes(row);
  const count = meter.pendingPages + pages.length;
  const now = Date.now();
  const touch = now - meter.last >= TOUCH_MS;
  await d.transaction('rw', d.pageChunks, d.chunks, d.datasets, async () => {
    await assertDatasetExists(d, datasetId);
    await d.pageChunks.put({ datasetId, chunk, pages });
    await d.chunks.put(row);
    if (touch) await addStored(d, datasetId, bytes, count);
  });
  meter.pending = touch ? 0 : bytes;
  meter.pendingPages = touch ? 0 : count;
  if (touch) meter.last = now;
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

/** The page-row chunks of a dataset, in key (= seq) order. */
function pageChunksOf(d: WorkbenchDb, datasetId: number) {
  return d.pageChunks
    .where('[datasetId+chunk]')
    .between([datasetId, Dexie.minKey], [datasetId, Dexie.maxKey]);
}

/** The page rows a dataset really holds. */
export async function countStoredPages(d: WorkbenchDb, datasetId: number): Promise<number> {
  let n = 0;
  await pageChunksOf(d, datasetId).each((c) => (n += c.pages.length));
  return n;
}

/** What the page rows a dataset really holds count: pages, distinct hosts, pages by status class. */
export interface StoredCounts {
  pages: number;
  hosts: number;
  statusCounts: Record<string, number>;
}

/**
 * The page rows a dataset really holds, how many distinct hosts they are on and how many pages each
 * status class has, all as the pipeline counts them (pages without a host are not a host; the classes
 * are its statusClass), in one pass over the rows: the counts of a dataset whose read stopped part way,
 * when the summary of what was read is missing or counts pages that were never stored.
 */
export async function countStoredRows(d: WorkbenchDb, datasetId: number): Promise<StoredCounts> {
  let pages = 0;
  const hosts = new Set<string>();
  const statusCounts: Record<string, number> = {};
  await pageChunksOf(d, datasetId).each((c) => {
    pages += c.pages.length;
    for (const p of c.pages) {
      if (p.host) hosts.add(p.host);
      const k = statusClass(p.status);
      statusCounts[k] = (statusCounts[k] ?? 0) + 1;
    }
  });
  return { pages, hosts: hosts.size, statusCounts };
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

/**
 * Change some page rows (revisits resolved after a parallel read): each batch holding one is read and
 * written back once, all in one transaction. `changes` is keyed by seq.
 */
export async function updatePages(
  d: WorkbenchDb,
  datasetId: number,
  changes: ReadonlyMap<number, Partial<StoredPage>>,
): Promise<void> {
  if (changes.size === 0) return;
  await d.transaction('rw', d.pageChunks, async () => {
    await pageChunksOf(d, datasetId).modify((c) => {
      for (let i = 0; i < c.pages.length; i++) {
        const patch = changes.get(c.pages[i].seq);
        if (patch) c.pages[i] = { ...c.pages[i], ...patch };
      }
    });
  });
}

/**
 * An origin from what the analyst typed as a log's base URL: 'example.org' → 'http://example.org',
 * 'https://example.org/docs/' → 'https://example.org'. Throws with a message when it is not one.
 */
export function logBaseOrigin(input: string): string {
  const t = input.trim();
  if (t === '') throw new Error('the base URL is empty');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? t : `http://${t}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw new Error(`not a URL: ${t}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`not a web URL: ${t}`);
  return u.origin;
}

/**
 * An access log's paths put on another host: every page whose host was guessed or given (logPath) gets
 * base + path as its URL; the dataset records the base and its host count, and its mined DUST rules,
 * which name the old URLs, are dropped (mine again). Returns how many pages changed.
 */
export async function rebaseLogPages(d: WorkbenchDb, datasetId: number, base: string): Promise<number> {
  const origin = logBaseOrigin(base);
  let changed = 0;
  await d.transaction('rw', [d.pageChunks, d.datasets, d.dustRuns], async () => {
    const hosts = new Set<string>();
    await pageChunksOf(d, datasetId).modify((c) => {
      for (const p of c.pages) {
        if (p.logPath !== undefined) {
          p.url = origin + (p.logPath.startsWith('/') ? '' : '/') + p.logPath;
          const n = normaliseUrl(p.url);
          p.normUrl = n.href;
          p.host = n.host;
          changed++;
        }
        if (p.host) hosts.add(p.host);
      }
    });
    await d.datasets.update(datasetId, { baseUrl: origin, hosts: hosts.size });
    await d.dustRuns.delete(datasetId);
  });
  return changed;
}

/** Give a dataset another name (the file name stays as it was). Blank names are refused. */
export async function renameDataset(d: WorkbenchDb, datasetId: number, name: string): Promise<string> {
  const clean = name.replace(/\s+/g, ' ').trim().slice(0, 200);
  if (!clean) throw new Error('A dataset needs a name.');
  await d.datasets.update(datasetId, { name: clean });
  return clean;
}

export async function finishDataset(
  d: WorkbenchDb,
  datasetId: number,
  status: DatasetStatus,
  s: Partial<IngestSummary> & { pages: number },
): Promise<void> {
  await d.datasets.update(datasetId, {
    status,
    heartbeat: Date.now(),
    pages: s.pages,
    records: s.recordsByType ? Object.values(s.recordsByType).reduce((a, b) => a + b, 0) : 0,
    hosts: s.hosts ?? 0,
    recordsByType: s.recordsByType ?? {},
    skipped: s.skipped ?? {},
    bytesDecoded: s.bytesDecoded ?? 0,
    elapsedMs: s.elapsedMs ?? 0,
    storeMs: s.sinkMs ?? 0,
    error: s.error ?? null,
    warnings: s.warnings ?? [],
    warningCount: s.warningCount ?? 0,
    ...(s.sources ? { sources: s.sources } : {}),
    ...(s.statusCounts ? { statusCounts: s.statusCounts } : {}),
    ...(s.pageList ? { pageList: s.pageList } : {}),
    ...(s.digests ? { digests: s.digests } : {}),
  });
}

/** Delete a dataset with all its rows in every table, in one transaction. */
export async function deleteDataset(d: WorkbenchDb, datasetId: number): Promise<void> {
  await deleteDatasetRows(d, [datasetId]);
  forgetChunks(d, datasetId);
}

/**
 * What an interrupted read kept, said plainly: pages are stored a batch at a time (500 pages, or what was
 * read in the last second), so the pages read after the last stored batch are gone with the tab.
 */
export function interruptedReason(pages: number): string {
  const how = 'the read was interrupted (the tab reading it was reloaded or closed)';
  if (pages === 0)
    return `${how} before any page was stored: nothing was kept. Drop the file again to read it`;
  return (
    `${how} after ${pages.toLocaleString('en-US')} pages were stored; they are kept. Pages are stored ` +
    'every second or 500 at a time: those read after the last stored batch were lost. Drop the file again to read it whole'
  );
}

/**
 * Datasets left 'ingesting' by a job that is gone (the tab was reloaded or closed) become 'interrupted'
 * with the counts of the rows really stored. A job is gone when the Web Lock its tab held (`lock`) is
 * free — known at once on load, no waiting; `heldLocks` is null where the browser has no Web Locks (or
 * for rows written before locks), and then a job is gone when it has not written for HEARTBEAT_STALE_MS.
 */
export async function markInterrupted(
  d: WorkbenchDb,
  now = Date.now(),
  heldLocks: ReadonlySet<string> | null = null,
): Promise<number> {
  const ingesting = await d.datasets.where('status').equals('ingesting').toArray();
  const gone = ingesting.filter((x) =>
    heldLocks && x.lock ? !heldLocks.has(x.lock) : now - x.heartbeat > HEARTBEAT_STALE_MS,
  );
  for (const x of gone) {
    const { pages, hosts, statusCounts } = await countStoredRows(d, x.id!);
    const reason = interruptedReason(pages);
    await d.transaction('rw', d.datasets, async () => {
      const row = await d.datasets.get(x.id!);
      if (row?.status !== 'ingesting') return;
      await d.datasets.update(x.id!, {
        status: 'interrupted',
        pages,
        hosts,
        statusCounts,
        error: row.error ?? {
          fileName: x.fileName,
          offset: -1,
          line: -1,
          reason,
          message: `${x.fileName}: ${reason}`,
        },
      });
    });
  }
  return gone.length;
}

/** The pages of a dataset, without their text (for the pages table), in seq order. */
export async function loadPages(d: WorkbenchDb, datasetId: number): Promise<StoredPage[]> {
  const out: StoredPage[] = [];
  await pageChunksOf(d, datasetId).each((c) => {
    for (const p of c.pages) out.push(p);
  });
  return out;
}

/** One page row: in the batch whose key (its first seq) is the greatest not above `seq`. */
export async function loadPage(
  d: WorkbenchDb,
  datasetId: number,
  seq: number,
): Promise<StoredPage | undefined> {
  const c = await d.pageChunks
    .where('[datasetId+chunk]')
    .between([datasetId, Dexie.minKey], [datasetId, seq], true, true)
    .last();
  return c?.pages.find((p) => p.seq === seq);
}

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
function forgetChunks(d: WorkbenchDb, datasetId: number): void {
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

/** A chunk of a sample's URL layer (SCHEMA_V12), written only while its dataset exists. */
export async function writeUrlLayer(
  d: WorkbenchDb,
  datasetId: number,
  chunk: number,
  lines: string,
): Promise<void> {
  await putForDataset(d, d.urlLayers, { datasetId, chunk, lines });
}

/** The URL layer's chunks of a dataset, in order (none for a dataset that is not a sample). */
export async function forEachUrlLayerChunk(
  d: WorkbenchDb,
  datasetId: number,
  each: (lines: string) => void,
): Promise<number> {
  let n = 0;
  await d.urlLayers
    .where('[datasetId+chunk]')
    .between([datasetId, Dexie.minKey], [datasetId, Dexie.maxKey])
    .each((row) => {
      n++;
      each(row.lines);
    });
  return n;
}

/** What a dataset read as a sample keeps of its design; its format once the first file tells it. */
export async function updateDatasetRow(
  d: WorkbenchDb,
  datasetId: number,
  changes: Partial<Pick<Dataset, 'sample' | 'format' | 'compressed' | 'container'>>,
): Promise<void> {
  await d.datasets.update(datasetId, changes);
}
