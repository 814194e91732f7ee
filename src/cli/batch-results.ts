/**
 * The join's results: its summary rows and result, and the files it writes into DIR (an earlier run's
 * removed when a join begins).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BatchClustering } from './batch-cluster';
import type { BatchMethod } from '../core/batch/keys';

export interface JoinSummaryRow {
  host: string | null;
  pages: number;
  pages_in_clusters: number;
  clusters: number;
  /** Duplicate URLs: cluster members other than the kept copy. */
  duplicates_removed: number;
  /** Distinct payload digests (a page without one counts as its own). */
  unique_payloads: number;
  bytes: number;
  /** Bytes of the duplicates removed. */
  bytes_conserved: number;
  /** Captures of a URL folded into its earliest capture (sql/dedup.sql `stands`): in no cluster. */
  captures_folded: number;
  /** Members whose text the kept copy lacks beyond the profile's share (sql/dedup.sql `lost`). */
  loses_text: number;
}

export interface JoinResult {
  method: BatchMethod;
  candidates: number;
  edges: number;
  /** Candidate pairs verified and rejected (rejected.parquet). */
  rejected: number;
  clustering: BatchClustering;
  /** Rounds of the star clustering, or iterations of the label propagation. */
  iterations: number;
  /** With `against`: the earlier crawl's pages, and the crawl's pages that revisit them, by kind. */
  against?: { dir: string; pages: number; revisits: Record<RevisitKind, number> };
  /**
   * LSH buckets of more than the profile's fullBucket pages, verified against their anchors (summed
   * over bands), and the page-band memberships in them.
   */
  anchored: { buckets: number; memberships: number };
  summary: JoinSummaryRow[];
  timings: Record<string, number>;
  elapsedMs: number;
}

export type RevisitKind = 'identical-payload' | 'identical-text' | 'near';

/**
 * The tables written out: clusters (with `kept`), the remove list, the verified pairs, the summary, and
 * the candidate pairs verified and rejected.
 */
export const RESULT_TABLES = ['clusters', 'remove', 'pairs', 'summary', 'rejected'] as const;
/** The join's results in DIR, summary.json last: it is written last and removed first. */
export const RESULT_FILES = [...RESULT_TABLES.map((t) => `${t}.parquet` as const), 'summary.json'] as const;
/** Written by a join --against only: removed with the others, moved in before summary.json. */
export const REVISITS = 'revisits.parquet';
/** Where a join writes before its results are moved into DIR. */
export const STAGE = '.join-tmp';

/** Removes an earlier join's results from DIR (summary.json first); whether there were any. */
export function removeResults(outDir: string): boolean {
  let any = false;
  for (const f of [REVISITS, ...RESULT_FILES].reverse()) {
    const path = join(outDir, f);
    if (!existsSync(path)) continue;
    any = true;
    rmSync(path, { force: true });
  }
  return any;
}
