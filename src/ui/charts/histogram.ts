import * as d3 from 'd3';
import { frame, integerTicks, linearY, xAxis, yAxis, yTicks } from './frame';
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
  // At least [0, 1]: with every count 0, d3 maps a [0, 0] domain to the middle of the range, which
  // drew a bar half the plot's height for nothing.
  const y = linearY(f, [0, Math.max(1, d3.max(data, (d) => d.count) ?? 0)]).nice();
  xAxis(
    f,
    d3
      .axisBottom(x)
      .tickValues(x.domain().filter((_, i, all) => all.length < 12 || i % Math.ceil(all.length / 10) === 0)),
    opts.xLabel,
  );
  yAxis(
    f,
    d3
      .axisLeft(y)
      .tickValues(integerTicks(y, yTicks(f)))
      .tickFormat(d3.format('d')),
  );
  f.plot
    .selectAll('rect')
    .data(data)
    .join('rect')
    .attr('x', (d) => x(d.x) ?? 0)
    .attr('y', (d) => (d.count > 0 ? y(d.count) : f.h))
    .attr('width', x.bandwidth())
    // A bucket without clusters draws no bar (height 0), whatever the scale.
    .attr('height', (d) => (d.count > 0 ? f.h - y(d.count) : 0))
    .attr('data-count', (d) => d.count)
    .attr('fill', f.colors.series[0])
    .append('title')
    .text((d) => `${plural(d.count, 'cluster')} of ${d.x} pages`);
}
