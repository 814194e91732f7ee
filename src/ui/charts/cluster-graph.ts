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
  node.append('title').text((n) => n.title);
  placeLabels(root, layout, colors);
}

/** Font size of node labels (px), and a width per character where the text cannot be measured (jsdom). */
const LABEL_FONT = 10;
const CHAR_WIDTH = 6;
/** Shorter forms a label is tried in when its full form has no room (characters). */
const SHORTER = [24, 18];

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** A label in fewer characters, its site (`host:port`, before the first '/') kept whole. */
function shorter(label: string, max: number): string {
  const slash = label.indexOf('/');
  if (slash <= 0) return middle(label, max);
  return fitLabel(label.slice(0, slash), label.slice(slash), max);
}

/**
 * Node labels that fit the box and never cover each other: each is tried right of its node, left, below
 * and above, in its full form and then shorter (its site always whole); a label with room nowhere is left
 * out (the node's tooltip still names its URL). The centre is placed first, then the nodes in order.
 * Labels are measured where the browser lays text out, estimated elsewhere; a halo in the background
 * colour keeps them readable over the edges.
 */
function placeLabels(
  root: d3.Selection<SVGSVGElement, unknown, null, undefined>,
  layout: GraphLayout,
  colors: { muted: string; background: string },
): void {
  const g = root.append('g').attr('class', 'labels').attr('pointer-events', 'none');
  // Nodes are obstacles too (not a label's own node: it sits beside it).
  const placed: Box[] = layout.nodes.map((n) => {
    const r = n.centre ? 7 : 5;
    return { x0: n.x - r, y0: n.y - r, x1: n.x + r, y1: n.y + r };
  });
  // A shorter form is tried only where it still tells the node from every other (a label cut in its
  // middle could read like another's).
  const shortForms = SHORTER.map((m) =>
    layout.nodes.map((n) => (m < n.label.length ? shorter(n.label, m) : n.label)),
  );
  const unique = shortForms.map((forms) => {
    const count = new Map<string, number>();
    for (const f of forms) count.set(f, (count.get(f) ?? 0) + 1);
    return forms.map((f) => count.get(f) === 1);
  });
  const all = layout.nodes.map((_, i) => i);
  const order = [...all.filter((i) => layout.nodes[i].centre), ...all.filter((i) => !layout.nodes[i].centre)];
  for (const i of order) {
    const n = layout.nodes[i];
    const text = g
      .append('text')
      .attr('class', 'node-label')
      .attr('font-size', LABEL_FONT)
      .attr('fill', colors.muted)
      .attr('stroke', colors.background)
      .attr('stroke-width', 3)
      .attr('paint-order', 'stroke')
      .attr('stroke-linejoin', 'round');
    const node = text.node() as SVGTextElement & { getComputedTextLength?: () => number };
    const others = placed.filter((_, k) => k !== i);
    const forms = [
      n.label,
      ...SHORTER.flatMap((m, k) => (m < n.label.length && unique[k][i] ? [shortForms[k][i]] : [])),
    ];
    let chosen: { box: Box; x: number; y: number; anchor: string } | null = null;
    for (const form of forms) {
      text.text(form);
      const w = node.getComputedTextLength?.() || form.length * CHAR_WIDTH;
      const r = n.centre ? 7 : 5;
      const candidates = [
        { x: n.x + r + 3, y: n.y + 3.5, anchor: 'start', box: { x0: n.x + r + 3, x1: n.x + r + 3 + w } },
        { x: n.x - r - 3, y: n.y + 3.5, anchor: 'end', box: { x0: n.x - r - 3 - w, x1: n.x - r - 3 } },
        { x: n.x, y: n.y + r + LABEL_FONT + 1, anchor: 'middle', box: { x0: n.x - w / 2, x1: n.x + w / 2 } },
        { x: n.x, y: n.y - r - 3, anchor: 'middle', box: { x0: n.x - w / 2, x1: n.x + w / 2 } },
      ].map((c) => ({ ...c, box: { ...c.box, y0: c.y - LABEL_FONT + 1, y1: c.y + 3 } }));
      chosen =
        candidates.find(
          (c) =>
            c.box.x0 >= 1 &&
            c.box.x1 <= layout.width - 1 &&
            c.box.y0 >= 1 &&
            c.box.y1 <= layout.height - 1 &&
            !others.some((o) => overlaps(o, c.box)),
        ) ?? null;
      if (chosen) break;
    }
    if (!chosen) {
      text.remove();
      continue;
    }
    text.attr('x', chosen.x).attr('y', chosen.y).attr('text-anchor', chosen.anchor);
    placed.push(chosen.box);
  }
}

/** Characters of a node label before its middle gives way to "…" (about 190 px at 10 px). */
export const LABEL_CHARS = 34;

/** An IPv4 or IPv6 literal: its first label (`127`) names nothing. */
const IP_HOST = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/**
 * A short label for a URL: its site and the end of its path, cut in the middle when long, e.g.
 * `mirror/…/guide/index.html`. The site is the host's first label (a mirror and its origin differ there;
 * `www.` skipped), or the whole host when it is an IP address, always with its port: `127.0.0.1:28431` and
 * `127.0.0.1:28432` are two sites, so `host:port` is never cut. The path keeps its last two segments and
 * the query; beyond `max` characters its middle gives way to "…".
 */
export function shortPath(url: string, max = LABEL_CHARS): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return middle(url, max);
  }
  const labels = u.hostname.split('.');
  const name = IP_HOST.test(u.hostname)
    ? u.hostname
    : labels[0] === 'www' && labels.length > 2
      ? labels[1]
      : labels[0];
  const site = `${name}${u.port ? `:${u.port}` : ''}`;
  const parts = u.pathname.split('/').filter(Boolean);
  const tail = parts.slice(-2).join('/') + (u.pathname.endsWith('/') && parts.length ? '/' : '');
  const path = `${parts.length > 2 ? '/…/' : '/'}${tail}${u.search}`;
  return fitLabel(site, path, max);
}

/**
 * `site` + `path` in at most `max` characters: the path's middle gives way first, then the host's (its
 * port stays: the text after the last ':' of a host with a port).
 */
export function fitLabel(site: string, path: string, max: number): string {
  if (site.length + path.length <= max) return site + path;
  const room = max - site.length;
  // A path keeps more of its end (the file name, the query: where its pages differ) than its start.
  if (room >= 6) return site + middle(path, room, 1 / 3);
  const port = /:\d+$/.exec(site)?.[0] ?? '';
  const host = site.slice(0, site.length - port.length);
  return middle(host, Math.max(3, max - port.length - 2)) + port + (path === '/' ? '/' : '/…');
}

/** `s` in at most `max` characters, its middle replaced by "…" (`share` of what is kept taken from its start). */
function middle(s: string, max: number, share = 1 / 2): string {
  if (s.length <= max) return s;
  const head = Math.ceil((max - 1) * share);
  return `${s.slice(0, head)}…${s.slice(s.length - (max - 1 - head))}`;
}
