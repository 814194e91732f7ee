import Dexie, { type Table, type Transaction } from 'dexie';
import { packChunk, type StoredChunk } from './chunks';
import type {
  Dataset,
  StoredAnalysis,
  StoredContent,
  StoredDustRun,
  StoredLabel,
  StoredOverride,
  StoredPage,
  StoredPageChunk,
  StoredReference,
  StoredUrlLayer,
} from './rows';

// The row types, for the many modules that take them with the database (defined in rows.ts).
export type {
  Dataset,
  DatasetStatus,
  StoredAnalysis,
  StoredContent,
  StoredDustRun,
  StoredLabel,
  StoredOverride,
  StoredPage,
  StoredReference,
} from './rows';

/**
 * Schema history. Never edit a published version: add one, with an upgrade when rows must change.
 * Later issues add their tables (signatures, candidates, rules, labels) as new versions.
 */
export const SCHEMA_V1 = {
  datasets: '++id, created, status',
  pages: '[datasetId+seq], datasetId, [datasetId+host], [datasetId+status], [datasetId+normUrl]',
  contents: '[datasetId+seq]',
};
/**
 * v2: fewer indexes — each one costs an IndexedDB write per page (0.7 s of 2.4 s on docsite). The
 * pages table filters host/status in memory; exact-duplicate groups need the fingerprint index, DUST
 * the normalised URL. Datasets record the problems read past (warnings).
 */
export const SCHEMA_V2 = {
  ...SCHEMA_V1,
  pages: '[datasetId+seq], [datasetId+normUrl], [datasetId+fingerprint]',
};

/** v3 (near-replica engine): one stored analysis per dataset and parameter set. */
export const SCHEMA_V3 = {
  ...SCHEMA_V2,
  analyses: '[datasetId+paramsKey], datasetId',
};

/** v4 (DUST rules): the last DustBuster run of each dataset. */
export const SCHEMA_V4 = {
  ...SCHEMA_V3,
  dustRuns: 'datasetId',
};

/** v5 (measuring): hand labels of page pairs, per dataset. */
export const SCHEMA_V5 = {
  ...SCHEMA_V4,
  labels: '[datasetId+a+b], datasetId',
};

/** v6: reference pages (known to have a replica), for page-level recall as the near-replica paper measures it. */
export const SCHEMA_V6 = {
  ...SCHEMA_V5,
  references: '[datasetId+seq], datasetId',
};

/** v7: page contents in chunks of one batch each (see StoredChunk, chunks.ts); v8 drops the old per-page table. */
export const SCHEMA_V7 = {
  ...SCHEMA_V6,
  chunks: '[datasetId+chunk]',
};
export const SCHEMA_V8 = { ...SCHEMA_V7, contents: null };
/**
 * v9: page rows keep only their primary key. Nothing queried the fingerprint index (exact-duplicate
 * groups are made in memory from the loaded pages), and the URL index served one lookup per cross-part
 * revisit after a parallel read (now one read of the dataset's rows); each index cost an IndexedDB
 * write per page, in the browser process, which shares the two cores with the ingest workers.
 */
export const SCHEMA_V9 = { ...SCHEMA_V8, pages: '[datasetId+seq]' };
/**
 * v10: page rows a batch to a value as well (`pageChunks`, keyed like the batch's contents chunk); v11
 * drops the per-page table. Why: with contents in chunks, the one IndexedDB row per page was most of
 * what storage cost — per row, not per byte (15,000 rows took 1.5–3.2 s to put and as much CPU in the
 * browser process, the chunk holding their contents ~0.6 s; rows of four fields were no cheaper).
 * Every reader pages through a dataset or goes by seq within its chunk (chunk keys are the first seq
 * of their batch, and each reader numbers its pages in file order, so key order is seq order).
 */
export const SCHEMA_V10 = { ...SCHEMA_V9, pageChunks: '[datasetId+chunk]' };
export const SCHEMA_V11 = { ...SCHEMA_V10, pages: null };
/**
 * v12: a sample's URL layer (`urlLayers`): every HTML capture its index lists, a chunk of lines a value
 * (`url TAB status TAB length TAB digest`), so DustBuster mines rules on every URL of the crawl and
 * validates them on the sampled pages.
 */
export const SCHEMA_V12 = { ...SCHEMA_V11, urlLayers: '[datasetId+chunk]' };
/**
 * v13: the analyst's decisions over the clusters (core/clusters/overrides.ts): a must-link or a
 * cannot-link between two pages (seqs, a < b), one per pair, with when and how it was made.
 */
export const SCHEMA_V13 = { ...SCHEMA_V12, overrides: '[datasetId+a+b], datasetId' };

/**
 * Every table but `datasets` holds rows of one dataset each, found by the key or index named here (the
 * dataset id alone, or first in a compound key). Deleting a dataset and the start-up removal of rows
 * whose dataset is gone go through this list (orphans.ts); a version that adds such a table adds it
 * here, and a test checks that the list names every table of the latest version.
 */
