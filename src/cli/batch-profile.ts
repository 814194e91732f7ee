/**
 * What the batch join makes of a dedup profile: the method and clustering it can apply, and the values of
 * sql/dedup.sql's variables (the same on DuckDB and on Spark).
 */
import type { BatchClustering } from './batch-cluster';
import { CHAIN_FLOOR } from '../core/clusters/view';
import { BATCH_METHODS, type BatchMethod } from '../core/batch/keys';
import type { DedupProfile } from '../core/profile';
import { keepOrderSql, keepReasonSql } from '../core/clusters/kept';
import { METHOD_LABELS } from '../core/candidates/methods';

/** The values sql/dedup.sql's `${var}`s take for a profile: the same on DuckDB and on Spark. */
export function joinVars(profile: DedupProfile): Record<string, string | number> {
  return {
    method: batchMethod(profile),
    jaccard: profile.thresholds.jaccard,
    hamming: profile.thresholds.hamming,
    full_bucket: profile.engine.minhash.fullBucket,
    anchors: profile.engine.minhash.anchors,
    clustering: batchClustering(profile),
    // The kept-copy policy as SQL (clusters/kept.ts): the order of `ranked`, the reason of `kept`.
    keep_order: keepOrderSql(profile.keep),
    // Captures of one URL folded into the earliest (candidates/captures.ts), unless compared.
    fold_captures: profile.engine.captures === 'each' ? 0 : 1,
    // Never lose text silently (clusters/loses-text.ts): the flag's threshold, and whether flagged
    // members are removed all the same.
    loses_text: profile.losesText,
    remove_losing: profile.removeLosing ? 1 : 0,
    keep_reason: keepReasonSql(profile.keep),
    guard_floor: CHAIN_FLOOR,
    // The lowest similarity any output needs: the threshold, or the guard's floor below it.
    min_similarity:
      batchClustering(profile) === 'guarded'
        ? Math.min(profile.thresholds.jaccard, CHAIN_FLOOR)
        : profile.thresholds.jaccard,
  };
}

/**
 * The profile's clustering, if the batch join computes it for the profile's method. The chain guard
 * looks up the exact Jaccard of every member pair: the MinHash join has it for its candidates, the
 * SimHash join (verified by Hamming distance) does not.
 */
export function batchClustering(profile: DedupProfile): BatchClustering {
  const c = profile.clustering;
  if (c === 'guarded' && batchMethod(profile) === 'simhash')
    throw new Error(
      "the batch join applies the chain guard to MinHash and exact profiles; the profile's method is SimHash (its join has no exact Jaccard to guard with)",
    );
  return c;
}

/** The profile's method, if the batch join can apply it (RP+HM, feature code and SimHash: README). */
export function batchMethod(profile: DedupProfile): BatchMethod {
  const m = profile.method as BatchMethod;
  if (!BATCH_METHODS.includes(m))
    throw new Error(
      `the batch join applies ${BATCH_METHODS.map((x) => METHOD_LABELS[x]).join(', ')}; the profile's method is ${METHOD_LABELS[profile.method]}`,
    );
  // The blocks find every pair within engine.maxHamming bits; a wider threshold would need the
  // candidates of the other methods, as the workbench has them.
  if (m === 'simhash' && profile.thresholds.hamming > profile.engine.maxHamming)
    throw new Error(
      `the profile's SimHash threshold (${profile.thresholds.hamming} bits) is wider than the distance its blocks find (engine.maxHamming, ${profile.engine.maxHamming})`,
    );
  return m;
}
