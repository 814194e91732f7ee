// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { drawHistogram } from '../../../src/ui/charts/histogram';
import { detachedSvg, plotArea, tickTexts } from './svg';

describe('histogram', () => {
  it('draws one bar per bucket inside the plot, heights proportional to counts', () => {
    const svg = detachedSvg();
    const data = [
      { x: 2, count: 10 },
      { x: 3, count: 5 },
      { x: 7, count: 1 },
    ];
    drawHistogram(svg, data, { width: 260, height: 90, xLabel: 'cluster size (pages)' });
    // Few buckets: 13 px above the plot for the bars' counts instead of the frame's 8.
    const area = { ...plotArea(260, 90), h: plotArea(260, 90).h - 5 };
    const bars = [...svg.querySelectorAll('g.plot rect')];
    expect(bars).toHaveLength(3);
    for (const b of bars) {
      const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((a) => Number(b.getAttribute(a)));
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x + w).toBeLessThanOrEqual(area.w + 1e-9);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y + h).toBeCloseTo(area.h, 6);
    }
    const heights = bars.map((b) => Number(b.getAttribute('height')));
    expect(heights[0] / heights[1]).toBeCloseTo(2, 6);
    expect(tickTexts(svg, 'x')).toEqual(['2', '3', '7']);
    expect(tickTexts(svg, 'y').length).toBeGreaterThan(1);
    expect(svg.textContent).toContain('cluster size (pages)');
    expect(bars[2].textContent).toBe('1 cluster of 7 pages');
  });

  it('draws no bar for a count of 0, also when every count is 0', () => {
    for (const data of [
      [
        { x: 2, count: 3 },
        { x: 3, count: 0 },
        { x: 4, count: 1 },
      ],
      [{ x: 2, count: 0 }],
    ]) {
      const svg = detachedSvg();
      drawHistogram(svg, data, { width: 260, height: 90, xLabel: 'cluster size (pages)' });
      const bars = [...svg.querySelectorAll('g.plot rect')];
      data.forEach((d, i) => {
        const h = Number(bars[i].getAttribute('height'));
        if (d.count === 0) expect(h).toBe(0);
        else expect(h).toBeGreaterThan(0);
      });
      // Whole counts on the y axis (no "0.5" written as "1").
      for (const t of tickTexts(svg, 'y')) expect(t).toMatch(/^\d+$/);
      expect(new Set(tickTexts(svg, 'y')).size).toBe(tickTexts(svg, 'y').length);
    }
  });

  it('counts over orders of magnitude: a log scale, every non-empty bucket a visible bar with its count', () => {
    const svg = detachedSvg();
    const data = [
      { x: 2, count: 150 },
      { x: 3, count: 12 },
      { x: 4, count: 0 },
      { x: 7, count: 1 },
      { x: 8, count: 1 },
    ];
    drawHistogram(svg, data, { width: 260, height: 90, xLabel: 'cluster size (pages)' });
    const bars = [...svg.querySelectorAll('g.plot rect')].map((b) => Number(b.getAttribute('height')));
    // On a linear scale a cluster of 8 pages is 1/150 of the tallest bar: under a pixel here.
    expect(bars[3]).toBeGreaterThan(4);
    expect(bars[4]).toBe(bars[3]);
    expect(bars[2]).toBe(0);
    expect(bars[0]).toBeGreaterThan(bars[1]);
    expect(bars[1]).toBeGreaterThan(bars[3]);
    expect(tickTexts(svg, 'y')).toEqual(['1', '10', '100']);
    expect([...svg.querySelectorAll('text.count')].map((t) => t.textContent)).toEqual([
      '150',
      '12',
      '1',
      '1',
    ]);
  });
});
