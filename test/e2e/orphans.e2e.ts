import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generateWarcGz } from '../bench/gen-warc';
import { dropFile, type OpenApp, openApp, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/**
 * The keys of every object store but `datasets`, read with the raw IndexedDB API (keys only): per store,
 * how many rows there are and how many belong to `id` (every such key is the dataset id, or starts with it).
 */
function rowsInDb(page: Page, id: number): Promise<Record<string, { all: number; ofDataset: number }>> {
  return page.evaluate(
    (id) =>
      new Promise((ok, fail) => {
        const r = indexedDB.open('dedup-workbench');
        r.onerror = () => fail(r.error);
        r.onsuccess = () => {
          const idb = r.result;
          const names = [...idb.objectStoreNames].filter((n) => n !== 'datasets');
          const tx = idb.transaction(names);
          const out: Record<string, { all: number; ofDataset: number }> = {};
          for (const n of names) {
            const q = tx.objectStore(n).getAllKeys();
            q.onsuccess = () => {
              const keys = q.result as IDBValidKey[];
              const of = keys.filter((k) => (Array.isArray(k) ? k[0] : k) === id).length;
              out[n] = { all: keys.length, ofDataset: of };
            };
          }
          tx.oncomplete = () => {
            idb.close();
            ok(out);
          };
          tx.onerror = () => fail(tx.error);
        };
      }),
    id,
  );
}

/** Names of the Web Locks held in the origin now (every tab): a job holds its lock while it runs. */
const heldLocks = (page: Page): Promise<string[]> =>
  page.evaluate(async () => ((await navigator.locks.query()).held ?? []).map((l) => l.name ?? ''));

/** No orphans (#23): a dataset deleted in one tab while another computes its signatures leaves no row. */
describe('deleting a dataset while another tab computes its signatures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-orphans-'));
  const big = join(dir, 'orphan.warc.gz');
  let app: OpenApp;
  let a: Page;

  before(async () => {
    await generateWarcGz(big, 24e6, 11);
    app = await openApp();
    a = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('cancels the job in the computing tab, and no row of the dataset remains, before or after a reload', async () => {
    await dropFile(a, big);
    const rowA = a.locator('.dataset-list li', { hasText: 'orphan.warc.gz' });
    await rowA.locator('.badge.status-ready').waitFor({ timeout: 120_000 });
    const id = Number(new URL(a.url()).searchParams.get('ds'));
    assert.ok(id > 0, `dataset id from the URL: ${a.url()}`);
    const before = await rowsInDb(a, id);
    assert.ok(before.pageChunks.ofDataset > 0 && before.chunks.ofDataset > 0, JSON.stringify(before));

    // Tab B opens on the same dataset list before A starts, so it can delete at once.
    const b = await app.context.newPage();
    b.on('dialog', (d) => void d.accept());
    const errorsB: string[] = [];
    b.on('pageerror', (e) => errorsB.push(e.message));
    await b.goto(app.url);
    await b.locator('.dataset-list li', { hasText: 'orphan.warc.gz' }).waitFor();

    await a.getByRole('button', { name: 'Compute signatures' }).click();
    await a.getByRole('progressbar', { name: 'Signature progress' }).waitFor({ timeout: 30_000 });
    assert.ok((await heldLocks(b)).includes(`dw-signatures-${id}`), 'A computes while B deletes');
    await a.screenshot({ path: join(SHOTS, 'orphans-computing.png') });

    const t0 = Date.now();
    await b.getByRole('button', { name: 'Delete orphan.warc.gz' }).click();
    await b.getByText('Drop a crawl file anywhere').waitFor({ timeout: 30_000 });
    // A sees the deletion (its list empties) and its job ends: the lock is released.
    await a.getByText('Drop a crawl file anywhere').waitFor({ timeout: 30_000 });
    await a.waitForFunction(
      async (lock) => !((await navigator.locks.query()).held ?? []).some((l) => l.name === lock),
      `dw-signatures-${id}`,
      { timeout: 30_000, polling: 100 },
    );
    console.log(`signatures job in tab A ended ${Date.now() - t0} ms after tab B's delete`);
    await a.screenshot({ path: join(SHOTS, 'orphans-deleted.png') });

    // Before any reload (no start-up cleanup yet): nothing of the dataset was written after its delete.
    const afterJob = await rowsInDb(a, id);
    for (const [store, n] of Object.entries(afterJob))
      assert.equal(n.ofDataset, 0, `${store}: ${n.ofDataset}`);

    await a.reload();
    await a.getByText('Drop a crawl file anywhere').waitFor();
    const afterReload = await rowsInDb(a, id);
    for (const [store, n] of Object.entries(afterReload)) assert.equal(n.all, 0, `${store}: ${n.all} rows`);
    assert.deepEqual(errorsB, []);
    await b.close();
  });

  it('removes, when the app starts, rows an older version left without their dataset', async () => {
    // Rows of a dataset (id 999) that has no row, as a job of an older version left them.
    await a.evaluate(
      () =>
        new Promise<void>((ok, fail) => {
          const r = indexedDB.open('dedup-workbench');
          r.onerror = () => fail(r.error);
          r.onsuccess = () => {
            const idb = r.result;
            const tx = idb.transaction(['analyses', 'dustRuns', 'labels', 'references'], 'readwrite');
            tx.objectStore('analyses').put({ datasetId: 999, paramsKey: '{}' });
            tx.objectStore('dustRuns').put({ datasetId: 999 });
            tx.objectStore('labels').put({ datasetId: 999, a: 1, b: 2, label: 'dup' });
            tx.objectStore('references').put({ datasetId: 999, seq: 1 });
            tx.oncomplete = () => {
              idb.close();
              ok();
            };
            tx.onerror = () => fail(tx.error);
          };
        }),
    );
    const seeded = await rowsInDb(a, 999);
    assert.equal(
      Object.values(seeded).reduce((s, n) => s + n.ofDataset, 0),
      4,
    );
    await a.reload();
    await a.getByText('Drop a crawl file anywhere').waitFor();
    // The removal runs before the dataset list is first read: wait for it without a fixed sleep.
    await a.waitForFunction(
      () =>
        new Promise<boolean>((ok) => {
          const r = indexedDB.open('dedup-workbench');
          r.onsuccess = () => {
            const q = r.result.transaction('analyses').objectStore('analyses').count();
            q.onsuccess = () => {
              r.result.close();
              ok(q.result === 0);
            };
          };
        }),
      null,
      { timeout: 10_000, polling: 100 },
    );
    const left = await rowsInDb(a, 999);
    for (const [store, n] of Object.entries(left)) assert.equal(n.all, 0, `${store}: ${n.all} rows`);
  });
});
