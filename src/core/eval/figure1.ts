import type { PairTable } from '../candidates/pairs';
import { breakEven, ThresholdCurve, type CurvePoint } from './curves';

/**
 * Figure 1 of Di Iorio et al.: precision–recall curves of RP + HM collisions, one curve per fixed D
 * with C varying, plus the C = 1 curve (RP only, D varying). Truth comes from an oracle over the
 * candidate pairs (cosine of bags of words, the paper's precision check, or Jaccard) or from weights
 * (hand labels). Curves are read from sorted prefix sums (curves.ts), never by rescanning pairs.
 */
export type Oracle = 'cosine' | 'jaccard';

export interface Figure1Curve {
  /** 'C' curves vary C at a fixed D; the 'D' curve varies D at C = 1. */
  vary: 'C' | 'D';
  fixed: number;
  points: CurvePoint[];
  breakEven: CurvePoint & { value: number };
}

export interface Truth {
  dup: Float32Array;
  not: Float32Array;
}

/** Oracle truth: a pair is a duplicate when its cosine (or Jaccard) is at least tau. */
export function oracleTruth(p: PairTable, oracle: Oracle, tau: number): Truth {
  const v = oracle === 'cosine' ? p.cosine : p.jaccard;
  const dup = new Float32Array(p.count);
  const not = new Float32Array(p.count);
  for (let k = 0; k < p.count; k++) {
    if (v[k] >= tau) dup[k] = 1;
    else not[k] = 1;
  }
  return { dup, not };
}

export interface Figure1 {
  curves: Figure1Curve[];
  /** Precision and recall at a (C, D) point. */
  at(C: number, D: number): CurvePoint;
}

export function figure1(
  p: PairTable,
  truth: Truth,
  Ds: readonly number[],
  maxD: number,
  steps = 100,
): Figure1 {
  const curves: Figure1Curve[] = [];
  const byD = new Map<number, ThresholdCurve>();
  const curveForD = (D: number) => {
    let c = byD.get(D);
    if (!c) {
      // Pairs outside the D cube never collide (score Infinity) but stay in the table, so their
      // duplicates still count in recall's denominator.
      const score = new Float64Array(p.count);
      for (let k = 0; k < p.count; k++) score[k] = p.dR[k] < D ? p.dX[k] : Infinity;
      c = new ThresholdCurve(score, truth.dup, truth.not);
      byD.set(D, c);
    }
    return c;
  };
  for (const D of Ds) {
    const pts = curveForD(D)
      .sample(0, 1, steps)
      .filter((x) => x.threshold > 0);
    curves.push({ vary: 'C', fixed: D, points: pts, breakEven: breakEven(pts) });
  }
  const rp = new ThresholdCurve(p.dR, truth.dup, truth.not);
  const rpPts = rp.sample(0, maxD, steps).filter((x) => x.threshold > 0);
  curves.push({ vary: 'D', fixed: 1, points: rpPts, breakEven: breakEven(rpPts) });
  // Any (C, D), not only the drawn D values: one pass over the pairs (a few ms at 1M pairs), where a
  // new D curve would need a sort.
  let totalDup = 0;
  for (let k = 0; k < p.count; k++) totalDup += truth.dup[k];
  const at = (C: number, D: number): CurvePoint => {
    if (C >= 1) return rp.at(D);
    let tp = 0;
    let fp = 0;
    for (let k = 0; k < p.count; k++) {
      if (p.dR[k] < D && p.dX[k] < C) {
        tp += truth.dup[k];
        fp += truth.not[k];
      }
    }
    return {
      threshold: C,
      precision: tp + fp > 0 ? tp / (tp + fp) : 1,
      recall: totalDup > 0 ? tp / totalDup : 0,
    };
  };
  return { curves, at };
}
