import type { MethodId, Thresholds } from '../core/candidates/methods';
import type { Cluster } from '../core/clusters/clusters';
import { inspectCluster, type ClusterInspection } from '../core/clusters/inspect';
import { findPair as findPairIn } from '../core/clusters/pair-index';
import {
  clusterView as buildView,
  newClusterIndex,
  type ClusterIndex,
  type ClusterMode,
  type ClusterView,
} from '../core/clusters/view';
import type { StoredAnalysis } from '../db/schema';

export type { ClusterView };

/**
 * The clusters for a method and thresholds, memoised on its inputs: the clusters pane, the cluster
 * detail and the PR pane ask for the same view on every slider move; it is computed once.
 */
export function clusterView(
  a: StoredAnalysis,
  method: MethodId,
  t: Thresholds,
  mode: ClusterMode,
): ClusterView {
  const key = [a.datasetId, a.paramsKey, a.created, method, mode, JSON.stringify(t)].join('|');
  if (last && last.key === key && last.analysis === a) return last.view;
  let index = indexes.get(a.pairs);
  if (!index) indexes.set(a.pairs, (index = newClusterIndex()));
  const view = buildView(a, method, t, mode, index);
  last = { key, analysis: a, view };
  inspected = new WeakMap();
  return view;
}

/** Per pair table: each method's pairs sorted by its measure, so a slider move is a binary search. */
const indexes = new WeakMap<StoredAnalysis['pairs'], ClusterIndex>();
let last: { key: string; analysis: StoredAnalysis; view: ClusterView } | null = null;
/** Per cluster of the last view: its pair index and verdict, built once when the cluster is opened. */
let inspected = new WeakMap<Cluster, ClusterInspection>();

export function clusterInspection(a: StoredAnalysis, view: ClusterView, c: Cluster): ClusterInspection {
  let r = inspected.get(c);
  if (!r) inspected.set(c, (r = inspectCluster(a.pairs, c, view.mask)));
  return r;
}

/** The stored measures of pair (i, j), or null when it was never a candidate. */
export function findPair(a: StoredAnalysis, i: number, j: number): number | null {
  return findPairIn(a.pairs, i, j);
}
