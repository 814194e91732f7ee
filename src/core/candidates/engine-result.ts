/**
 * What the signature engine (engine.ts) gives: the signatures, the candidate pairs with their measures,
 * and what each step took.
 */
import type { HeavyValues } from './heavy-measures';
import type { PairTable } from './pairs';

export interface EngineResult {
  n: number;
  K: number;
  /** RP and HM signatures, n × K, in [0, 1]. */
  R: Float32Array;
  X: Float32Array;
  pairs: PairTable;
  /** Milliseconds per step. */
  timings: Record<string, number>;
  /** Candidate pairs proposed per generator (before de-duplication), and buckets skipped as too large. */
  candidates: Record<string, number>;
  bands: { bands: number; rows: number };
  /** The largest D whose collisions are all among the candidates (≤ params.maxD; less past the budget). */
  maxD: number;
}

/**
 * The pairs' cosine and Jaccard (the heavy measures, HeavyValues of consecutive ranges of the pairs,
 * in order) written into the result's pair table, and their times into its timings.
 */
export function putHeavy(r: EngineResult, parts: readonly HeavyValues[]): void {
  let at = 0;
  r.timings['measures.cosine'] = 0;
  r.timings['measures.jaccard'] = 0;
  for (const v of parts) {
    // Values written in place (finish) are not copied onto themselves.
    if (v.cosine !== r.pairs.cosine) r.pairs.cosine.set(v.cosine, at);
    if (v.jaccard !== r.pairs.jaccard) r.pairs.jaccard.set(v.jaccard, at);
    at += v.cosine.length;
    r.timings['measures.cosine'] += v.cosineMs;
    r.timings['measures.jaccard'] += v.jaccardMs;
  }
  if (at !== r.pairs.count) throw new Error(`measures of ${at} pairs for ${r.pairs.count}`);
}
