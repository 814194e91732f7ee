import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBatch } from '../../src/db/page-writes';
import { deleteDataset, createDataset } from '../../src/db/queries';
import { rowsOfDataset } from '../../src/db/orphans';
import { DATASET_KEYS, type DatasetTable, db, WorkbenchDb } from '../../src/db/schema';
import type { JobOutcome } from '../../src/core/jobs';
import { runWorkerJob } from '../../src/state/jobs';
import type { WorkerHandle } from '../../src/workers/client';
import { runDust } from '../../src/workers/dust-job';
import type { JobApi } from '../../src/workers/expose-job';
import { runIngest, runPart } from '../../src/workers/ingest-job';
import { runAnalysis } from '../../src/workers/signatures-job';
import { page } from '../db/fixtures';
import { httpResponse, warcRecord } from '../core/helpers';

const TABLES = Object.keys(DATASET_KEYS) as DatasetTable[];

afterEach(async () => {
  await db().delete();
  await db().open();
});

/** Every row of the database that is not a dataset row, by table (an orphan once its dataset is gone). */
async function rowsLeft(id: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const n = await rowsOfDataset(db(), t, id).count();
    if (n > 0) out[t] = n;
  }
  return out;
}

/** A dataset of `n` pages with text, stored in batches of 500 (so a job reads it in several steps). */
async function datasetOfPages(n: number): Promise<number> {
  const id = await createDataset(db(), {
    name: 'd',
    fileName: 'd.warc',
    bytes: 1,
    format: 'warc',
    compressed: false,
  });
  for (let s = 0; s < n; s += 500)
    await writeBatch(
      db(),
      id,
      Array.from({ length: Math.min(500, n - s) }, (_, i) => page(s + i, `h${(s + i) % 7}.test`)),
    );
  await db().datasets.update(id, { status: 'ready', pages: n });
  return id;
}

/** A WARC of `n` HTML pages, a record a part of the File (its stream hands them over one at a time). */
function warcOfPages(n: number, pad = 0): File {
  const records = Array.from({ length: n }, (_, i) =>
    warcRecord(
      [
        ['WARC-Type', 'response'],
        ['WARC-Target-URI', `http://h${i % 9}.test/p${i}`],
        ['WARC-Date', '2024-01-15T10:00:00Z'],
        ['WARC-Record-ID', `<urn:uuid:00000000-0000-0000-0000-${i.toString(16).padStart(12, '0')}>`],
        ['Content-Type', 'application/http; msgtype=response'],
      ],
      httpResponse(
        200,
        [['Content-Type', 'text/html']],
        `<title>Page ${i}</title><p>text ${i}</p>${' '.repeat(pad)}`,
      ),
    ),
  );
  return new File(records as BlobPart[], 'crawl.warc');
}

/**
 * The dataset is deleted while the job runs (as another tab would: a connection of its own), and the
 * job is never told to cancel: its own check before it writes must leave no row behind.
 */
describe('a dataset deleted while a job writes for it', () => {
  it('signatures: the analysis is not stored, the job ends cancelled, no row of the dataset remains', async () => {
    const id = await datasetOfPages(1500);
    const other = new WorkbenchDb();
    let deleting: Promise<void> | null = null;
    const r = await runAnalysis(
      { datasetId: id, params: {} },
      () => (deleting ??= deleteDataset(other, id)),
      () => false,
    );
    await deleting;
    expect(deleting).not.toBeNull();
    expect(r).toEqual({ kind: 'cancelled' });
    expect(await db().datasets.get(id)).toBeUndefined();
    expect(await rowsLeft(id)).toEqual({});
    other.close();
  });

  it('DUST: the run is not stored, the job ends cancelled, no row of the dataset remains', async () => {
    const id = await datasetOfPages(1500);
    let deleting: Promise<void> | null = null;
    const r = await runDust(
      { datasetId: id, params: {} },
      () => (deleting ??= deleteDataset(db(), id)),
      () => false,
    );
    await deleting;
    expect(r).toEqual({ kind: 'cancelled' });
    expect(await rowsLeft(id)).toEqual({});
  });

  const ingestDeleted = async (file: File, spawn?: Parameters<typeof runIngest>[3]) => {
    let deleting: Promise<void> | null = null;
    let id: number | null = null;
    const r = await runIngest(
      { files: [file] },
      (p) => {
        if (p.pages === 0 || deleting) return;
        deleting = db()
          .datasets.toCollection()
          .primaryKeys()
          .then((ids) => {
            id = ids[0];
            return deleteDataset(db(), id);
          });
      },
      () => false,
      spawn,
    );
    await deleting;
    expect(id).not.toBeNull();
    expect(r).toEqual({ kind: 'cancelled', datasetId: null, pages: 0 });
    expect(await db().datasets.count()).toBe(0);
    expect(await rowsLeft(id!)).toEqual({});
  };

  it('ingest: the read stops at its next batch and leaves no row', async () => {
    await ingestDeleted(warcOfPages(3000));
  });

  it('ingest in parallel parts: every part stops and leaves no row', async () => {
    const inThisThread = () => ({
      run: (req: Parameters<typeof runPart>[0], onProgress: Parameters<typeof runPart>[1]) =>
        runPart(req, onProgress, () => false),
      cancel: () => {},
      terminate: () => {},
    });
    await ingestDeleted(warcOfPages(3000, 3000), {
      parts: 2,
      runner: inThisThread,
      minBytes: 8 << 20,
      segmentBytes: 1 << 20,
    });
  });
});

describe('the job runner', () => {
  it('cancels a job when its dataset is deleted, from another connection (another tab)', async () => {
    const id = await datasetOfPages(10);
    const seen = { cancelled: false, started: false };
    // A job that runs until cancelled (or 10 s), standing in for a long signatures run in a worker.
    const api: JobApi<{ datasetId: number }, number, JobOutcome> = {
      run: async () => {
        seen.started = true;
        for (let t = 0; t < 1000 && !seen.cancelled; t++) await new Promise((ok) => setTimeout(ok, 10));
        return seen.cancelled ? { kind: 'cancelled' } : { kind: 'done' };
      },
      cancel: () => {
        seen.cancelled = true;
      },
    };
    const start = (): WorkerHandle<typeof api> => ({
      api: api as unknown as WorkerHandle<typeof api>['api'],
      terminate: () => {},
    });
    const job = runWorkerJob(start, { datasetId: id }, { onProgress: () => {}, datasetId: id });
    await expect.poll(() => seen.started).toBe(true);
    await new Promise((ok) => setTimeout(ok, 50));
    expect(seen.cancelled).toBe(false);
    const other = new WorkbenchDb();
    await deleteDataset(other, id);
    other.close();
    expect(await job.result).toEqual({ kind: 'cancelled' });
  });
});
