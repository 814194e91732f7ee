import * as d3 from 'd3';
import type { Figure1Curve } from '../../core/eval/figure1';
import type { CurvePoint } from '../../core/eval/curves';

const COLORS = ['#1f6feb', '#8250df', '#bf3989', '#1a7f37', '#9a6700'];

export function curveLabel(c: Figure1Curve): string {
  if (c.label) return c.label;
  return c.vary === 'C' ? `D = ${c.fixed.toFixed(3)}, C varies` : 'C = 1 (RP only), D varies';
}

/**
 * Precision (y) against recall (x), one line per curve, break-even points as rings, the current
 * operating point as a filled dot. Points carry their thresholds as tooltips; clicking one calls
 * `onPick(curve, point)`. Data in, SVG out.
 */
export function drawPrCurves(
  svg: SVGSVGElement,
  curves: readonly Figure1Curve[],
  current: CurvePoint,
  opts: { width: number; height: number; onPick(c: Figure1Curve, p: CurvePoint): void },
): void {
  const m = { top: 8, right: 8, bottom: 30, left: 38 };
  const w = opts.width - m.left - m.right;
  const h = opts.height - m.top - m.bottom;
  const root = d3
    .select(svg)
    .attr('width', opts.width)
    .attr('height', opts.height)
    .attr('xmlns', 'http://www.w3.org/2000/svg');
  root.selectAll('*').remove();
  const g = root.append('g').attr('transform', `translate(${m.left},${m.top})`);
  const x = d3.scaleLinear().domain([0, 1]).range([0, w]);
  const y = d3.scaleLinear().domain([0, 1]).range([h, 0]);
  g.append('g').attr('transform', `translate(0,${h})`).call(d3.axisBottom(x).ticks(5, '.0%'));
  g.append('g').call(d3.axisLeft(y).ticks(5, '.0%'));
  g.append('text')
    .attr('x', w / 2)
    .attr('y', h + 26)
    .attr('text-anchor', 'middle')
    .attr('font-size', 10)
    .attr('fill', '#66707a')
    .text('recall');
  g.append('text')
    .attr('transform', 'rotate(-90)')
    .attr('x', -h / 2)
    .attr('y', -30)
    .attr('text-anchor', 'middle')
    .attr('font-size', 10)
    .attr('fill', '#66707a')
    .text('precision');
  // Break-even diagonal.
  g.append('line')
    .attr('x1', x(0))
    .attr('y1', y(0))
    .attr('x2', x(1))
    .attr('y2', y(1))
    .attr('stroke', '#dde1e4')
    .attr('stroke-dasharray', '3 3');
  curves.forEach((c, i) => {
    const color = COLORS[i % COLORS.length];
    const line = d3
      .line<CurvePoint>()
      .x((p) => x(p.recall))
      .y((p) => y(p.precision));
    g.append('path')
      .datum(c.points)
      .attr('fill', 'none')
      .attr('stroke', color)
      .attr('stroke-width', 1.5)
      .attr('d', line)
      .attr('data-curve', i);
    g.selectAll(null)
      .data(c.points)
      .join('circle')
      .attr('cx', (p) => x(p.recall))
      .attr('cy', (p) => y(p.precision))
      .attr('r', 3)
      .attr('fill', 'transparent')
      .style('cursor', 'pointer')
      .on('click', (_e, p) => opts.onPick(c, p))
      .append('title')
      .text(
        (p) =>
          `${c.vary === 'method' ? `${curveLabel(c)} at ${p.threshold.toFixed(3)}` : c.vary === 'C' ? `C = ${p.threshold.toFixed(3)}, D = ${c.fixed.toFixed(3)}` : `C = 1, D = ${p.threshold.toFixed(3)}`}: precision ${(100 * p.precision).toFixed(1)}%, recall ${(100 * p.recall).toFixed(1)}%`,
      );
    if (c.breakEven)
      g.append('circle')
        .attr('cx', x(c.breakEven.recall))
        .attr('cy', y(c.breakEven.precision))
        .attr('r', 5)
        .attr('fill', 'none')
        .attr('stroke', color)
        .attr('stroke-width', 1.5)
        .append('title')
        .text(`break-even ${(100 * c.breakEven.value).toFixed(1)}% (${curveLabel(c)})`);
  });
  g.append('circle')
    .attr('class', 'operating-point')
    .attr('cx', x(current.recall))
    .attr('cy', y(current.precision))
    .attr('r', 5)
    .attr('fill', '#d1242f')
    .append('title')
    .text(
      `current thresholds: precision ${(100 * current.precision).toFixed(1)}%, recall ${(100 * current.recall).toFixed(1)}%`,
    );
}

export const CURVE_COLORS = COLORS;
