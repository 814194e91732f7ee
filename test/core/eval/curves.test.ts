import { describe, expect, it } from 'vitest';
import { breakEven, pointOf, ThresholdCurve, type CurvePoint } from '../../../src/core/eval/curves';
import { randomCurve } from './random-curve';

const pt = (threshold: number, precision: number, recall: number): CurvePoint => ({
  threshold,
  precision,
  recall,
  tp: 0,
  fp: 0,
  fn: 0,
});

describe('breakEven', () => {
  it('interpolates between the two points that bracket precision = recall', () => {
    // precision − recall: 0.8, 0.2, −0.4 → the sign changes between t = 2 and t = 3, a third of the way.
    const be = breakEven([pt(1, 1, 0.2), pt(2, 0.8, 0.6), pt(3, 0.5, 0.9)]);
    expect(be).not.toBeNull();
    expect(be!.threshold).toBeCloseTo(2 + 1 / 3, 12);
    expect(be!.precision).toBeCloseTo(0.7, 12);
    expect(be!.recall).toBeCloseTo(0.7, 12);
    expect(be!.value).toBeCloseTo(0.7, 12);
  });

  it('says there is none when the curve never crosses (the reviewer’s 9% precision at 68% recall)', () => {
    const pts = [pt(0.01, 0.12, 0.3), pt(0.02, 0.1, 0.5), pt(0.03, 0.09, 0.68)];
    expect(breakEven(pts)).toBeNull();
    // Above the diagonal everywhere: none either.
    expect(breakEven([pt(1, 0.99, 0.1), pt(2, 0.95, 0.4)])).toBeNull();
  });

  it('does not take the 0/0 precision of an empty acceptance as one side of a crossing', () => {
    // Nothing accepted at t = 0.001 (precision 1 by convention, recall 0), then already below the diagonal.
    expect(breakEven([pt(0.001, 1, 0), pt(0.002, 0.09, 0.68)])).toBeNull();
  });

  it('takes a point exactly on the diagonal, and the highest of several crossings', () => {
    expect(breakEven([pt(1, 0.9, 0.5), pt(2, 0.6, 0.6), pt(3, 0.4, 0.8)])?.threshold).toBe(2);
    // Crosses down at 0.5, back up, down again at 0.8: the best break-even is the later one.
    const be = breakEven([pt(1, 0.9, 0.1), pt(2, 0.4, 0.6), pt(3, 0.9, 0.7), pt(4, 0.7, 0.9)]);
    expect(be!.value).toBeGreaterThan(0.7);
    expect(be!.threshold).toBeGreaterThan(3);
  });

  it('on random data: the break-even lies on the diagonal, inside the bracket of a sign change', () => {
    for (let trial = 0; trial < 20; trial++) {
      const { curve } = randomCurve(11 + trial, 300);
      const pts = curve.sample(0, 1, 80);
      const be = breakEven(pts);
      const live = pts.filter((p) => p.recall > 0);
      const crosses = live.some(
        (p, i) =>
          i > 0 &&
          Math.sign(p.precision - p.recall) !== Math.sign(live[i - 1].precision - live[i - 1].recall),
      );
      expect(be !== null).toBe(crosses);
      if (!be) continue;
      expect(Math.abs(be.precision - be.recall)).toBeLessThan(1e-12);
      const i = pts.findIndex((p) => p.threshold >= be.threshold);
      expect(i).toBeGreaterThan(0);
      const [lo, hi] = [pts[i - 1], pts[i]];
      expect(be.threshold).toBeGreaterThanOrEqual(lo.threshold);
      expect(Math.sign(lo.precision - lo.recall) * Math.sign(hi.precision - hi.recall)).toBeLessThanOrEqual(
        0,
      );
    }
  });
});

describe('curve points', () => {
  it('carry the true and false positives and the missed duplicates', () => {
    // Scores 0.1 (dup), 0.2 (not), 0.3 (dup), plus 2 duplicates no pair represents.
    const c = new ThresholdCurve([0.1, 0.2, 0.3], [1, 0, 1], [0, 1, 0], 2);
    const p = c.at(0.25);
    expect([p.tp, p.fp, p.fn]).toEqual([1, 1, 3]);
    expect(p.precision).toBe(0.5);
    expect(p.recall).toBe(0.25);
    expect(pointOf(0, 0, 0, 4)).toMatchObject({ precision: 1, recall: 0, fn: 4 });
  });
});
