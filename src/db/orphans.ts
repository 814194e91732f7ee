/**
 * A dataset's rows live and die with its row. A job that writes for a dataset (ingest, signatures, DUST)
 * writes only while the row exists, checked in the write's own transaction: IndexedDB runs read-write
 * transactions over the same table one after another, so a write either lands before a delete (which
 * then removes it) or sees the row gone and writes nothing. The job runner of every tab watches the row
 * of the dataset its job works on and cancels the job when it goes (whenDatasetGone). What older
 * versions left behind is removed when the app starts (removeOrphans).
 */
import Dexie, { liveQuery, type Collection, type Table } from 'dexie';
import { JobCancelled } from '../core/jobs';
import { DATASET_KEYS, type DatasetTable, type WorkbenchDb } from './schema';

/** A write refused because its dataset was deleted (in this tab or another) while the job ran: a cancel. */
export class DatasetGone extends JobCancelled {
  constructor(readonly datasetId: number) {
    super(`dataset ${datasetId} was deleted`);
    this.name = 'DatasetGone';
  }
}

const TABLES = Object.keys(DATASET_KEYS) as DatasetTable[];

/** The rows of one dataset in one of the tables of DATASET_KEYS. */
export function rowsOfDataset(d: WorkbenchDb, table: DatasetTable, datasetId: number): Collection {
  const key = DATASET_KEYS[table];
  const t = d.table(table);
  return key.startsWith('[')
    ? t.where(key).between([datasetId, Dexie.minKey], [datasetId, Dexie.maxKey], true, true)
    : t.where(key).equals(datasetId);
}

/** Whether a dataset's row exists (its key is counted; the row is not read). */
export async function datasetExists(d: WorkbenchDb, datasetId: number): Promise<boolean> {
  return (await d.datasets.where(':id').equals(datasetId).count()) > 0;
}

/** Throw DatasetGone unless the dataset's row exists: call inside a transaction over `datasets`. */
export async function assertDatasetExists(d: WorkbenchDb, datasetId: number): Promise<void> {
  if (!(await datasetExists(d, datasetId))) throw new DatasetGone(datasetId);
}

/**
 * Store one row of a dataset (an analysis, a DUST run) only while the dataset exists; DatasetGone when it
 * was deleted. One transaction: the check and the put cannot be split by a delete.
 */
export async function putForDataset<T extends { datasetId: number }>(
  d: WorkbenchDb,
  table: Table<T>,
  row: T,
): Promise<void> {
  await d.transaction('rw', d.datasets, table, async () => {
    await assertDatasetExists(d, row.datasetId);
    await table.put(row);
  });
}

/** Delete every row of some datasets, their rows in `datasets` too, in one transaction. Rows deleted. */
export async function deleteDatasetRows(d: WorkbenchDb, datasetIds: readonly number[]): Promise<number> {
  if (datasetIds.length === 0) return 0;
  return d.transaction('rw', [d.datasets, ...TABLES.map((t) => d.table(t))], async () => {
    let n = 0;
    for (const id of datasetIds) {
      for (const t of TABLES) n += await rowsOfDataset(d, t, id).delete();
      await d.datasets.delete(id);
    }
    return n;
  });
}

/**
 * The dataset ids a table holds rows of, by a skip scan of its key: one key read per dataset (the first
 * key above the last dataset's), never a row nor a key per row.
 */
async function datasetIdsIn(d: WorkbenchDb, table: DatasetTable): Promise<number[]> {
  const key = DATASET_KEYS[table];
  const compound = key.startsWith('[');
  const t = d.table(table);
  const idOf = (k: unknown) => (compound ? (k as [number, unknown])[0] : (k as number));
  const ids: number[] = [];
  let next = (await t.orderBy(key).limit(1).keys())[0];
  while (next !== undefined) {
    const id = idOf(next);
    ids.push(id);
    next = (
      await t
        .where(key)
        .above(compound ? [id, Dexie.maxKey] : id)
        .limit(1)
        .keys()
    )[0];
  }
  return ids;
}

/**
 * Remove the rows of every table whose dataset row is gone (a dataset deleted while a job of an older
 * version wrote for it, in this tab or another). Run once when the app starts; cheap when there are none
 * (a few key reads per dataset and table). Returns the rows removed.
 */
export async function removeOrphans(d: WorkbenchDb): Promise<number> {
  return d.transaction('rw', [d.datasets, ...TABLES.map((t) => d.table(t))], async () => {
    const live = new Set(await d.datasets.toCollection().primaryKeys());
    const orphans = new Set<number>();
    for (const t of TABLES) for (const id of await datasetIdsIn(d, t)) if (!live.has(id)) orphans.add(id);
    return deleteDatasetRows(d, [...orphans]);
  });
}

/**
 * Call `onGone` once when the dataset's row is deleted (or at once when there is none), whichever tab or
 * worker deletes it: Dexie's liveQuery hears the writes of every tab and worker of this origin. Returns
 * the unsubscribe.
 */
export function whenDatasetGone(d: WorkbenchDb, datasetId: number, onGone: () => void): () => void {
  let fired = false;
  const sub = liveQuery(() => datasetExists(d, datasetId)).subscribe({
    next: (exists) => {
      if (exists || fired) return;
      fired = true;
      onGone();
    },
    error: () => {
      // The database closed or failed: the job's own checks before it writes still hold.
    },
  });
  return () => sub.unsubscribe();
}
