import * as d3 from 'd3';
import type { CurvePoint } from '../../core/eval/curves';
import { f1 } from '../../core/eval/estimators';
import type { Figure1Curve } from '../../core/eval/figure1';
import { frame, linearX, linearY, xAxis, yAxis, type Frame } from './frame';

/** The ranges of a PR chart's axes: recall (x) and precision (y), each within [0, 1]. */
export interface PrDomain {
  recall: [number, number];
  precision: [number, number];
}

export const FULL_DOMAIN: PrDomain = { recall: [0, 1], precision: [0, 1] };
let clipIds = 0;

/**
 * The axes fitted to the curves and the operating point: each axis from a 5% step below its lowest
 * value to 100% (the curves of a good method sit near the top: on 0–100% they share its top fifth).
 * At least a 10% span, so a flat curve still has room.
 */
export function prDomain(curves: readonly Figure1Curve[], current: CurvePoint | null): PrDomain {
  let r = 1;
  let p = 1;
  const see = (q: CurvePoint) => {
    if (Number.isFinite(q.recall)) r = Math.min(r, q.recall);
    if (Number.isFinite(q.precision)) p = Math.min(p, q.precision);
  };
  for (const c of curves) c.points.forEach(see);
  if (current) see(current);
  const low = (v: number) => Math.max(0, Math.min(0.9, Math.floor((v - 0.01) * 20) / 20));
  return { recall: [low(r), 1], precision: [low(p), 1] };
}

export function curveLabel(c: Figure1Curve): string {
  if (c.label) return c.label;
  return c.vary === 'C' ? `D = ${c.fixed.toFixed(3)}, C varies` : 'C = 1 (RP only), D varies';
}

/** The threshold a point stands for, in the curve's own terms. */
export function pointLabel(c: Figure1Curve, p: CurvePoint): string {
  if (c.vary === 'method') return `${curveLabel(c)} at ${p.threshold.toFixed(3)}`;
  return c.vary === 'C'
    ? `C = ${p.threshold.toFixed(3)}, D = ${c.fixed.toFixed(3)}`
    : `C = 1, D = ${p.threshold.toFixed(3)}`;
}

/** Counts are whole with oracle truth and weighted (1/π) with labels. */
const count = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));
const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

/** The lines of a point's tooltip: where it is, precision, recall, F1 and the counts behind them. */
export function pointDetails(c: Figure1Curve, p: CurvePoint): string[] {
  return [
    pointLabel(c, p),
    `precision ${pct(p.precision)} · recall ${pct(p.recall)} · F1 ${pct(f1(p.precision, p.recall))}`,
    `TP ${count(p.tp)} · FP ${count(p.fp)} · FN ${count(p.fn)}`,
  ];
}

/**
 * Precision (y) against recall (x), one line per curve, break-even points as rings, the current
 * operating point as a filled dot (none when `current` is null: a 0/0 ratio is said in words, not
 * drawn). Hovering shows the nearest point's thresholds, F1 and TP/FP/FN (as Splink's threshold chart
 * does); clicking a point calls `onPick(curve, point)`. Data in, SVG out.
 */
