import * as d3 from 'd3';

/** precision@k line (DustBuster Fig. 5): data in, SVG out. */
export function drawPrecisionAtK(
  svg: SVGSVGElement,
  precision: readonly number[],
  opts: { width: number; height: number },
): void {
  const m = { top: 6, right: 8, bottom: 26, left: 34 };
  const w = opts.width - m.left - m.right;
  const h = opts.height - m.top - m.bottom;
  const root = d3.select(svg).attr('width', opts.width).attr('height', opts.height);
  root.selectAll('*').remove();
  const g = root.append('g').attr('transform', `translate(${m.left},${m.top})`);
  const x = d3
    .scaleLinear()
    .domain([1, Math.max(2, precision.length)])
    .range([0, w]);
  const y = d3.scaleLinear().domain([0, 1]).range([h, 0]);
  // Whole k only: d3's "nice" ticks on a short domain are fractions (1, 1.2, …) that 'd' prints twice.
  const kTicks = x.ticks(5).filter((k) => Number.isInteger(k));
  g.append('g')
    .attr('transform', `translate(0,${h})`)
    .call(d3.axisBottom(x).tickValues(kTicks).tickFormat(d3.format('d')));
  g.append('g').call(d3.axisLeft(y).ticks(4, '.0%'));
  g.append('path')
    .datum(precision.map((p, i) => [i + 1, p] as [number, number]))
    .attr('fill', 'none')
    .attr('stroke', '#1f6feb')
    .attr('stroke-width', 1.5)
    .attr('d', d3.line());
  root
    .append('text')
    .attr('x', m.left + w / 2)
    .attr('y', opts.height - 2)
    .attr('text-anchor', 'middle')
    .attr('font-size', 10)
    .attr('fill', '#66707a')
    .text('top k rules');
}
