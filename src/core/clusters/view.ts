import { acceptMask, type MethodId, type Thresholds } from '../candidates/methods';
import type { PairTable } from '../candidates/pairs';
import { connectedComponents, guardedComponents, starClusters, type Cluster } from './clusters';
import { findPair } from './pair-index';

/**
 * How accepted pairs become clusters: connected components (transitive: one bridging pair merges two
 * groups), star clusters (every member a direct duplicate of its centre), or components with a chain
 * guard (every member pair a candidate with exact Jaccard ≥ CHAIN_FLOOR).
 */
export type ClusterMode = 'components' | 'star' | 'guarded';

export const CLUSTER_MODE_LABELS: Record<ClusterMode, string> = {
  star: 'star clusters (non-transitive)',
  guarded: 'components with a chain guard',
  components: 'connected components (transitive)',
};

/**
 * Below this exact Jaccard of word 5-shingles two members of one cluster are not near-replicas of each
 * other: on the sample and on docsite, pairs of different pages sharing one site's template reach
 * 0.2–0.4, true near-replicas stay above 0.6 (`npm run bench:quality`). The guard of 'guarded' and
 * the `chained` verdict of a cluster use it.
 */
export const CHAIN_FLOOR = 0.5;

export interface ClusterView {
  /** Largest first (ties: lowest first member). */
  clusters: Cluster[];
  /** mask[k] = 1 when pair k passes the method at the thresholds. */
  mask: Uint8Array;
  /** Accepted pairs under the method and thresholds. */
  accepted: number;
  /** Pages in clusters. */
  pages: number;
}

/** Clusters from an accept mask: one pass over the stored pair columns (no signature work). */
export function buildClusters(n: number, p: PairTable, mask: Uint8Array, mode: ClusterMode): Cluster[] {
  const ok = (k: number) => mask[k] === 1;
  const clusters =
    mode === 'star'
      ? starClusters(n, p.a, p.b, ok)
      : mode === 'guarded'
        ? guardedComponents(n, p.a, p.b, ok, p.jaccard, CHAIN_FLOOR, (i, j) => findPair(p, i, j))
        : connectedComponents(n, p.a, p.b, ok);
  return clusters.sort((x, y) => y.members.length - x.members.length || x.members[0] - y.members[0]);
}

export function clusterView(
  a: { n: number; pairs: PairTable },
  method: MethodId,
  t: Thresholds,
  mode: ClusterMode,
): ClusterView {
  const { mask, accepted } = acceptMask(a.pairs, method, t);
  const clusters = buildClusters(a.n, a.pairs, mask, mode);
  return { clusters, mask, accepted, pages: clusters.reduce((s, c) => s + c.members.length, 0) };
}

/** The clustering the workbench opens on (see DEFAULT_METHOD for the measurement behind both). */
export const DEFAULT_CLUSTERING: ClusterMode = 'star';
