import { expect } from 'vitest';
import { MARGIN } from '../../../src/ui/charts/frame';

/** Helpers for chart tests: a detached <svg> in jsdom, and the coordinates of a path's `d`. */
export function detachedSvg(): SVGSVGElement {
  return document.createElementNS('http://www.w3.org/2000/svg', 'svg');
}

/** The (x, y) pairs of an SVG path made of M/L commands (what d3.line writes for linear curves). */
export function pathPoints(d: string | null): [number, number][] {
  expect(d).toMatch(/^(M[-\d.e]+,[-\d.e]+(L[-\d.e]+,[-\d.e]+)*)+$/);
  return d!
    .slice(1)
    .split(/[LM]/)
    .map((p) => p.split(',').map(Number) as [number, number]);
}

/** The plot area (inside the shared margins) of a chart drawn at `width` × `height`. */
export function plotArea(width: number, height: number): { w: number; h: number } {
  return { w: width - MARGIN.left - MARGIN.right, h: height - MARGIN.top - MARGIN.bottom };
}

/** Every point lies inside the plot area (a path drawn in data units would sit in its corner). */
export function expectInside(points: [number, number][], area: { w: number; h: number }): void {
  for (const [x, y] of points) {
    expect(x).toBeGreaterThanOrEqual(-1e-9);
    expect(x).toBeLessThanOrEqual(area.w + 1e-9);
    expect(y).toBeGreaterThanOrEqual(-1e-9);
    expect(y).toBeLessThanOrEqual(area.h + 1e-9);
  }
}

export const tickTexts = (svg: SVGSVGElement, axis: 'x' | 'y') =>
  [...svg.querySelectorAll(`g.axis.${axis} .tick text`)].map((t) => t.textContent);
