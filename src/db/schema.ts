import type { SampleInfo } from '../core/ingest/sample-plan';
import Dexie, { type Table, type Transaction } from 'dexie';
import type { Captures } from '../core/candidates/captures';
import type { EngineParams, EngineResult } from '../core/candidates/engine';
import type { DustMetrics, DustParams, Rule } from '../core/dust';
import type { LabelValue } from '../core/eval/estimators';
import type { Strategy } from '../core/eval/sampling';
import type {
  DigestReport,
  FormatId,
  IngestErrorInfo,
  PageContent,
  PageListInfo,
  PageRecord,
  SourceInfo,
} from '../core/types';
import { packChunk, type StoredChunk } from './chunks';

/** `empty`: a non-empty file that yielded no page; its `error` says why (never silently ready). */
export type DatasetStatus = 'ingesting' | 'ready' | 'partial' | 'cancelled' | 'interrupted' | 'empty';

export interface Dataset {
  id?: number;
  name: string;
  fileName: string;
  /** Size of the dropped file. */
  bytes: number;
  format: FormatId;
  compressed: boolean;
  /** 'wacz' when the crawl came in a WACZ (its WARCs are `format`); absent for files read as they are. */
  container?: 'wacz';
  /** ISO time the dataset was created. */
  created: string;
  status: DatasetStatus;
  /** Last sign of life of the ingest job (ms since epoch): a stale 'ingesting' dataset was interrupted. */
  heartbeat: number;
  pages: number;
  records: number;
  hosts: number;
  recordsByType: Record<string, number>;
  skipped: Record<string, number>;
  bytesDecoded: number;
  elapsedMs: number;
  /** Of elapsedMs, the time spent writing to IndexedDB. */
  storeMs: number;
  error: IngestErrorInfo | null;
  warnings: IngestErrorInfo[];
  warningCount: number;
  /** Approximate bytes its pages take in IndexedDB, summed as they are written (absent before v0.2). */
  storedBytes?: number;
  /** Name of the Web Lock the tab running its ingest holds (navigator.locks): free lock = job gone. */
  lock?: string;
  /** The files read into it, in order, each with its pages and problems (absent before v0.3: one file). */
  sources?: SourceInfo[];
  /** Pages by HTTP status class; Heritrix's own codes are in `skipped`. */
  statusCounts?: Record<string, number>;
  /** A WACZ's pages.jsonl against the pages read. */
  pageList?: PageListInfo;
  /** Stated WARC digests checked against the records' bytes: counts and the first mismatches (absent: none stated). */
  digests?: DigestReport;
  /** An access log's base URL (origin) set by the analyst in place of the guessed host. */
  baseUrl?: string;
  /** Read as a designed sample of a larger crawl (by its index): the design and the index's totals. */
  sample?: SampleInfo;
}

export interface StoredPage extends PageRecord {
  datasetId: number;
  /** Key of the chunk holding this page's content (the first seq of its batch); absent before v7. */
  chunk?: number;
}

export interface StoredContent extends PageContent {
  datasetId: number;
}

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

/**
 * Signatures and candidate pairs of a dataset under one parameter set: the engine's result as it is
 * (src/core/candidates/engine.ts EngineResult: its `maxD` is the D slider's upper end, every collision
 * below it among the stored pairs), with what identifies it. Typed arrays are stored as they are
 * (structured clone), so loading one is a single read.
 */
export interface StoredAnalysis extends EngineResult {
  datasetId: number;
  /** Canonical JSON of the parameters that need recomputation when changed. */
  paramsKey: string;
  params: EngineParams;
  created: string;
  /** Page seqs in signature order (index i ↔ seqs[i]). */
  seqs: Float64Array;
  /** Captures of a URL that its first capture stands for (core/candidates/captures.ts); absent before. */
  captures?: Captures;
  elapsedMs: number;
}

/** v4 (DUST rules): the last DustBuster run of each dataset. */
export const SCHEMA_V4 = {
  ...SCHEMA_V3,
  dustRuns: 'datasetId',
};

export interface StoredDustRun {
  datasetId: number;
  params: DustParams;
  created: string;
  elapsedMs: number;
  rules: Rule[];
  /** URLs saved per rule id: list URLs it rewrites to another URL of the list. */
  saved: Record<number, number>;
  metrics: DustMetrics;
  /** normalised URL → canonical URL, only where they differ. */
  canonical: [string, string][];
  cycles: string[];
  list: {
    urls: number;
    detection: number;
    validation: number;
    /** Absent in runs stored before these were kept. */
    split?: boolean;
    redirects?: number;
    errorRecords: number;
    repeatedRecords: number;
  };
  /** Whether documents (sketches) were available, or only sizes (access logs): rules then stay likely. */
  hasContent: boolean;
}

/** v5 (measuring): hand labels of page pairs, per dataset. */
export const SCHEMA_V5 = {
  ...SCHEMA_V4,
  labels: '[datasetId+a+b], datasetId',
};

/** A hand label of the page pair (a, b) (page seqs, a < b), with how it was sampled. */
export interface StoredLabel {
  datasetId: number;
  a: number;
  b: number;
  label: LabelValue;
  strategy: Strategy;
  /** Inclusion probability under the strategy (NaN for near-threshold picks: not a probability sample). */
  pi: number;
  at: string;
}

/** v6: reference pages (known to have a replica), for page-level recall as the near-replica paper measures it. */
export const SCHEMA_V6 = {
  ...SCHEMA_V5,
  references: '[datasetId+seq], datasetId',
};

export interface StoredReference {
  datasetId: number;
  seq: number;
}

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

/** One chunk of a sample's URL layer: the index's captures as lines (see SCHEMA_V12). */
export interface StoredUrlLayer {
  datasetId: number;
  chunk: number;
  lines: string;
}

/** The page rows of one ingest batch (its contents are the chunk of the same key), in seq order. */
export interface StoredPageChunk {
  datasetId: number;
  chunk: number;
  pages: StoredPage[];
}

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
