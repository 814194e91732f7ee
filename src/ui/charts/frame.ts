import * as d3 from 'd3';

/**
 * The one frame every chart starts from (as Observable Plot's marks share one set of defaults): the SVG
 * sized and cleared, a plot group inside shared margins, axes and axis titles in one style, and colours
 * read from the page's CSS variables so the charts follow the stylesheet. Data in, SVG out: a chart calls
 * `frame()` and draws its marks into `plot` with its own scales built on `[0, w]` × `[h, 0]`.
 */
export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** Room for the tick labels (percentages, counts) on the left, half of "100%" on the right, the axis title below. */
export const MARGIN: Margin = { top: 8, right: 16, bottom: 30, left: 40 };

export interface ChartColors {
  /** One colour per series, in order. */
  series: string[];
  /** The current operating point and other emphasis. */
  accent: string;
  /** Axis titles and secondary text. */
  muted: string;
  /** Reference lines (the precision = recall diagonal). */
  grid: string;
  /** The operating point. */
  point: string;
  /** Behind text drawn over the plot (tooltips). */
  background: string;
}

/** Fallbacks are the stylesheet's own values, for an SVG outside the page (jsdom, an exported file). */
const FALLBACK = {
  series: ['#1f6feb', '#8250df', '#bf3989', '#1a7f37', '#9a6700'],
  accent: '#1f6feb',
  muted: '#66707a',
  grid: '#dde1e4',
  point: '#d1242f',
  background: '#fff',
};

/** Series i's colour as CSS, for legends drawn in HTML beside a chart (the same colour the chart reads). */
export function seriesColor(i: number): string {
  const n = FALLBACK.series.length;
  return `var(--series-${(i % n) + 1}, ${FALLBACK.series[i % n]})`;
}

/** Chart colours from CSS variables (`--series-1` … `--series-5`, `--accent`, `--muted`, `--line`, `--bad`). */
export function chartColors(el: Element): ChartColors {
  const view = el.ownerDocument?.defaultView;
  const style = view && el.isConnected ? view.getComputedStyle(el) : null;
  const read = (name: string, fallback: string) => style?.getPropertyValue(name).trim() || fallback;
  return {
    series: FALLBACK.series.map((c, i) => read(`--series-${i + 1}`, c)),
    accent: read('--accent', FALLBACK.accent),
    muted: read('--muted', FALLBACK.muted),
    grid: read('--line', FALLBACK.grid),
    point: read('--bad', FALLBACK.point),
    background: read('--panel', FALLBACK.background),
  };
}

export interface Frame {
  root: d3.Selection<SVGSVGElement, unknown, null, undefined>;
  /** The plot area: (0, 0) is its top-left corner, (w, h) its bottom-right. */
  plot: d3.Selection<SVGGElement, unknown, null, undefined>;
  w: number;
  h: number;
  margin: Margin;
  colors: ChartColors;
}

/** Sizes and clears the SVG and opens the plot area inside the shared margins. */
export function frame(
  svg: SVGSVGElement,
  opts: { width: number; height: number; margin?: Partial<Margin> },
): Frame {
  const margin = { ...MARGIN, ...opts.margin };
  const root = d3
    .select(svg)
    .attr('width', opts.width)
    .attr('height', opts.height)
    .attr('viewBox', `0 0 ${opts.width} ${opts.height}`)
    // Exported SVG files need the namespace on the root element.
    .attr('xmlns', 'http://www.w3.org/2000/svg');
  root.selectAll('*').remove();
  const plot = root
    .append('g')
    .attr('class', 'plot')
    .attr('transform', `translate(${margin.left},${margin.top})`);
  return {
    root,
    plot,
    w: Math.max(1, opts.width - margin.left - margin.right),
    h: Math.max(1, opts.height - margin.top - margin.bottom),
    margin,
    colors: chartColors(svg),
  };
}

