import * as d3 from 'd3';
import { frame, integerTicks, linearX, linearY, xAxis, yAxis, yTicks } from './frame';

/**
 * precision@k (DustBuster Fig. 5): precision of the k top-ranked rules against k = 1..K, on the chart
 * frame's scales (x = k, y = precision 0–100%). A single rule is a dot, not a line. Data in, SVG out.
 * `precision[k - 1]` is precision@k; NaN (no rule among the top k could be judged) leaves a gap.
 */
export function drawPrecisionAtK(
  svg: SVGSVGElement,
  precision: readonly number[],
  opts: { width: number; height: number },
): void {
  const f = frame(svg, opts);
  const K = precision.length;
  const x = linearX(f, [1, Math.max(2, K)]);
  const y = linearY(f, [0, 1]);
  xAxis(f, d3.axisBottom(x).tickValues(integerTicks(x)).tickFormat(d3.format('d')), 'top k rules');
  yAxis(f, d3.axisLeft(y).ticks(yTicks(f), '.0%'));
  const points = precision.map((p, i) => ({ k: i + 1, p }));
  const line = d3
    .line<{ k: number; p: number }>()
    .defined((d) => Number.isFinite(d.p))
    .x((d) => x(d.k))
    .y((d) => y(d.p));
  f.plot
    .append('path')
    .attr('class', 'series')
    .datum(points)
    .attr('fill', 'none')
    .attr('stroke', f.colors.series[0])
    .attr('stroke-width', 1.5)
    .attr('d', line);
  // Dots carry the value on hover, and keep a one-rule list visible.
  f.plot
    .selectAll('circle')
    .data(points.filter((d) => Number.isFinite(d.p)))
    .join('circle')
    .attr('cx', (d) => x(d.k))
    .attr('cy', (d) => y(d.p))
    .attr('r', K > 40 ? 1.5 : 2.5)
    .attr('fill', f.colors.series[0])
    .append('title')
    .text((d) => `precision@${d.k} = ${(100 * d.p).toFixed(1)}%`);
}
