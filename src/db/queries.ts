/**
 * The datasets table: a dataset's row made, named, finished, interrupted or deleted with all its rows; an
 * access log's pages put on a base URL.
 */
import { liveQuery } from 'dexie';
import type { IngestSummary } from '../core/types';
import { normaliseUrl } from '../core/url/normalize';
import { deleteDatasetRows } from './orphans';
import { forgetChunks } from './page-contents';
import { countStoredRows, pageChunksOf } from './page-rows';
import type { Dataset, DatasetStatus } from './rows';
import type { WorkbenchDb } from './schema';

/** A job that has not written for this long is taken as dead (tab reloaded or closed mid-ingest). */
export const HEARTBEAT_STALE_MS = 15_000;

export async function listDatasets(d: WorkbenchDb): Promise<Dataset[]> {
  return d.datasets.orderBy('created').reverse().toArray();
}

/**
 * The datasets, newest first, told now and after every change (another tab's ingest, rename, delete):
 * Dexie's liveQuery hears writes from other tabs and workers of this origin.
 */
export function watchDatasets(
  d: WorkbenchDb,
  next: (datasets: Dataset[]) => void,
  error: () => void,
): { unsubscribe(): void } {
  return liveQuery(() => listDatasets(d)).subscribe({ next, error });
}

/** One dataset's row, if it is there. */
export async function getDataset(d: WorkbenchDb, datasetId: number): Promise<Dataset | undefined> {
  return d.datasets.get(datasetId);
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

/**
 * A read's end on its dataset's row, in one transaction: the summary's figures, the bytes its writers
 * stored since they last added theirs (`pendingBytes`: page-writes.ts StoreMeter), and the row as it now
 * is (undefined: the dataset is gone). One transaction, not three (the meter's, the update's, a read of
 * the row): each woke the page's dataset list, and the next waited behind its read.
 */
export async function finishDataset(
  d: WorkbenchDb,
  datasetId: number,
  status: DatasetStatus,
  s: Partial<IngestSummary> & { pages: number },
  pendingBytes = 0,
): Promise<Dataset | undefined> {
  return d.transaction('rw', d.datasets, async () => {
    const row = await d.datasets.get(datasetId);
    if (!row) return undefined;
    const done: Dataset = {
      ...row,
      ...finishedFields(status, s),
      storedBytes: (row.storedBytes ?? 0) + pendingBytes,
    };
    await d.datasets.put(done);
    return done;
  });
}

function finishedFields(
  status: DatasetStatus,
  s: Partial<IngestSummary> & { pages: number },
): Partial<Dataset> {
  return {
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
  };
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

/** What a dataset read as a sample keeps of its design; its format once the first file tells it. */
export async function updateDatasetRow(
  d: WorkbenchDb,
  datasetId: number,
  changes: Partial<Pick<Dataset, 'sample' | 'format' | 'compressed' | 'container'>>,
): Promise<void> {
  await d.datasets.update(datasetId, changes);
}
