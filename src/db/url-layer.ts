/** A sample's URL layer (`urlLayers`, SCHEMA_V12): its chunks of index lines, written and read. */
import Dexie from 'dexie';
import { putForDataset } from './orphans';
import type { WorkbenchDb } from './schema';

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
