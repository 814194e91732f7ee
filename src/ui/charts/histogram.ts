import * as d3 from 'd3';
import { frame, linearY, xAxis, yAxis, yTicks } from './frame';
import { plural } from '../format';

/** Bar chart of counts per integer bucket (data in, SVG out; no hidden state). */
export function drawHistogram(
  svg: SVGSVGElement,
  data: { x: number; count: number }[],
  opts: { width: number; height: number; xLabel: string },
): void {
  const f = frame(svg, opts);
  const x = d3
    .scaleBand<number>()
    .domain(data.map((d) => d.x))
    .range([0, f.w])
    .padding(0.15);
  const y = linearY(f, [0, d3.max(data, (d) => d.count) ?? 1]).nice();
  xAxis(
    f,
    d3
      .axisBottom(x)
      .tickValues(x.domain().filter((_, i, all) => all.length < 12 || i % Math.ceil(all.length / 10) === 0)),
    opts.xLabel,
  );
  yAxis(f, d3.axisLeft(y).ticks(yTicks(f), 'd'));
  f.plot
    .selectAll('rect')
    .data(data)
    .join('rect')
    .attr('x', (d) => x(d.x) ?? 0)
    .attr('y', (d) => y(d.count))
    .attr('width', x.bandwidth())
    .attr('height', (d) => f.h - y(d.count))
    .attr('fill', f.colors.series[0])
    .append('title')
    .text((d) => `${plural(d.count, 'cluster')} of ${d.x} pages`);
}
