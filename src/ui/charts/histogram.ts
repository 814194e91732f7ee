import * as d3 from 'd3';

/** Bar chart of counts per integer bucket (data in, SVG out; no hidden state). */
export function drawHistogram(
  svg: SVGSVGElement,
  data: { x: number; count: number }[],
  opts: { width: number; height: number; xLabel: string },
): void {
  const m = { top: 6, right: 6, bottom: 28, left: 34 };
  const w = opts.width - m.left - m.right;
  const h = opts.height - m.top - m.bottom;
  const root = d3.select(svg).attr('width', opts.width).attr('height', opts.height);
  root.selectAll('*').remove();
  const g = root.append('g').attr('transform', `translate(${m.left},${m.top})`);
  const x = d3
    .scaleBand<number>()
    .domain(data.map((d) => d.x))
    .range([0, w])
    .padding(0.15);
  const y = d3
    .scaleLinear()
    .domain([0, d3.max(data, (d) => d.count) ?? 1])
    .nice()
    .range([h, 0]);
  g.append('g')
    .attr('transform', `translate(0,${h})`)
    .call(
      d3
        .axisBottom(x)
        .tickValues(
          x.domain().filter((_, i, all) => all.length < 12 || i % Math.ceil(all.length / 10) === 0),
        ),
    );
  g.append('g').call(d3.axisLeft(y).ticks(4, 'd'));
  g.selectAll('rect')
    .data(data)
    .join('rect')
    .attr('x', (d) => x(d.x) ?? 0)
    .attr('y', (d) => y(d.count))
    .attr('width', x.bandwidth())
    .attr('height', (d) => h - y(d.count))
    .attr('fill', '#1f6feb')
    .append('title')
    .text((d) => `${d.count} cluster${d.count === 1 ? '' : 's'} of ${d.x} pages`);
  root
    .append('text')
    .attr('x', m.left + w / 2)
    .attr('y', opts.height - 2)
    .attr('text-anchor', 'middle')
    .attr('font-size', 10)
    .attr('fill', '#66707a')
    .text(opts.xLabel);
}
