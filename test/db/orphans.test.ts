import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBatch } from '../../src/db/page-writes';
import { deleteDataset } from '../../src/db/queries';
import {
  DatasetGone,
  putForDataset,
  removeOrphans,
  rowsOfDataset,
  whenDatasetGone,
} from '../../src/db/orphans';
import { DATASET_KEYS, type DatasetTable, type StoredLabel, WorkbenchDb } from '../../src/db/schema';
import { deleteFreshDbs, freshName, page, warcDataset } from './fixtures';

afterEach(deleteFreshDbs);

const TABLES = Object.keys(DATASET_KEYS) as DatasetTable[];

/** Rows of every kind for one dataset: two page batches (two chunks), two analyses, a DUST run, labels, references, a URL layer chunk. */
async function fill(db: WorkbenchDb, id: number): Promise<void> {
  await writeBatch(db, id, [page(0), page(1)]);
  await writeBatch(db, id, [page(2), page(3)]);
  // Only the keys matter here: the rows are cut down to them and a marker.
  await db.table('analyses').bulkPut([
    { datasetId: id, paramsKey: 'a', mark: id },
    { datasetId: id, paramsKey: 'b', mark: id },
  ]);
  await db.table('dustRuns').put({ datasetId: id, mark: id });
  const label = (a: number, b: number): StoredLabel => ({
    datasetId: id,
    a,
    b,
    label: 'dup',
    strategy: 'random',
    pi: 0.5,
    at: '2024-01-01',
  });
  await db.labels.bulkPut([label(0, 1), label(1, 2), label(2, 3)]);
  await db.references.bulkPut([
    { datasetId: id, seq: 0 },
    { datasetId: id, seq: 3 },
  ]);
  await db.urlLayers.put({ datasetId: id, chunk: 0, lines: 'http://a.test/\t200\t10\t' });
  await db.overrides.bulkPut(
    [0, 1].map((a) => ({
      datasetId: id,
      a,
      b: a + 2,
      kind: 'cannot' as const,
      urlA: `http://a.test/${a}`,
      urlB: `http://a.test/${a + 2}`,
      how: 'pair' as const,
      at: '2024-01-01',
    })),
  );
}

/** Rows per table of one dataset. */
async function counts(db: WorkbenchDb, id: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = await rowsOfDataset(db, t, id).count();
  return out;
}

const FULL = {
  pageChunks: 2,
  chunks: 2,
  analyses: 2,
  dustRuns: 1,
  labels: 3,
  references: 2,
  urlLayers: 1,
  overrides: 2,
};
const NONE = Object.fromEntries(Object.keys(FULL).map((k) => [k, 0]));

describe('rows whose dataset is gone', () => {
  it('every table of the latest version but datasets is listed with its dataset key', async () => {
    const db = new WorkbenchDb(freshName());
    await db.open();
    const tables = db.tables.map((t) => t.name).filter((n) => n !== 'datasets');
    expect([...TABLES].sort()).toEqual(tables.sort());
    for (const t of TABLES) {
      const schema = db.table(t).schema;
      const keys = [schema.primKey, ...schema.indexes].map((i) => i.name);
      expect(keys, t).toContain(DATASET_KEYS[t]);
    }
    db.close();
  });

  it('are removed at start-up in every table; the rows of live datasets are kept', async () => {
    const db = new WorkbenchDb(freshName());
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await warcDataset(db, `d${i}`));
    for (const id of ids) await fill(db, id);
    // Left as an older version left them: the dataset row deleted while its jobs still wrote.
    // Orphans below, between and above the live ids.
    const [live1, gone1, gone2, live2, gone3] = ids;
    await db.datasets.bulkDelete([gone1, gone2, gone3]);
    for (const id of ids) expect(await counts(db, id)).toEqual(FULL);

    const perDataset = Object.values(FULL).reduce((a, b) => a + b, 0);
    expect(await removeOrphans(db)).toBe(3 * perDataset);
    for (const id of [gone1, gone2, gone3]) expect(await counts(db, id)).toEqual(NONE);
    for (const id of [live1, live2]) expect(await counts(db, id)).toEqual(FULL);
    expect((await db.datasets.toArray()).map((d) => d.id)).toEqual([live1, live2]);
    // Nothing left to remove: a second start finds none.
    expect(await removeOrphans(db)).toBe(0);
    db.close();
  });

  it('an empty database has none', async () => {
    const db = new WorkbenchDb(freshName());
    expect(await removeOrphans(db)).toBe(0);
    db.close();
  });

  it('deleteDataset removes the rows of every table', async () => {
    const db = new WorkbenchDb(freshName());
    const a = await warcDataset(db, 'a');
    const b = await warcDataset(db, 'b');
    await fill(db, a);
    await fill(db, b);
    await deleteDataset(db, a);
    expect(await counts(db, a)).toEqual(NONE);
    expect(await counts(db, b)).toEqual(FULL);
    expect(await db.datasets.get(a)).toBeUndefined();
    db.close();
  });

  it('a write for a deleted dataset is refused (DatasetGone) and leaves no row', async () => {
    const db = new WorkbenchDb(freshName());
    const id = await warcDataset(db, 'a');
    await deleteDataset(db, id);
    await expect(writeBatch(db, id, [page(0)])).rejects.toBeInstanceOf(DatasetGone);
    await expect(putForDataset(db, db.references, { datasetId: id, seq: 0 })).rejects.toBeInstanceOf(
      DatasetGone,
    );
    expect(await counts(db, id)).toEqual(NONE);
    // While it exists, the same write lands.
    const live = await warcDataset(db, 'b');
    await putForDataset(db, db.references, { datasetId: live, seq: 0 });
    expect(await db.references.count()).toBe(1);
    db.close();
  });

  it('whenDatasetGone calls back once when the dataset is deleted, at once when there is none', async () => {
    const db = new WorkbenchDb(freshName());
    const id = await warcDataset(db, 'a');
    let calls = 0;
    const stop = whenDatasetGone(db, id, () => calls++);
    await new Promise((ok) => setTimeout(ok, 50));
    expect(calls).toBe(0);
    await db.datasets.update(id, { name: 'renamed' });
    await new Promise((ok) => setTimeout(ok, 50));
    expect(calls).toBe(0);
    await deleteDataset(db, id);
    await expect.poll(() => calls).toBe(1);
    stop();
    let missing = 0;
    const stop2 = whenDatasetGone(db, 12345, () => missing++);
    await expect.poll(() => missing).toBe(1);
    stop2();
    db.close();
  });
});
