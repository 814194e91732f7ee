// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { breakEven, ThresholdCurve } from '../../../src/core/eval/curves';
import type { Figure1Curve } from '../../../src/core/eval/figure1';
import { drawPrCurves, pointDetails, prDomain } from '../../../src/ui/charts/pr-curves';
import { seededRandom } from '../../../src/core/random';
import { MARGIN } from '../../../src/ui/charts/frame';
import { detachedSvg, expectInside, pathPoints, plotArea, tickTexts } from './svg';

function curve(): Figure1Curve {
  // Scores 0.1..0.6; duplicates at 0.1, 0.2, 0.4, 0.5; one duplicate no pair represents.
  const c = new ThresholdCurve([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [1, 1, 0, 1, 1, 0], [0, 0, 1, 0, 0, 1], 1);
  const points = c.sample(0, 1, 10).filter((p) => p.threshold > 0);
  return { vary: 'D', method: 'rp-hm', fixed: 1, points, breakEven: breakEven(points) };
}

describe('precision–recall curves', () => {
  it('draws curves, break-even ring and operating point inside the plot, with percentage axes', () => {
    const svg = detachedSvg();
    const c = curve();
    drawPrCurves(svg, [c], c.points[3], { width: 300, height: 240, onPick: () => {} });
    const area = plotArea(300, 240);
    expectInside(pathPoints(svg.querySelector('path.curve')!.getAttribute('d')), area);
    const ring = svg.querySelector('circle.break-even')!;
    const dot = svg.querySelector('circle.operating-point')!;
    expectInside(
      [ring, dot].map((e) => [Number(e.getAttribute('cx')), Number(e.getAttribute('cy'))]),
      area,
    );
    // The break-even ring sits on the diagonal precision = recall: x and y mirror each other.
    expect(Number(ring.getAttribute('cx')) / area.w).toBeCloseTo(
      1 - Number(ring.getAttribute('cy')) / area.h,
      9,
    );
    expect(tickTexts(svg, 'x')).toContain('100%');
    expect(tickTexts(svg, 'y')).toContain('0%');
    expect(svg.textContent).toContain('recall');
    expect(svg.textContent).toContain('precision');
  });

  it('draws no ring for a curve without a break-even', () => {
    const svg = detachedSvg();
    const c = { ...curve(), breakEven: null };
    drawPrCurves(svg, [c], c.points[0], { width: 300, height: 240, onPick: () => {} });
    expect(svg.querySelector('circle.break-even')).toBeNull();
  });

  it('shows F1 and TP/FP/FN of the hovered point as text, and picks it on click', () => {
    const svg = detachedSvg();
    document.body.appendChild(svg);
    const c = curve();
    const onPick = vi.fn();
    drawPrCurves(svg, [c], c.points[0], { width: 300, height: 240, onPick });
    const p = c.points[4]; // threshold 0.5: 3 duplicates and 1 non-duplicate accepted
    const area = plotArea(300, 240);
    const at = {
      clientX: MARGIN.left + p.recall * area.w,
      clientY: MARGIN.top + (1 - p.precision) * area.h,
      bubbles: true,
    };
    const hover = svg.querySelector('rect.hover-area')!;
    hover.dispatchEvent(new MouseEvent('mousemove', at));
    const tip = svg.querySelector('g.tooltip') as SVGGElement;
    expect(tip.style.display).not.toBe('none');
    expect(tip.textContent).toContain('TP 3 · FP 1 · FN 2');
    expect(tip.textContent).toContain('F1 66.7%');
    expect(tip.querySelector('tspan')?.innerHTML).not.toContain('<');
    hover.dispatchEvent(new MouseEvent('click', at));
    expect(onPick).toHaveBeenCalledWith(c, p);
    hover.dispatchEvent(new MouseEvent('mouseleave'));
    expect(tip.style.display).toBe('none');
    svg.remove();
  });

  it('describes a point with its threshold, precision, recall, F1 and counts', () => {
    const c = curve();
    expect(pointDetails(c, c.points[4])).toEqual([
      'C = 1, D = 0.500',
      'precision 75.0% · recall 60.0% · F1 66.7%',
      'TP 3 · FP 1 · FN 2',
    ]);
  });

  it('fits the axes to the curves: every point inside, from a 5% step below the lowest to 100%', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = seededRandom(seed * 31);
      const lowP = rnd();
      const lowR = rnd();
      const curves = Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, i) => ({
        vary: 'C' as const,
        fixed: 0.01 * (i + 1),
        method: 'rp-hm' as const,
        breakEven: null,
        points: Array.from({ length: 2 + Math.floor(rnd() * 30) }, () => ({
          threshold: rnd(),
          precision: lowP + (1 - lowP) * rnd(),
          recall: lowR + (1 - lowR) * rnd(),
          tp: 1,
          fp: 1,
          fn: 1,
        })),
      })) as unknown as Figure1Curve[];
      const d = prDomain(curves, null);
      for (const c of curves)
        for (const p of c.points) {
          expect(p.recall, `seed ${seed}`).toBeGreaterThanOrEqual(d.recall[0]);
          expect(p.precision, `seed ${seed}`).toBeGreaterThanOrEqual(d.precision[0]);
        }
      for (const [lo, hi] of [d.recall, d.precision]) {
        expect(hi).toBe(1);
        expect(Math.abs(lo * 20 - Math.round(lo * 20)), `seed ${seed}`).toBeLessThan(1e-9);
        expect(lo, `seed ${seed}: at least a 10% span`).toBeLessThanOrEqual(0.9);
      }
      // Not wider than needed: the lowest point is within a 5% step (and the 1% margin) of the axis start.
      const minP = Math.min(...curves.flatMap((c) => c.points.map((p) => p.precision)));
      if (d.precision[0] < 0.9) expect(minP - d.precision[0], `seed ${seed}`).toBeLessThan(0.0601);
    }
  });
});
