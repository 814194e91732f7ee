/** A dataset's page rows (stored a batch to a value, `pageChunks`): read, counted and changed. */
import Dexie from 'dexie';
import { statusClass } from '../core/ingest/status';
import type { StoredPage } from './rows';
import type { WorkbenchDb } from './schema';

/** The page-row chunks of a dataset, in key (= seq) order. */
export function pageChunksOf(d: WorkbenchDb, datasetId: number) {
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
