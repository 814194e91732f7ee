import type { PairTable } from '../candidates/pairs';
import type { Cluster } from './clusters';
import { pairsWithin } from '../candidates/pair-index';
import { CHAIN_FLOOR } from './view';

/** A pair of members with what is known of their similarity (exact Jaccard of word 5-shingles). */
export interface MemberPair {
  i: number;
  j: number;
  /** Index in the pair table, or null when no candidate generator proposed the pair. */
  k: number | null;
  /** Exact Jaccard when k is set; else the lower bound that Jaccard distance being a metric gives. */
  jaccard: number;
  bound: boolean;
}

export interface ClusterInspection {
  /** Candidate pairs inside the cluster (indices into the pair table). */
  pairs: number[];
  /** Of those, the ones the method accepts: the cluster's edges. */
  edges: number[];
  memberPairs: number;
  /** The pair to open first: the highest exact Jaccard among the candidate pairs inside. */
  strongest: MemberPair | null;
  /** The accepted pair with the lowest exact Jaccard: the weakest link holding the cluster together. */
  weakestEdge: MemberPair | null;
  /** The member pair least known to be alike (exact Jaccard, or its metric lower bound). */
  weakestPair: MemberPair | null;
  /**
   * Member pairs that the method does not accept and that are not shown to be alike (exact Jaccard, or
   * its lower bound, < CHAIN_FLOOR): they share the cluster only through other members. Up to 50.
   */
  gaps: MemberPair[];
  gapCount: number;
  /** At least one gap: the cluster chains pages that are not near-replicas of each other. */
  chained: boolean;
  /** Member pairs are enumerated among the first this-many members (all but for huge clusters). */
  checkedMembers: number;
}

/** Member pairs of larger clusters are checked among their first this-many members (≈ 1.1M pairs). */
const CHECK_MEMBERS = 1500;

/** Above this many members, pairs the generators never proposed are bounded through the centre only. */
const BOUND_THROUGH_ALL = 300;

/**
 * What holds a cluster together, from the stored pairs only (no signature, no text): its edges, the
 * strongest pair, the weakest link, and whether it is chained. A pair no generator proposed has no
 * measure, but Jaccard distance is a metric (lecture; Broder 1997), so J(i, j) ≥ J(i, m) + J(m, j) − 1
 * through any member m: star clusters at J ≥ t give every pair ≥ 2t − 1 this way.
 */
export function inspectCluster(p: PairTable, c: Cluster, mask: Uint8Array): ClusterInspection {
  const pairs = pairsWithin(p, c.members);
  const edges = pairs.filter((k) => mask[k] === 1);
  const s = c.members.length;
  const key = (i: number, j: number) => (i < j ? i * 2 ** 21 + j : j * 2 ** 21 + i);
  const byKey = new Map<number, number>();
  const neighbours = new Map<number, number[]>();
  for (const k of pairs) {
    byKey.set(key(p.a[k], p.b[k]), k);
    for (const [x, y] of [
      [p.a[k], p.b[k]],
      [p.b[k], p.a[k]],
    ]) {
      let list = neighbours.get(x);
      if (!list) neighbours.set(x, (list = []));
      list.push(y);
    }
  }
  const known = (k: number): MemberPair => ({ i: p.a[k], j: p.b[k], k, jaccard: p.jaccard[k], bound: false });
  const through = (i: number, m: number, j: number) => {
    const u = byKey.get(key(i, m));
    const v = byKey.get(key(m, j));
    return u === undefined || v === undefined ? 0 : Math.max(0, p.jaccard[u] + p.jaccard[v] - 1);
  };
  const boundOf = (i: number, j: number): number => {
    let best = c.centre >= 0 && c.centre !== i && c.centre !== j ? through(i, c.centre, j) : 0;
    if (s <= BOUND_THROUGH_ALL)
      for (const m of neighbours.get(i) ?? []) best = Math.max(best, through(i, m, j));
    return best;
  };

  const pick = (list: number[], better: (x: number, y: number) => boolean) => {
    let best = -1;
    for (const k of list) if (best < 0 || better(k, best)) best = k;
    return best < 0 ? null : known(best);
  };
  const strongest = pick(
    pairs,
    (x, y) => p.jaccard[x] > p.jaccard[y] || (p.jaccard[x] === p.jaccard[y] && p.cosine[x] > p.cosine[y]),
  );
  const weakestEdge = pick(edges, (x, y) => p.jaccard[x] < p.jaccard[y]);

  let weakestPair: MemberPair | null = null;
  const gaps: MemberPair[] = [];
  let gapCount = 0;
  const checked = Math.min(s, CHECK_MEMBERS);
  for (let x = 0; x < checked; x++)
    for (let y = x + 1; y < checked; y++) {
      const i = c.members[x];
      const j = c.members[y];
      const k = byKey.get(key(i, j));
      const mp: MemberPair =
        k !== undefined ? known(k) : { i, j, k: null, jaccard: boundOf(i, j), bound: true };
      if (!weakestPair || mp.jaccard < weakestPair.jaccard) weakestPair = mp;
      const acceptedPair = k !== undefined && mask[k] === 1;
      if (!acceptedPair && mp.jaccard < CHAIN_FLOOR) {
        gapCount++;
        if (gaps.length < 50) gaps.push(mp);
      }
    }
  gaps.sort((u, v) => u.jaccard - v.jaccard);
  return {
    pairs,
    edges,
    memberPairs: (s * (s - 1)) / 2,
    strongest,
    weakestEdge,
    weakestPair,
    gaps,
    gapCount,
    chained: gapCount > 0,
    checkedMembers: checked,
  };
}