export const DATASET_KEYS = {
  pageChunks: '[datasetId+chunk]',
  chunks: '[datasetId+chunk]',
  analyses: 'datasetId',
  dustRuns: 'datasetId',
  labels: 'datasetId',
  references: 'datasetId',
  urlLayers: '[datasetId+chunk]',
  overrides: 'datasetId',
} as const;
export type DatasetTable = keyof typeof DATASET_KEYS;

/** Rows moved per step of the v7 upgrade (memory holds one step). */
const MIGRATE_STEP = 500;

export class WorkbenchDb extends Dexie {
  datasets!: Table<Dataset, number>;
  pageChunks!: Table<StoredPageChunk, [number, number]>;
  chunks!: Table<StoredChunk, [number, number]>;
  analyses!: Table<StoredAnalysis, [number, string]>;
  dustRuns!: Table<StoredDustRun, number>;
  labels!: Table<StoredLabel, [number, number, number]>;
  references!: Table<StoredReference, [number, number]>;
  urlLayers!: Table<StoredUrlLayer, [number, number]>;
  overrides!: Table<StoredOverride, [number, number, number]>;

  constructor(name = 'dedup-workbench') {
    super(name);
    this.version(1).stores(SCHEMA_V1);
    this.version(2)
      .stores(SCHEMA_V2)
      .upgrade((tx) =>
        tx
          .table('datasets')
          .toCollection()
          .modify((d: Partial<Dataset>) => {
            d.warnings ??= [];
            d.warningCount ??= 0;
          }),
      );
    this.version(3).stores(SCHEMA_V3);
    this.version(4).stores(SCHEMA_V4);
    this.version(5).stores(SCHEMA_V5);
    this.version(6).stores(SCHEMA_V6);
    this.version(7).stores(SCHEMA_V7).upgrade(migrateToChunks);
    this.version(8).stores(SCHEMA_V8);
    this.version(9).stores(SCHEMA_V9);
    this.version(10).stores(SCHEMA_V10).upgrade(migratePageRows);
    this.version(11).stores(SCHEMA_V11);
    this.version(12).stores(SCHEMA_V12);
    this.version(13).stores(SCHEMA_V13);
  }
}

/**
 * v9 → v10: the page rows of each chunk (pages point to theirs since v7; a page without one is a chunk of
 * its own) become one value. Read in key order (dataset, then seq), one step in memory at a time; a
 * chunk's rows are contiguous in that order.
 */
async function migratePageRows(tx: Transaction): Promise<void> {
  const pages = tx.table<StoredPage, [number, number]>('pages');
  const out = tx.table<StoredPageChunk, [number, number]>('pageChunks');
  let group: StoredPageChunk | null = null;
  let after: [number, number] | null = null;
  for (;;) {
    const rows: StoredPage[] = await (after ? pages.where(':id').above(after) : pages.toCollection())
      .limit(MIGRATE_STEP)
      .toArray();
    for (const p of rows) {
      const chunk = p.chunk ?? p.seq;
      if (group && (group.datasetId !== p.datasetId || group.chunk !== chunk)) {
        await out.put(group);
        group = null;
      }
      group ??= { datasetId: p.datasetId, chunk, pages: [] };
      group.pages.push({ ...p, chunk });
    }
    if (rows.length < MIGRATE_STEP) break;
    after = [rows[rows.length - 1].datasetId, rows[rows.length - 1].seq];
  }
  if (group) await out.put(group);
}

/**
 * v6 → v7: each run of up to MIGRATE_STEP per-page contents of one dataset becomes a chunk, and its pages
 * point to it. Read in key order (dataset, then seq), one step in memory at a time.
 */
async function migrateToChunks(tx: Transaction): Promise<void> {
  const contents = tx.table<StoredContent, [number, number]>('contents');
  const chunks = tx.table<StoredChunk, [number, number]>('chunks');
  const pages = tx.table<StoredPage, [number, number]>('pages');
  let after: [number, number] | null = null;
  for (;;) {
    const rows: StoredContent[] = await (after ? contents.where(':id').above(after) : contents.toCollection())
      .limit(MIGRATE_STEP)
      .toArray();
    if (rows.length === 0) return;
    after = [rows[rows.length - 1].datasetId, rows[rows.length - 1].seq];
    for (let i = 0; i < rows.length;) {
      const datasetId = rows[i].datasetId;
      let j = i;
      while (j < rows.length && rows[j].datasetId === datasetId) j++;
      const group = rows.slice(i, j).map(({ datasetId: _, ...c }) => c);
      const chunk = group[0].seq;
      await chunks.put(packChunk(datasetId, chunk, group));
      await pages
        .where('[datasetId+seq]')
        .anyOf(group.map((c) => [datasetId, c.seq]))
        .modify({ chunk });
      i = j;
    }
  }
}

let shared: WorkbenchDb | null = null;

/** The app's database (one per JS realm: the page and each worker open their own connection). */
export function db(): WorkbenchDb {
  shared ??= new WorkbenchDb();
  return shared;
}
