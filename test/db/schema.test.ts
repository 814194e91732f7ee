import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { forEachPageWithContent, loadContent } from '../../src/db/page-contents';
import { countStoredPages, loadPages } from '../../src/db/page-rows';
import { dropLastPages, writeBatch } from '../../src/db/page-writes';
import {
  deleteDataset,
  HEARTBEAT_STALE_MS,
  interruptedReason,
  markInterrupted,
  renameDataset,
} from '../../src/db/queries';
import { SCHEMA_V1, SCHEMA_V6, WorkbenchDb } from '../../src/db/schema';
import { awkward, deleteFreshDbs, freshName, page, warcDataset } from './fixtures';

afterEach(deleteFreshDbs);

describe('Dexie schema', () => {
  it('migrates a version-1 database: rows kept, datasets gain warnings', async () => {
    const name = freshName();
    const v1 = new Dexie(name);
    v1.version(1).stores(SCHEMA_V1);
    await v1.open();
    // A v1 dataset row had no warnings fields.
    await v1
      .table('datasets')
      .add({ name: 'old', fileName: 'old.warc', status: 'ready', created: '2024-01-01' });
    await v1.table('pages').add({ ...page(0).page, datasetId: 1 });
    await v1.table('pages').add({ ...page(1).page, datasetId: 1 });
    v1.close();

    const db = new WorkbenchDb(name);
    await db.open();
    expect(db.verno).toBe(13);
    const ds = await db.datasets.get(1);
    expect(ds?.name).toBe('old');
    expect(ds?.warnings).toEqual([]);
    expect(ds?.warningCount).toBe(0);
    expect((await loadPages(db, 1)).map((p) => p.seq)).toEqual([0, 1]);
    db.close();
  });

  it('moves a version-6 database’s per-page contents into chunks (v7) and drops the old table (v8)', async () => {
    const name = freshName();
    const v6 = new Dexie(name);
    v6.version(6).stores(SCHEMA_V6);
    await v6.open();
    // 1,203 pages in dataset 1 (more than one migration step of 500) and 3 in dataset 2.
    const rows = [
      ...Array.from({ length: 1203 }, (_, i) => [1, i] as const),
      ...[0, 1, 2].map((i) => [2, i] as const),
    ];
    await v6.table('pages').bulkAdd(rows.map(([datasetId, seq]) => ({ ...page(seq).page, datasetId })));
    await v6.table('contents').bulkAdd(
      rows.map(([datasetId, seq]) => ({
        ...awkward(seq),
        text: `dataset ${datasetId} text ${seq}`,
        datasetId,
      })),
    );
    v6.close();

    const db = new WorkbenchDb(name);
    await db.open();
    expect(db.verno).toBe(13);
    expect(db.tables.map((t) => t.name)).not.toContain('contents');
    for (const [datasetId, seq] of rows)
      expect(await loadContent(db, datasetId, seq)).toEqual({
        ...awkward(seq),
        text: `dataset ${datasetId} text ${seq}`,
        datasetId,
      });
    expect(await db.chunks.count()).toBeGreaterThanOrEqual(4);
    expect(await db.chunks.count()).toBeLessThanOrEqual(5);
    const seen: number[] = [];
    await forEachPageWithContent(db, 1, 300, (batch) => {
      for (const { page: p, content } of batch) {
        expect(content?.text).toBe(`dataset 1 text ${p.seq}`);
        seen.push(p.seq);
      }
    });
    expect(seen).toEqual(rows.filter(([d]) => d === 1).map(([, s]) => s));
    db.close();
  });

  it('gives back whole batches when the last pages are dropped (a chunk holds a batch’s contents)', async () => {
    const db = new WorkbenchDb(freshName());
    const a = await warcDataset(db, 'a');
    await writeBatch(
      db,
      a,
      [0, 1, 2, 3].map((s) => page(s)),
    );
    await writeBatch(
      db,
      a,
      [4, 5, 6, 7].map((s) => page(s)),
    );
    await writeBatch(
      db,
      a,
      [8, 9].map((s) => page(s)),
    );
    // The last 3 pages lie in the last two batches: both go, and nothing of them is left behind.
    await dropLastPages(db, a, 3);
    expect(await countStoredPages(db, a)).toBe(4);
    expect((await loadPages(db, a)).map((p) => p.seq)).toEqual([0, 1, 2, 3]);
    expect(await db.chunks.count()).toBe(1);
    expect((await loadContent(db, a, 3))?.text).toBe('text 3');
    expect(await loadContent(db, a, 5)).toBeUndefined();
    db.close();
  });

  it('writes batches, reads pages and content, and deletes a dataset with all its pages', async () => {
    const db = new WorkbenchDb(freshName());
    const a = await warcDataset(db, 'a', 'a.warc');
    const b = await warcDataset(db, 'b', 'b.warc');
    await writeBatch(db, a, [page(0), page(1), page(2)]);
    await writeBatch(db, b, [page(0, 'b.test')]);
    expect((await loadPages(db, a)).map((p) => p.seq)).toEqual([0, 1, 2]);
    expect((await loadContent(db, a, 2))?.text).toBe('text 2');
    await deleteDataset(db, a);
    expect(await loadPages(db, a)).toEqual([]);
    expect(await loadContent(db, a, 2)).toBeUndefined();
    expect(await db.datasets.get(a)).toBeUndefined();
    // The other dataset is untouched.
    expect((await loadPages(db, b)).map((p) => p.host)).toEqual(['b.test']);
    db.close();
  });

  it('marks a dataset whose ingest stopped beating as interrupted, not a live one', async () => {
    const db = new WorkbenchDb(freshName());
    const stale = await warcDataset(db, 's', 's.warc');
    const live = await warcDataset(db, 'l', 'l.warc');
    const now = Date.now();
    await db.datasets.update(stale, { heartbeat: now - HEARTBEAT_STALE_MS - 1 });
    expect(await markInterrupted(db, now)).toBe(1);
    expect((await db.datasets.get(stale))?.status).toBe('interrupted');
    // Nothing was stored before the tab went: the message says nothing was kept, not "0 pages kept".
    expect((await db.datasets.get(stale))?.error?.message).toMatch(
      /s\.warc: the read was interrupted .* before any page was stored: nothing was kept/,
    );
    expect((await db.datasets.get(live))?.status).toBe('ingesting');
    db.close();
  });

  it('says what an interrupted read kept: the pages stored, and that those read after them were lost', () => {
    expect(interruptedReason(1500)).toMatch(
      /after 1,500 pages were stored; they are kept\. Pages are stored every second or 500 at a time: those read after the last stored batch were lost/,
    );
    expect(interruptedReason(0)).not.toMatch(/they are kept/);
  });

  it('renames a dataset, refuses a blank name, and counts the bytes its pages store', async () => {
    const db = new WorkbenchDb(freshName());
    const a = await warcDataset(db, 'crawl.warc.gz', 'crawl.warc.gz', true);
    expect(await renameDataset(db, a, '  April   crawl ')).toBe('April crawl');
    expect((await db.datasets.get(a))?.name).toBe('April crawl');
    expect((await db.datasets.get(a))?.fileName).toBe('crawl.warc.gz');
    await expect(renameDataset(db, a, '   ')).rejects.toThrow(/needs a name/);
    await writeBatch(db, a, [page(0), page(1)]);
    const one = (await db.datasets.get(a))?.storedBytes ?? 0;
    expect(one).toBeGreaterThan(2 * 'http://a.test/p0'.length);
    await writeBatch(db, a, [page(2), page(3)]);
    expect((await db.datasets.get(a))?.storedBytes).toBeCloseTo(2 * one, -1);
    db.close();
  });
});
