import {
  acceptedPairs,
  acceptIndex,
  sortedBy,
  type AcceptIndex,
  type MethodId,
  type Thresholds,
} from '../candidates/methods';
import type { PairTable } from '../candidates/pairs';
import { acceptedList, componentsOf, guardedOf, sortBySize, starsOf, type Cluster } from './clusters';
import { findPair } from '../candidates/pair-index';
import { scratchUint32 } from './scratch';
import { applyLinks, type Links, type LinkPair } from './overrides';

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
  /** With the analyst's decisions: must-links a cannot-link refused, and the clusters they changed. */
  links?: { conflicts: [number, number][]; changed: number };
}

/** Clusters from an accept mask: one pass over the stored pair columns (no signature work). */
export function buildClusters(n: number, p: PairTable, mask: Uint8Array, mode: ClusterMode): Cluster[] {
  return clustersOf(
    n,
    p,
    acceptedList(p.count, (k) => mask[k] === 1),
    mode,
    false,
  );
}

/**
 * What a slider move reuses, per analysis: each method's pairs sorted by its measure (the accepted
 * pairs are then a prefix), and every pair by exact Jaccard (the chain guard's order). Filled on first
 * use; the caller keeps one per pair table (src/state/clusters.ts).
 */
export interface ClusterIndex {
  accept: Partial<Record<MethodId, AcceptIndex>>;
  similarity: Uint32Array | null;
}

export const newClusterIndex = (): ClusterIndex => ({ accept: {}, similarity: null });

/**
 * The clusters of method at thresholds t: the accepted pairs read from the method's sorted order
 * (binary search), clusters built over those pairs only. The same view as acceptMask + buildClusters
 * (test/core/clusters/incremental.test.ts checks every method and mode on random pair tables).
 */
export function clusterView(
  a: { n: number; pairs: PairTable },
  method: MethodId,
  t: Thresholds,
  mode: ClusterMode,
  index: ClusterIndex = newClusterIndex(),
  links?: Links,
): ClusterView {
  const p = a.pairs;
  const ix = (index.accept[method] ??= acceptIndex(p, method));
  const edges = acceptedPairs(ix, t, (n) => scratchUint32('view.accepted', n, false));
  const mask = new Uint8Array(p.count);
  for (let e = 0; e < edges.length; e++) mask[edges[e]] = 1;
  const decided = links !== undefined && (links.must.length > 0 || links.cannot.length > 0);
  // The chain guard takes pairs by Jaccard descending (MinHash's order is that already); stars and
  // components take them in pair order, which keeps memory access sequential and neighbours sorted.
  const ordered =
    mode !== 'guarded'
      ? inPairOrder(mask, edges.length)
      : method === 'minhash'
        ? edges
        : bySimilarity(p, mask, index);
  let clusters = clustersOf(a.n, p, ordered, mode, true);
  let decidedOut: ClusterView['links'];
  let accepted = edges.length;
  if (decided) {
    // A cannot-linked pair is not accepted, whatever its scores (after the clustering: the clusters
    // it does not touch stay as they were; overrides.ts splits the ones it does).
    for (const [x, y] of links.cannot) {
      const k = findPair(p, Math.min(x, y), Math.max(x, y));
      if (k !== null && mask[k] === 1) {
        mask[k] = 0;
        accepted--;
      }
    }
    const r = applyLinks(clusters, links, (members) => pairsAmong(p, mask, members), mode === 'star');
    clusters = r.changed > 0 ? sortBySize(r.clusters) : clusters;
    decidedOut = { conflicts: r.conflicts, changed: r.changed };
  }
  let pages = 0;
  for (const c of clusters) pages += c.members.length;
  return { clusters, mask, accepted, pages, ...(decidedOut ? { links: decidedOut } : {}) };
}

/** The accepted pairs among a cluster's members, in pair order, with their exact Jaccard. */
function pairsAmong(p: PairTable, mask: Uint8Array, members: readonly number[]): LinkPair[] {
  const out: LinkPair[] = [];
  const sorted = [...members].sort((x, y) => x - y);
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length; j++) {
      const k = findPair(p, sorted[i], sorted[j]);
      if (k !== null && mask[k] === 1) out.push({ a: sorted[i], b: sorted[j], similarity: p.jaccard[k] });
    }
  return out;
}

/** The accepted pairs ascending; branch-free (about half the pairs pass: a branch would mispredict). */
function inPairOrder(mask: Uint8Array, accepted: number): Uint32Array {
  const out = scratchUint32('view.inPairOrder', accepted + 1, false);
  let n = 0;
  for (let k = 0; k < mask.length; k++) {
    out[n] = k;
    n += mask[k];
  }
  return out.subarray(0, accepted);
}

/** The accepted pairs (mask) by exact Jaccard descending, ties by index: one pass over a sorted order. */
function bySimilarity(p: PairTable, mask: Uint8Array, index: ClusterIndex): Uint32Array {
  const all = (index.similarity ??= sortedBy(
    p.jaccard,
    acceptedList(p.count, () => true),
    true,
  ));
  const out = new Uint32Array(all.length);
  let n = 0;
  for (let i = 0; i < all.length; i++) if (mask[all[i]] === 1) out[n++] = all[i];
  return out.subarray(0, n);
}

/** `bySimilarity`: edges are in the chain guard's order already (the other modes take any order). */
function clustersOf(
  n: number,
  p: PairTable,
  edges: Uint32Array,
  mode: ClusterMode,
  bySimilarity: boolean,
): Cluster[] {
  const clusters =
    mode === 'star'
      ? starsOf(n, p.a, p.b, edges)
      : mode === 'guarded'
        ? guardedOf(
            n,
            p.a,
            p.b,
            bySimilarity ? edges : sortedBy(p.jaccard, edges, true),
            p.jaccard,
            CHAIN_FLOOR,
            (i, j) => findPair(p, i, j),
          )
        : componentsOf(n, p.a, p.b, edges);
  return sortBySize(clusters);
}

/** The clustering the workbench opens on (see DEFAULT_METHOD for the measurement behind both). */
export const DEFAULT_CLUSTERING: ClusterMode = 'star';
