import * as d3 from 'd3';
import { frame, integerTicks, linearY, xAxis, yAxis, yTicks } from './frame';
import { plural } from '../format';

/** Bar chart of counts per integer bucket (data in, SVG out; no hidden state). */
export function drawHistogram(
  svg: SVGSVGElement,
  data: { x: number; count: number }[],
  opts: { width: number; height: number; xLabel: string },
): void {
  // Room above the tallest bar for its count (drawn with few buckets, below).
  const f = frame(svg, { ...opts, margin: data.length <= 12 ? { top: 13 } : undefined });
  const x = d3
    .scaleBand<number>()
    .domain(data.map((d) => d.x))
    .range([0, f.w])
    .padding(0.15);
  const max = d3.max(data, (d) => d.count) ?? 0;
  const minPositive =
    d3.min(
      data.filter((d) => d.count > 0),
      (d) => d.count,
    ) ?? 0;
  // Counts over orders of magnitude (150 clusters of 2 pages, 1 of 8) on a log scale, so a bucket of
  // one cluster still has a bar; its base at ½ gives a count of 1 a visible height.
  const log = minPositive > 0 && max / minPositive >= 20;
  const y = log
    ? d3.scaleLog().domain([0.5, max]).range([f.h, 0])
    : // At least [0, 1]: with every count 0, d3 maps a [0, 0] domain to the middle of the range, which
      // drew a bar half the plot's height for nothing.
      linearY(f, [0, Math.max(1, max)]).nice();
  xAxis(
    f,
    d3
      .axisBottom(x)
      .tickValues(x.domain().filter((_, i, all) => all.length < 12 || i % Math.ceil(all.length / 10) === 0)),
    opts.xLabel,
  );
  const ticks = log
    ? y.ticks().filter((v) => v >= 1 && Number.isInteger(Math.log10(v)))
    : integerTicks(y as d3.ScaleLinear<number, number>, yTicks(f));
  yAxis(f, d3.axisLeft(y).tickValues(ticks).tickFormat(d3.format('d')), log ? 'log' : undefined);
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
  // With few buckets each bar says its count (a bar of 1 beside one of 150 is a sliver even on a log scale).
  if (data.length <= 12)
    f.plot
      .selectAll('text.count')
      .data(data.filter((d) => d.count > 0))
      .join('text')
      .attr('class', 'count')
      .attr('x', (d) => (x(d.x) ?? 0) + x.bandwidth() / 2)
      .attr('y', (d) => y(d.count) - 2)
      .attr('text-anchor', 'middle')
      .attr('font-size', 9)
      .attr('fill', f.colors.muted)
      .text((d) => d.count);
}
