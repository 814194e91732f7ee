import Dexie, { type Table, type Transaction } from 'dexie';
import type { EngineParams, EngineResult } from '../core/candidates/engine';
import type { DustMetrics, DustParams, Rule } from '../core/dust';
import type { LabelValue } from '../core/eval/estimators';
import type { Strategy } from '../core/eval/sampling';
import type {
  FormatId,
  IngestErrorInfo,
  PageContent,
  PageListInfo,
  PageRecord,
  SourceInfo,
} from '../core/types';

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
 * The contents of one ingest batch (up to 500 pages) as ONE IndexedDB value. Why: Chromium writes one
 * 2.5 MB value of 500 contents ~3× faster than the same contents as 500 values (115 against 36 MB/s,
 * measured in this Chromium; large values go to a blob file instead of LevelDB), and storage was the
 * largest cost of ingesting a big crawl in the browser. Reading one page's content reads its chunk.
 */
export interface StoredChunk {
  datasetId: number;
  /** The chunk's key: the first seq of its batch (seqs are unique in a dataset). */
  chunk: number;
  contents: PageContent[];
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

/** v7: page contents in chunks of one batch each (see StoredChunk); v8 drops the old per-page table. */
export const SCHEMA_V7 = {
  ...SCHEMA_V6,
  chunks: '[datasetId+chunk]',
};
export const SCHEMA_V8 = { ...SCHEMA_V7, contents: null };

/** Rows moved per step of the v7 upgrade (memory holds one step). */
const MIGRATE_STEP = 500;

export class WorkbenchDb extends Dexie {
  datasets!: Table<Dataset, number>;
  pages!: Table<StoredPage, [number, number]>;
  chunks!: Table<StoredChunk, [number, number]>;
  analyses!: Table<StoredAnalysis, [number, string]>;
  dustRuns!: Table<StoredDustRun, number>;
  labels!: Table<StoredLabel, [number, number, number]>;
  references!: Table<StoredReference, [number, number]>;

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
  }
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
      await chunks.put({ datasetId, chunk, contents: group });
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
