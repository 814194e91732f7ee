/** The rows the workbench's database stores, table by table (the tables and their versions: schema.ts). */
import type { SampleInfo } from '../core/sample/sample-plan';
import type { Captures } from '../core/candidates/captures';
import type { EngineParams } from '../core/candidates/engine-params';
import type { EngineResult } from '../core/candidates/engine-result';
import type { DustMetrics, DustParams, Rule } from '../core/dust';
import type { PartnerReport } from '../core/dust/sample-dust';
import type { LabelValue } from '../core/eval/estimators';
import type { LabelOrigin } from '../core/eval/label-record';
import type { Strategy } from '../core/eval/sampling';
import type { StoredTemplate } from '../core/text/template';
import type {
  DigestReport,
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
 * Signatures and candidate pairs of a dataset under one parameter set: the engine's result as it is
 * (src/core/candidates/engine-result.ts EngineResult: its `maxD` is the D slider's upper end, every collision
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
  /** The template model the texts were compared by (template.strip on); absent otherwise, and before. */
  template?: StoredTemplate;
}

export interface StoredDustRun {
  datasetId: number;
  params: DustParams;
  created: string;
  elapsedMs: number;
  rules: Rule[];
  /** URLs saved per rule id: list URLs it rewrites to another URL of the list. */
  saved: Record<number, number>;
  metrics: DustMetrics;
  /** URLs each rule alone merges beyond the others (core/dust/saved.ts urlsOnlyBy); absent in older runs. */
  only?: Record<number, number>;
  /** normalised URL → canonical URL (a URL the crawl fetched: representatives.ts), only where they differ. */
  canonical: [string, string][];
  /** normalised URL → the rules' form (§5.4), only where they differ; absent in older runs. */
  ruleForm?: [string, string][];
  /** The crawler file's last part: the rules' answer → the canonical URL (regex-export.ts fileFixes). */
  renamed?: [string, string][];
  /** Classes named by a fetched member other than their rule form. */
  renamedClasses?: number;
  /** Canonical URLs that no URL of their class was fetched with a 2xx. */
  unfetched?: string[];
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
  /** A sample's run: the partners of sampled URLs read to validate its rules (dust/sample-dust.ts). */
  partners?: PartnerReport;
}

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
  /** Imported from a file of this tool (core/eval/label-record.ts): outside the sampling design. */
  origin?: LabelOrigin;
}

/**
 * An analyst's decision over two pages of a dataset (core/clusters/overrides.ts): must-link (the same
 * page) or cannot-link (not duplicates). `how` says where it was made; the URLs travel with it into the
 * profile, so it applies to another crawl of the same site.
 */
export interface StoredOverride {
  datasetId: number;
  /** Page seqs, a < b. */
  a: number;
  b: number;
  kind: 'must' | 'cannot';
  urlA: string;
  urlB: string;
  /** 'pair': marked on a pair; 'split' or 'merge' of a cluster; 'label': from a "not" label; 'import'. */
  how: 'pair' | 'split' | 'merge' | 'label' | 'import';
  at: string;
  /** Who decided: the reviewer's name as typed in the Decisions pane (absent when none was given). */
  by?: string;
}

export interface StoredReference {
  datasetId: number;
  seq: number;
}

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
