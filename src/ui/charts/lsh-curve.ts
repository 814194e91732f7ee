import * as d3 from 'd3';
import { lshProbability } from '../../core/clusters/compare-views';
import { frame, linearX, linearY, xAxis, yAxis } from './frame';

/**
 * LSH's S-curve for the stored bands (MMDS §3.4.2): the probability that a pair of a given Jaccard is
 * proposed as a candidate, with the thresholds compared marked (A dashed, B solid). Data in, SVG out.
 */
export function drawLshCurve(
  svg: SVGSVGElement,
  bands: { bands: number; rows: number },
  marks: { label: string; at: number }[],
  opts: { width: number; height: number },
): void {
  const f = frame(svg, opts);
  const x = linearX(f, [0, 1]);
  const y = linearY(f, [0, 1]);
  xAxis(f, d3.axisBottom(x).ticks(5, '.1f'), 'exact Jaccard of the pair');
  yAxis(f, d3.axisLeft(y).ticks(3, '.0%'), 'proposed');
  const points = d3
    .range(0, 1.0001, 0.01)
    .map((s) => [s, lshProbability(s, bands.bands, bands.rows)] as const);
  f.plot
    .append('path')
    .datum(points)
    .attr('class', 'lsh-curve')
    .attr('fill', 'none')
    .attr('stroke', f.colors.series[0])
    .attr('stroke-width', 1.5)
    .attr(
      'd',
      d3
        .line<readonly [number, number]>()
        .x((d) => x(d[0]))
        .y((d) => y(d[1])),
    );
  marks.forEach((m, i) => {
    const g = f.plot.append('g').attr('class', 'threshold-mark');
    g.append('line')
      .attr('x1', x(m.at))
      .attr('x2', x(m.at))
      .attr('y1', 0)
      .attr('y2', f.h)
      .attr('stroke', f.colors.point)
      .attr('stroke-dasharray', i === 0 && marks.length > 1 ? '3 3' : null);
    // Right of its line on the left half, left of it on the right half: inside the plot either way.
    const left = m.at > 0.5;
    g.append('text')
      .attr('x', x(m.at) + (left ? -3 : 3))
      .attr('text-anchor', left ? 'end' : 'start')
      .attr('y', 10 + 11 * i)
      .attr('font-size', 10)
      .attr('font-family', 'sans-serif')
      .attr('fill', f.colors.point)
      .text(
        `${m.label} ${m.at.toFixed(2)}: ${(100 * lshProbability(m.at, bands.bands, bands.rows)).toFixed(1)}%`,
      );
  });
}
