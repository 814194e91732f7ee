import * as d3 from 'd3';
import { chartColors } from './frame';

/**
 * A cluster as a small graph (as Splink's cluster studio draws a linked cluster): pages as nodes, the
 * pairs the method accepted as edges whose thickness and opacity follow their similarity, so a chain
 * (two dense groups held by one thin edge) is visible at a glance. Data in, SVG out: the layout is a
 * pure function of the data (d3-force run to rest from its deterministic initial placement), drawing
 * reads the layout and the active edge.
 */
export interface GraphNode {
  id: number;
  /** Short label (a path); `title` holds the full URL. */
  label: string;
  title: string;
  centre?: boolean;
}

export interface GraphEdge {
  source: number;
  target: number;
  /** Similarity in [0, 1] (exact Jaccard). */
  weight: number;
  title: string;
}

export interface GraphLayout {
  width: number;
  height: number;
  nodes: (GraphNode & { x: number; y: number })[];
  edges: GraphEdge[];
}

export function layoutClusterGraph(
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  size: { width: number; height: number },
): GraphLayout {
  type SimNode = GraphNode & d3.SimulationNodeDatum;
  const sim: SimNode[] = nodes.map((n) => ({ ...n }));
  const byId = new Map(sim.map((n) => [n.id, n]));
  const links = edges
    .filter((e) => byId.has(e.source) && byId.has(e.target))
    .map((e) => ({ source: byId.get(e.source)!, target: byId.get(e.target)!, weight: e.weight }));
  const simulation = d3
    .forceSimulation(sim)
    .force(
      'link',
      d3
        .forceLink<SimNode, (typeof links)[number]>(links)
        // More similar pages sit closer.
        .distance((l) => 30 + 60 * (1 - l.weight)),
    )
    .force('charge', d3.forceManyBody().strength(-120))
    .force('center', d3.forceCenter(0, 0))
    .stop();
  simulation.tick(200);
  // Fit into the box, leaving room for the labels.
  const pad = 40;
  const xs = d3.extent(sim, (n) => n.x ?? 0) as [number, number];
  const ys = d3.extent(sim, (n) => n.y ?? 0) as [number, number];
  const span = Math.max(xs[1] - xs[0], ys[1] - ys[0], 1);
  const scale = Math.min((size.width - 2 * pad) / span, (size.height - 2 * pad) / span, 2);
  const cx = (xs[0] + xs[1]) / 2;
  const cy = (ys[0] + ys[1]) / 2;
  return {
    ...size,
    nodes: sim.map((n) => ({
      id: n.id,
      label: n.label,
      title: n.title,
      centre: n.centre,
      x: size.width / 2 + ((n.x ?? 0) - cx) * scale,
      y: size.height / 2 + ((n.y ?? 0) - cy) * scale,
    })),
    edges: edges.filter((e) => byId.has(e.source) && byId.has(e.target)),
  };
}

/** Draws the layout; `active` is the edge the keyboard is on, `onEdge` opens an edge's pair. */
export function drawClusterGraph(
  svg: SVGSVGElement,
  layout: GraphLayout,
  opts: { active: number; onEdge: (index: number) => void; idPrefix: string },
): void {
  const colors = chartColors(svg);
  const root = d3
    .select(svg)
    .attr('width', layout.width)
    .attr('height', layout.height)
    .attr('viewBox', `0 0 ${layout.width} ${layout.height}`);
  root.selectAll('*').remove();
  const pos = new Map(layout.nodes.map((n) => [n.id, n]));
  const edge = root
    .append('g')
    .attr('class', 'edges')
    .selectAll<SVGGElement, GraphEdge>('g')
    .data(layout.edges)
    .join('g')
    .attr('class', (_, i) => (i === opts.active ? 'edge active' : 'edge'))
    .attr('id', (_, i) => `${opts.idPrefix}-${i}`)
    .attr('role', 'option')
    .attr('aria-selected', (_, i) => (i === opts.active ? 'true' : 'false'))
    .attr('aria-label', (e) => e.title)
    .on('click', (_, e) => opts.onEdge(layout.edges.indexOf(e)));
  const line = (sel: d3.Selection<SVGGElement, GraphEdge, SVGGElement, unknown>, cls: string) =>
    sel
      .append('line')
      .attr('class', cls)
      .attr('x1', (e) => pos.get(e.source)!.x)
      .attr('y1', (e) => pos.get(e.source)!.y)
      .attr('x2', (e) => pos.get(e.target)!.x)
      .attr('y2', (e) => pos.get(e.target)!.y);
  // A wide transparent line under each edge makes thin (weak) edges easy to click.
  line(edge, 'hit').attr('stroke', 'transparent').attr('stroke-width', 10);
  line(edge, 'link')
    .attr('stroke', (_, i) => (i === opts.active ? colors.point : colors.accent))
    .attr('stroke-width', (e) => 0.5 + 4 * e.weight ** 2)
    .attr('stroke-opacity', (e) => 0.25 + 0.75 * e.weight);
  edge.append('title').text((e) => e.title);

  const node = root
    .append('g')
    .attr('class', 'nodes')
    .selectAll<SVGGElement, GraphLayout['nodes'][number]>('g')
    .data(layout.nodes)
    .join('g')
    .attr('transform', (n) => `translate(${n.x},${n.y})`);
  node
    .append('circle')
    .attr('r', (n) => (n.centre ? 7 : 5))
    .attr('fill', (n) => (n.centre ? colors.point : colors.series[0]))
    .attr('stroke', '#fff');
  node
    .append('text')
    .attr('x', 8)
    .attr('y', 3)
    .attr('font-size', 10)
    .attr('fill', colors.muted)
    .text((n) => n.label);
  node.append('title').text((n) => n.title);
}

/**
 * A short label for a URL: the host's first label (a mirror and its origin differ there) and the last
 * two path segments with the query, e.g. `mirror:…/guide/index.html`.
 */
export function shortPath(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname.split('.')[0] === 'www' ? u.hostname.split('.')[1] : u.hostname.split('.')[0];
    const parts = u.pathname.split('/').filter(Boolean);
    const tail = parts.slice(-2).join('/') + (u.pathname.endsWith('/') && parts.length ? '/' : '');
    const s = `${host}:${tail ? `…/${tail}` : '/'}${u.search}`;
    return s.length > 32 ? `${s.slice(0, 31)}…` : s;
  } catch {
    return url.slice(0, 28);
  }
}