/** The x axis along the bottom of the plot area, with an optional title centred below it. */
export function xAxis<D extends d3.AxisDomain>(f: Frame, axis: d3.Axis<D>, title?: string): void {
  f.plot.append('g').attr('class', 'axis x').attr('transform', `translate(0,${f.h})`).call(axis);
  if (title)
    f.plot
      .append('text')
      .attr('class', 'axis-title')
      .attr('x', f.w / 2)
      .attr('y', f.h + f.margin.bottom - 3)
      .attr('text-anchor', 'middle')
      .attr('font-size', 10)
      // As d3's tick labels: a family named, for an exported file (the page's CSS wins on screen).
      .attr('font-family', 'sans-serif')
      .attr('fill', f.colors.muted)
      .text(title);
}

/** The y axis along the left of the plot area, with an optional title turned along it. */
export function yAxis<D extends d3.AxisDomain>(f: Frame, axis: d3.Axis<D>, title?: string): void {
  f.plot.append('g').attr('class', 'axis y').call(axis);
  if (title)
    f.plot
      .append('text')
      .attr('class', 'axis-title')
      .attr('transform', 'rotate(-90)')
      .attr('x', -f.h / 2)
      .attr('y', -f.margin.left + 10)
      .attr('text-anchor', 'middle')
      .attr('font-size', 10)
      // As d3's tick labels: a family named, for an exported file (the page's CSS wins on screen).
      .attr('font-family', 'sans-serif')
      .attr('fill', f.colors.muted)
      .text(title);
}

/** A linear scale over the plot's width (x) or height (y, upwards). */
export function linearX(f: Frame, domain: [number, number]): d3.ScaleLinear<number, number> {
  return d3.scaleLinear().domain(domain).range([0, f.w]);
}

export function linearY(f: Frame, domain: [number, number]): d3.ScaleLinear<number, number> {
  return d3.scaleLinear().domain(domain).range([f.h, 0]);
}

/** A tick count for a y axis of height h: about one tick per 30 px, at least two. */
export function yTicks(f: Frame): number {
  return Math.max(2, Math.floor(f.h / 30));
}

/** Whole ticks only: d3's "nice" ticks on a short integer domain are fractions (1, 1.2, …). */
export function integerTicks(scale: d3.ScaleLinear<number, number>, count = 5): number[] {
  return scale.ticks(count).filter((v) => Number.isInteger(v));
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * A drawn chart as a standalone SVG file: the chart with its legend (one swatch and label per series, in
 * the series' colours) and a line saying what it shows drawn below the plot, since an exported file has
 * no page around it to carry them. The chart on screen is left as it is.
 */
export function svgWithLegend(
  svg: SVGSVGElement,
  entries: readonly { label: string }[],
  note?: string,
): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.querySelectorAll('.tooltip, .hover-area').forEach((e) => e.remove());
  const colors = chartColors(svg);
  const width = Number(svg.getAttribute('width')) || 300;
  const height = Number(svg.getAttribute('height')) || 200;
  const row = 14;
  const lines = entries.length + (note ? 1 : 0);
  const total = height + 6 + row * lines;
  copy.setAttribute('height', String(total));
  copy.setAttribute('viewBox', `0 0 ${width} ${total}`);
  const el = (name: string, attrs: Record<string, string | number>) => {
    const e = svg.ownerDocument.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };
  // The page's font is not in the file: the legend names a family, as d3's axes do.
  const legend = el('g', {
    class: 'legend',
    transform: `translate(${MARGIN.left},${height + 6})`,
    'font-family': 'sans-serif',
  });
  entries.forEach((entry, i) => {
    const y = i * row;
    legend.append(
      el('rect', {
        x: 0,
        y: y + 1,
        width: 10,
        height: 10,
        rx: 2,
        fill: colors.series[i % colors.series.length],
      }),
    );
    const text = el('text', { x: 14, y: y + 10, 'font-size': 10, fill: colors.muted });
    text.textContent = entry.label;
    legend.append(text);
  });
  if (note) {
    const text = el('text', { x: 0, y: entries.length * row + 10, 'font-size': 10, fill: colors.muted });
    text.textContent = note;
    legend.append(text);
  }
  copy.append(legend);
  return new XMLSerializer().serializeToString(copy);
}
