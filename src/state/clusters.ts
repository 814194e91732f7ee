import { capturesByPage } from '../core/candidates/captures';
import type { MethodId, Thresholds } from '../core/candidates/methods';
import type { Cluster } from '../core/clusters/clusters';
import { inspectCluster, type ClusterInspection } from '../core/clusters/inspect';
import { findPair as findPairIn } from '../core/candidates/pair-index';
import {
  clusterView as buildView,
  newClusterIndex,
  type ClusterIndex,
  type ClusterMode,
  type ClusterView,
} from '../core/clusters/view';
import type { StoredAnalysis } from '../db/schema';
import type { Links } from '../core/clusters/overrides';
import type { ArchiveProgress, ArchiveRequest } from '../workers/archive-export-job';
import { startArchiveExportWorker } from '../workers/client';
import { runWorkerJob } from './jobs';
import type { Listing } from './selection';
import { memoByIdentity } from './selectors';

export type { ClusterView };

/**
 * The clusters for a method and thresholds, memoised on its inputs: the clusters pane, the cluster
 * detail and the PR pane ask for the same view on every slider move; it is computed once.
 */
export function shownClusters(
  a: StoredAnalysis,
  method: MethodId,
  t: Thresholds,
  mode: ClusterMode,
  /** The analyst's decisions (state/overrides.ts linksOf), honoured by the clustering. */
  links?: Links,
): ClusterView {
  const key = [a.datasetId, a.paramsKey, a.created, method, mode, JSON.stringify(t)].join('|');
  if (last && last.key === key && last.analysis === a && last.links === links) return last.view;
  let index = indexes.get(a.pairs);
  if (!index) indexes.set(a.pairs, (index = newClusterIndex()));
  const view = buildView(a, method, t, mode, index, links);
  last = { key, analysis: a, view, links };
  inspected = new WeakMap();
  return view;
}

/** Per pair table: each method's pairs sorted by its measure, so a slider move is a binary search. */
const indexes = new WeakMap<StoredAnalysis['pairs'], ClusterIndex>();
let last: { key: string; analysis: StoredAnalysis; view: ClusterView; links?: Links } | null = null;
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

/**
 * A cluster's id: the seq of the page it is known by — its centre (star clusters), else its first
 * member. Clusters have no id of their own (a slider move builds them anew); a selection is this page,
 * and stays on the cluster that holds it wherever the list re-sorts (src/state/selection.ts).
 */
export function clusterId(a: StoredAnalysis, c: Cluster): number {
  return a.seqs[c.centre >= 0 ? c.centre : c.members[0]];
}

/**
 * The clusters of a view as a list to select in: keys are their ids, and a selected page is on the
 * cluster that holds it (after a slider move the page a cluster was opened on may be a member of a
 * larger one: that is where the selection goes). Built once per view.
 */
export function clusterListing(a: StoredAnalysis, view: ClusterView): Listing<number> {
  let l = listings.get(view);
  if (!l) {
    const rowOfPage = new Int32Array(a.n).fill(-1);
    view.clusters.forEach((c, row) => {
      for (const m of c.members) rowOfPage[m] = row;
    });
    const index = pageIndex(a);
    l = {
      keys: view.clusters.map((c) => clusterId(a, c)),
      rowOf: (seq) => {
        const i = index.get(seq);
        return i === undefined ? -1 : rowOfPage[i];
      },
    };
    listings.set(view, l);
  }
  return l;
}

const listings = new WeakMap<ClusterView, Listing<number>>();

/**
 * Page seq → its index in the analysis (seqs are not dense: each file's pages are numbered from its own
 * base, by segment); another capture of a URL → the index of the page standing for that URL (captures.ts).
 */
const pageIndex = memoByIdentity((a: StoredAnalysis): ReadonlyMap<number, number> => {
  const m = new Map<number, number>();
  for (let i = 0; i < a.seqs.length; i++) m.set(a.seqs[i], i);
  const c = a.captures;
  if (c) for (let k = 0; k < c.of.length; k++) m.set(c.seqs[k], c.of[k]);
  return m;
});

/** Page index → the seqs of its URL's captures, its own first (pages captured more than once only). */
export const capturesOf = memoByIdentity((a: StoredAnalysis): Map<number, number[]> =>
  capturesByPage(a.seqs, a.captures),
);

/**
 * The deduplicated WARC or the CDXJ index of the clusters (ui/clusters/ArchiveExports.tsx), written in
 * its own worker from the WARC the analyst chose again: its result, and cancel.
 */
export function exportArchive(req: ArchiveRequest, onProgress: (p: ArchiveProgress) => void) {
  return runWorkerJob(startArchiveExportWorker, req, { onProgress });
}
