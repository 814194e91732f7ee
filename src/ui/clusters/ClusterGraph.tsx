import { useEffect, useMemo, useRef, useState } from 'react';
import type { Cluster } from '../../core/clusters/clusters';
import type { ClusterInspection } from '../../core/clusters/inspect';
import type { StoredAnalysis } from '../../db/schema';
import { distinguishing } from '../../core/url/distinguish';
import { drawClusterGraph, layoutClusterGraph, type GraphEdge } from '../charts/cluster-graph';
import { escapeBidi } from '../format';
import { useElementWidth } from '../useElementWidth';
import { useListKeys } from '../useListKeys';

/** The graph shows at most this many members (centre first); more would be a hairball. */
export const GRAPH_MEMBERS = 60;

/**
 * The cluster as a graph of its accepted pairs, one keyboard stop: ←/→ walk the edges from the most
 * similar to the least, Enter opens that pair side by side; a click on an edge does the same.
 */
export function ClusterGraph({
  analysis,
  cluster,
  inspection,
  urlOf,
  onPair,
}: {
  analysis: StoredAnalysis;
  cluster: Cluster;
  inspection: ClusterInspection;
  urlOf: (i: number) => string;
  onPair: (i: number, j: number) => void;
}) {
  const p = analysis.pairs;
  // The graph takes its pane's width (an enlarged pane, a wide window: more room for the labels).
  const [figure, paneWidth] = useElementWidth<HTMLElement>();
  const width = paneWidth > 0 ? Math.max(280, paneWidth) : 420;
  // Room by the number of members drawn: two pages need a strip, sixty a tall picture.
  const drawn = Math.min(GRAPH_MEMBERS, cluster.members.length);
  const height = Math.round(Math.min(480, width * 0.55, Math.max(150, 110 + 18 * drawn)));
  const { layout, shownMembers } = useMemo(() => {
    const rest = cluster.members.filter((m) => m !== cluster.centre);
    const members = (cluster.centre >= 0 ? [cluster.centre, ...rest] : rest).slice(0, GRAPH_MEMBERS);
    const inGraph = new Set(members);
    const edges: GraphEdge[] = inspection.edges
      .filter((k) => inGraph.has(p.a[k]) && inGraph.has(p.b[k]))
      .sort((x, y) => p.jaccard[y] - p.jaccard[x])
      .map((k) => ({
        source: p.a[k],
        target: p.b[k],
        weight: p.jaccard[k],
        title: `Jaccard ${p.jaccard[k].toFixed(3)}: ${escapeBidi(urlOf(p.a[k]))} — ${escapeBidi(urlOf(p.b[k]))}`,
      }));
    // Each node labelled by what tells its URL from the others' (core/url/distinguish.ts): an origin
    // all share left out (the members' table names it), never the part where they differ cut away.
    const apart = distinguishing(members.map((m) => urlOf(m)));
    const nodes = members.map((m, i) => ({
      id: m,
      label: escapeBidi(apart.shown[i]),
      title: escapeBidi(urlOf(m)),
      centre: m === cluster.centre,
    }));
    return {
      layout: layoutClusterGraph(nodes, edges, { width, height }),
      shownMembers: members.length,
    };
  }, [cluster, inspection, p, urlOf, width, height]);
  const [active, setActive] = useState(-1);
  const svg = useRef<SVGSVGElement>(null);
  const open = (i: number) => {
    const e = layout.edges[i];
    if (e) onPair(e.source, e.target);
  };
  const onKeyDown = useListKeys(layout.edges.length, active, setActive, open, { horizontal: true });
  useEffect(() => {
    if (!svg.current) return;
    drawClusterGraph(svg.current, layout, {
      active,
      idPrefix: 'cluster-edge',
      onEdge: (i) => {
        setActive(i);
        open(i);
      },
    });
  });
  return (
    <figure className="cluster-graph" ref={figure}>
      <svg
        ref={svg}
        role="listbox"
        tabIndex={0}
        aria-label={`Cluster graph: ${layout.edges.length} accepted pairs; left and right arrows choose one, Enter opens it`}
        aria-activedescendant={active >= 0 ? `cluster-edge-${active}` : undefined}
        onKeyDown={onKeyDown}
      />
      <figcaption className="meta">
        Pages and the pairs the method accepts; thicker, darker edges are more similar (exact Jaccard). Click
        an edge, or focus the graph and use ←/→ and Enter, to compare its two pages.
        {cluster.members.length > shownMembers &&
          ` The first ${shownMembers} of ${cluster.members.length} members are drawn.`}
      </figcaption>
    </figure>
  );
}
