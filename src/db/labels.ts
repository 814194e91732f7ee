import { db, type StoredLabel, type StoredReference } from './schema';

/** The analyst's labels and reference pages of one dataset, as stored. */
export async function loadLabels(
  datasetId: number,
): Promise<{ labels: StoredLabel[]; references: StoredReference[] }> {
  const labels = await db().labels.where('datasetId').equals(datasetId).toArray();
  const references = await db().references.where('datasetId').equals(datasetId).toArray();
  return { labels, references };
}

/** Stores a label (its pair replaces any earlier label of the pair). */
export async function putLabels(rows: StoredLabel[]): Promise<void> {
  await db().labels.bulkPut(rows);
}

/** Removes the label of a pair. */
export async function deleteLabel(row: Pick<StoredLabel, 'datasetId' | 'a' | 'b'>): Promise<void> {
  await db().labels.delete([row.datasetId, row.a, row.b]);
}

/** Marks (or unmarks) a page as a reference: known to have a replica. */
export async function setReference(datasetId: number, seq: number, on: boolean): Promise<void> {
  if (on) await db().references.put({ datasetId, seq });
  else await db().references.delete([datasetId, seq]);
}