export function drawPrCurves(
  svg: SVGSVGElement,
  curves: readonly Figure1Curve[],
  current: CurvePoint | null,
  opts: {
    width: number;
    height: number;
    onPick(c: Figure1Curve, p: CurvePoint): void;
    /** The axes' ranges (recall, precision); 0–100% each when not given. prDomain fits them to the data. */
    domain?: PrDomain;
  },
): void {
  const f = frame(svg, opts);
  const d = opts.domain ?? FULL_DOMAIN;
  const x = linearX(f, d.recall);
  const y = linearY(f, d.precision);
  xAxis(f, d3.axisBottom(x).ticks(5, '.0%'), 'recall');
  yAxis(f, d3.axisLeft(y).ticks(Math.max(2, Math.min(6, Math.floor(f.h / 40))), '.0%'), 'precision');
  // Marks outside a zoomed range are cut at the plot's edge, not drawn over the axes.
  const clip = `pr-clip-${(clipIds += 1)}`;
  f.root
    .append('defs')
    .append('clipPath')
    .attr('id', clip)
    .append('rect')
    .attr('x', -6)
    .attr('y', -6)
    .attr('width', f.w + 12)
    .attr('height', f.h + 12);
  const marks = f.plot.append('g').attr('class', 'marks').attr('clip-path', `url(#${clip})`);
  // Where precision = recall: the break-even points sit on this diagonal.
  marks
    .append('line')
    .attr('class', 'diagonal')
    .attr('x1', x(0))
    .attr('y1', y(0))
    .attr('x2', x(1))
    .attr('y2', y(1))
    .attr('stroke', f.colors.grid)
    .attr('stroke-dasharray', '3 3');
  const line = d3
    .line<CurvePoint>()
    .x((p) => x(p.recall))
    .y((p) => y(p.precision));
  curves.forEach((c, i) => {
    const color = f.colors.series[i % f.colors.series.length];
    marks
      .append('path')
      .datum(c.points)
      .attr('class', 'curve')
      .attr('fill', 'none')
      .attr('stroke', color)
      .attr('stroke-width', 1.5)
      .attr('d', line)
      .attr('data-curve', i);
    if (c.breakEven)
      marks
        .append('circle')
        .attr('class', 'break-even')
        .attr('cx', x(c.breakEven.recall))
        .attr('cy', y(c.breakEven.precision))
        .attr('r', 5)
        .attr('fill', 'none')
        .attr('stroke', color)
        .attr('stroke-width', 1.5)
        .append('title')
        .text(`break-even ${pct(c.breakEven.value)} (${curveLabel(c)})`);
  });
  if (current)
    marks
      .append('circle')
      .attr('class', 'operating-point')
      .attr('cx', x(current.recall))
      .attr('cy', y(current.precision))
      .attr('r', 5)
      .attr('fill', f.colors.point)
      .append('title')
      .text(`current thresholds: precision ${pct(current.precision)}, recall ${pct(current.recall)}`);

  // Hover and click: the nearest point of any curve within reach of the pointer.
  const all = curves.flatMap((c, i) =>
    c.points.map((p) => ({ c, i, p, px: x(p.recall), py: y(p.precision) })),
  );
  const tip = tooltip(f);
  const nearest = (e: MouseEvent) => {
    // Relative to the SVG, then into the plot: the same in a browser and in jsdom (which has no CTM).
    const [sx, sy] = d3.pointer(e, f.root.node());
    const [mx, my] = [sx - f.margin.left, sy - f.margin.top];
    let best: (typeof all)[number] | null = null;
    let bestD = 12 * 12;
    for (const q of all) {
      const d = (q.px - mx) ** 2 + (q.py - my) ** 2;
      if (d < bestD) [best, bestD] = [q, d];
    }
    return best;
  };
  f.plot
    .append('rect')
    .attr('class', 'hover-area')
    .attr('width', f.w)
    .attr('height', f.h)
    .attr('fill', 'transparent')
    .on('mousemove', (e: MouseEvent) => {
      const q = nearest(e);
      if (q) tip.show(q.px, q.py, pointDetails(q.c, q.p), f.colors.series[q.i % f.colors.series.length]);
      else tip.hide();
      (e.currentTarget as SVGRectElement).style.cursor = q && q.c.vary !== 'method' ? 'pointer' : 'default';
    })
    .on('mouseleave', () => tip.hide())
    .on('click', (e: MouseEvent) => {
      const q = nearest(e);
      if (q) opts.onPick(q.c, q.p);
    });
  tip.raise();
}

/** A text-only tooltip inside the SVG, kept within the plot area. */
function tooltip(f: Frame) {
  const g = f.plot
    .append('g')
    .attr('class', 'tooltip')
    .attr('pointer-events', 'none')
    .style('display', 'none');
  const ring = g.append('circle').attr('r', 4).attr('fill', 'none').attr('stroke-width', 2);
  const box = g.append('g');
  const rect = box
    .append('rect')
    .attr('rx', 3)
    .attr('fill', f.colors.background)
    .attr('stroke', f.colors.grid);
  const text = box.append('text').attr('font-size', 10).attr('fill', 'currentColor');
  return {
    raise: () => g.raise(),
    hide: () => g.style('display', 'none'),
    show(px: number, py: number, lines: string[], color: string) {
      g.style('display', null);
      ring.attr('cx', px).attr('cy', py).attr('stroke', color);
      text
        .selectAll('tspan')
        .data(lines)
        .join('tspan')
        .attr('x', 6)
        .attr('dy', 13)
        .text((l) => l);
      // jsdom has no layout: fall back to an estimate from the text length.
      const measured = (text.node() as SVGTextElement & { getBBox?: () => DOMRect }).getBBox?.();
      const width = (measured?.width || Math.max(...lines.map((l) => l.length)) * 5.6) + 12;
      const height = lines.length * 13 + 8;
      rect.attr('width', width).attr('height', height);
      // Beside the point, flipped to stay inside the plot.
      const bx = px + 10 + width > f.w ? Math.max(0, px - 10 - width) : px + 10;
      const by = Math.min(Math.max(0, py - height / 2), Math.max(0, f.h - height));
      box.attr('transform', `translate(${bx},${by})`);
    },
  };
}
