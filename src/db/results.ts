/** A dataset's results as stored: its analyses (one per parameter key) and its DUST run. */
import { db, type StoredAnalysis, type StoredDustRun } from './schema';

/** The analysis stored for a dataset under a parameter key, if any. */
export async function getAnalysis(datasetId: number, paramsKey: string): Promise<StoredAnalysis | null> {
  return (await db().analyses.get([datasetId, paramsKey])) ?? null;
}

/** Every analysis stored for a dataset (one per parameter key). */
export async function analysesOf(datasetId: number): Promise<StoredAnalysis[]> {
  return db().analyses.where('datasetId').equals(datasetId).toArray();
}

/** The DUST run stored for a dataset, if any. */
export async function getDustRun(datasetId: number): Promise<StoredDustRun | null> {
  return (await db().dustRuns.get(datasetId)) ?? null;
}
