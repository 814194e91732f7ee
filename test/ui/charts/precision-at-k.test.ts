// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { drawPrecisionAtK } from '../../../src/ui/charts/precision-at-k';
import { detachedSvg, expectInside, pathPoints, plotArea, tickTexts } from './svg';

describe('precision@k chart', () => {
  it('draws precision against k to scale, inside the plot, with whole-k and percentage ticks', () => {
    const svg = detachedSvg();
    const precision = [1, 1, 2 / 3, 0.75, 0.6, 0.5, 4 / 7, 0.5];
    drawPrecisionAtK(svg, precision, { width: 260, height: 120 });
    const area = plotArea(260, 120);
    const pts = pathPoints(svg.querySelector('path.series')!.getAttribute('d'));
    expect(pts).toHaveLength(precision.length);
    expectInside(pts, area);
    // k = 1 at the left edge, k = K at the right; precision 1 at the top, and y grows as precision falls.
    expect(pts[0][0]).toBeCloseTo(0, 6);
    expect(pts[pts.length - 1][0]).toBeCloseTo(area.w, 6);
    expect(pts[0][1]).toBeCloseTo(0, 6);
    expect(pts[7][1]).toBeCloseTo(area.h / 2, 6);
    // Not the old unscaled stub (M1,1L2,1…): the line spans most of the plot.
    expect(pts[pts.length - 1][0] - pts[0][0]).toBeGreaterThan(area.w * 0.9);
    const xs = tickTexts(svg, 'x');
    expect(xs.length).toBeGreaterThan(1);
    for (const t of xs) expect(t).toMatch(/^\d+$/);
    expect(tickTexts(svg, 'y')).toContain('100%');
    expect(svg.textContent).toContain('top k rules');
  });

  it('leaves a gap where precision is unknown, and shows a single rule as a dot', () => {
    const svg = detachedSvg();
    drawPrecisionAtK(svg, [1, NaN, 0.5], { width: 200, height: 100 });
    expect(svg.querySelector('path.series')!.getAttribute('d')!.match(/M/g)).toHaveLength(2);
    expect(svg.querySelectorAll('circle')).toHaveLength(2);
    drawPrecisionAtK(svg, [1], { width: 200, height: 100 });
    expect(svg.querySelectorAll('circle')).toHaveLength(1);
    expect(svg.querySelectorAll('g.plot')).toHaveLength(1);
  });
});
