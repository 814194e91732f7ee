/**
 * What a threshold move changes (issue "The analyst's decisions persist", scope 3): two cluster views of
 * one analysis — the pinned position A and the current B — compared pair by pair and cluster by cluster.
 * Pairs gained (accepted at B, not at A) and lost; clusters of B that merge pages of two or more clusters
 * of A (or bring in pages A left alone); clusters of A whose pages B splits over two or more clusters
 * (or drops); pages whose kept copy changes (the copy kept for their cluster at A is not the one at B).
 */
import type { Cluster } from './clusters';
import type { ClusterView } from './view';

export interface ViewChange {
  /** Pair indexes accepted at B and not at A, and the reverse; in pair order. */
  gained: number[];
  lost: number[];
  /** Clusters of B holding pages of 2+ clusters of A, or pages A kept out of any cluster. */
  merged: Cluster[];
  /** Clusters of A whose pages B puts in 2+ clusters, or in none. */
  split: Cluster[];
  /** Pages in a cluster at both whose cluster's kept copy differs (page, kept at A, kept at B). */
  keptChanged: { page: number; before: number; after: number }[];
}

export function compareViews(
  n: number,
  a: ClusterView,
  b: ClusterView,
  keptOf: (c: Cluster) => number,
): ViewChange {
  const gained: number[] = [];
  const lost: number[] = [];
  for (let k = 0; k < a.mask.length; k++) {
    if (b.mask[k] === 1 && a.mask[k] === 0) gained.push(k);
    else if (a.mask[k] === 1 && b.mask[k] === 0) lost.push(k);
  }
  const rowOf = (v: ClusterView) => {
    const row = new Int32Array(n).fill(-1);
    v.clusters.forEach((c, i) => c.members.forEach((m) => (row[m] = i)));
    return row;
  };
  const inA = rowOf(a);
  const inB = rowOf(b);
  const spans = (c: Cluster, other: Int32Array) => {
    const rows = new Set<number>();
    for (const m of c.members) rows.add(other[m]);
    return rows.size > 1 || rows.has(-1);
  };
  const merged = b.clusters.filter((c) => spans(c, inA));
  const split = a.clusters.filter((c) => spans(c, inB));
  const keptA = a.clusters.map(keptOf);
  const keptB = b.clusters.map(keptOf);
  const keptChanged: ViewChange['keptChanged'] = [];
  for (let p = 0; p < n; p++) {
    if (inA[p] < 0 || inB[p] < 0) continue;
    const before = keptA[inA[p]];
    const after = keptB[inB[p]];
    if (before !== after) keptChanged.push({ page: p, before, after });
  }
  return { gained, lost, merged, split, keptChanged };
}

/**
 * LSH's S-curve (MMDS §3.4.2): the probability that a pair of Jaccard s shares at least one of `bands`
 * bands of `rows` rows, 1 − (1 − s^rows)^bands.
 */
export function lshProbability(s: number, bands: number, rows: number): number {
  return 1 - (1 - s ** rows) ** bands;
}
