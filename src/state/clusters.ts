import { acceptMask, type MethodId, type Thresholds } from '../core/candidates/methods';
import { connectedComponents, starClusters, type Cluster } from '../core/clusters/clusters';
import type { StoredAnalysis } from '../db/schema';
import type { ClusterMode } from './analysis';

export interface ClusterView {
  clusters: Cluster[];
  /** Accepted pairs under the current method and thresholds. */
  accepted: number;
  /** Pages in clusters. */
  pages: number;
  /** Accepted pair lookup (i < j packed) for marking transitive-only pairs. */
  passes(i: number, j: number): boolean;
}

/** Clusters for a method and thresholds: one pass over the stored pair columns (no signature work). */
export function clusterView(
  a: StoredAnalysis,
  method: MethodId,
  t: Thresholds,
  mode: ClusterMode,
): ClusterView {
  const key = [a.datasetId, a.paramsKey, a.created, method, mode, JSON.stringify(t)].join('|');
  if (last && last.key === key) return last.view;
  const p = a.pairs;
  const { mask: ok, accepted } = acceptMask(p, method, t);
  const f = (k: number) => ok[k] === 1;
  const clusters = (mode === 'star' ? starClusters : connectedComponents)(a.n, p.a, p.b, f);
  clusters.sort((x, y) => y.members.length - x.members.length || x.members[0] - y.members[0]);
  const view: ClusterView = {
    clusters,
    accepted,
    pages: clusters.reduce((s, c) => s + c.members.length, 0),
    passes: (i, j) => {
      const k = findPair(a, i, j);
      return k !== null && ok[k] === 1;
    },
  };
  last = { key, view };
  return view;
}

/** The last view computed: the clusters pane and the cluster detail ask for the same one per move. */
let last: { key: string; view: ClusterView } | null = null;

/** The stored measures of pair (i, j), or null when it was never a candidate. */
export function findPair(a: StoredAnalysis, i: number, j: number): number | null {
  const [x, y] = i < j ? [i, j] : [j, i];
  const p = a.pairs;
  let lo = 0;
  let hi = p.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (p.a[mid] < x || (p.a[mid] === x && p.b[mid] < y)) lo = mid + 1;
    else hi = mid;
  }
  return lo < p.count && p.a[lo] === x && p.b[lo] === y ? lo : null;
}
