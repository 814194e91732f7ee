import { acceptMask, sortedBy, type MethodId, type Thresholds } from '../candidates/methods';
import { SOURCE, type PairTable } from '../candidates/pairs';
import { breakEven, pointOf, ThresholdCurve, type BreakEven, type CurvePoint } from './curves';

/**
 * Figure 1 of Di Iorio et al.: precision–recall curves of RP + HM collisions, one curve per fixed D
 * with C varying, plus the C = 1 curve (RP only, D varying). Truth comes from an oracle over the
 * candidate pairs (cosine of bags of words, the paper's precision check, or Jaccard) or from weights
 * (hand labels). Curves are read from sorted prefix sums (curves.ts), never by rescanning pairs.
 */
export type Oracle = 'cosine' | 'jaccard';

export interface Figure1Curve {
  /** 'C' curves vary C at a fixed D; the 'D' curve varies D at C = 1; 'method' curves compare methods. */
  vary: 'C' | 'D' | 'method';
  /** For method curves: what is drawn. */
  label?: string;
  /** The method whose threshold the curve varies (RP and RP + HM are 'rp-hm'). */
  method: MethodId;
  fixed: number;
  points: CurvePoint[];
  /** Where the curve crosses precision = recall; null when it does not within the drawn range. */
  breakEven: BreakEven | null;
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
    curves.push({ vary: 'C', method: 'rp-hm', fixed: D, points: pts, breakEven: breakEven(pts) });
  }
  const rp = new ThresholdCurve(p.dR, truth.dup, truth.not);
  const rpPts = rp.sample(0, maxD, steps).filter((x) => x.threshold > 0);
  curves.push({ vary: 'D', method: 'rp-hm', fixed: 1, points: rpPts, breakEven: breakEven(rpPts) });
  // Any (C, D), not only the drawn D values, where a new D curve would need a sort: pairs sorted by
  // ‖ΔR‖∞ once, so a point reads only the prefix ΔR < D, contiguous (a slider move at 1M pairs).
  let totalDup = 0;
  for (let k = 0; k < p.count; k++) totalDup += truth.dup[k];
  const all = new Uint32Array(p.count);
  for (let k = 0; k < p.count; k++) all[k] = k;
  const byR = sortedBy(p.dR, all, false);
  const dR = new Float32Array(p.count);
  const dX = new Float32Array(p.count);
  const dup = new Float32Array(p.count);
  const not = new Float32Array(p.count);
  for (let i = 0; i < byR.length; i++) {
    const k = byR[i];
    dR[i] = p.dR[k];
    dX[i] = p.dX[k];
    dup[i] = truth.dup[k];
    not[i] = truth.not[k];
  }
  const at = (C: number, D: number): CurvePoint => {
    if (C >= 1) return rp.at(D);
    let lo = 0;
    let hi = dR.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (dR[mid] < D) lo = mid + 1;
      else hi = mid;
    }
    let tp = 0;
    let fp = 0;
    // Branch-free (ΔX < C is a coin toss per pair): adding 0 × a finite weight changes no sum.
    for (let i = 0; i < lo; i++) {
      const ok = dX[i] < C ? 1 : 0;
      tp += ok * dup[i];
      fp += ok * not[i];
    }
    return pointOf(C, tp, fp, totalDup);
  };
  return { curves, at };
}

/** A curve over one method's own threshold: its score per pair (accepted when score < threshold) and range. */
interface MethodScore {
  label: string;
  score(p: PairTable, k: number): number;
  lo: number;
  hi: number;
}

/**
 * The methods whose single threshold a curve varies (RP + HM's are Figure 1's C and D curves; an exact
 * fingerprint has no threshold): the length ratio a for feature code + length, the Jaccard threshold
 * for MinHash (LSH candidates), the Hamming distance for SimHash (its blocks' candidates).
 */
const OWN_SCORES: Partial<Record<MethodId, MethodScore>> = {
  // Accepted when ratio ≤ a: score = ratio, threshold a + ε (curves.ts accepts score < threshold).
  'feature-code': {
    label: 'feature code + length, a varies',
    score: (p, k) => (p.fcMatch[k] === 1 ? p.lengthRatio[k] : Infinity),
    lo: 1,
    hi: 1.5,
  },
  minhash: {
    label: 'MinHash (LSH), Jaccard varies',
    score: (p, k) => ((p.sources[k] & SOURCE.lsh) !== 0 ? 1 - p.jaccard[k] : Infinity),
    lo: 0,
    hi: 0.7,
  },
  simhash: {
    label: 'SimHash, Hamming varies',
    // Its block method's pairs, as the method accepts them (methods.ts).
    score: (p, k) => ((p.sources[k] & SOURCE.simhash) !== 0 ? p.simhash[k] + 0.5 : Infinity),
    lo: 0,
    hi: 5,
  },
};

function scoreCurve(
  p: PairTable,
  truth: Truth,
  method: MethodId,
  label: string,
  score: Float64Array,
  lo: number,
  hi: number,
  steps: number,
): Figure1Curve {
  const c = new ThresholdCurve(score, truth.dup, truth.not);
  const points = c.sample(lo, hi, steps).filter((x) => x.threshold > lo);
  return { vary: 'method', method, fixed: NaN, label, points, breakEven: breakEven(points) };
}

/**
 * The chosen method's own curve over its threshold, drawn beside Figure 1's C and D curves; null for
 * RP + HM (Figure 1's curves are its own) and for the exact fingerprint (no threshold: one point).
 */
export function methodCurve(p: PairTable, truth: Truth, method: MethodId, steps = 60): Figure1Curve | null {
  const own = OWN_SCORES[method];
  if (!own) return null;
  const score = Float64Array.from({ length: p.count }, (_, k) => own.score(p, k));
  return scoreCurve(p, truth, method, own.label, score, own.lo, own.hi, steps);
}

/**
 * Precision and recall of method m at thresholds t against the truth, by the method's one accept rule
 * (`acceptMask`). `threshold` is the value of the method's slider (D for RP + HM; 1 for exact).
 */
export function methodPoint(p: PairTable, truth: Truth, m: MethodId, t: Thresholds): CurvePoint {
  const { mask } = acceptMask(p, m, t);
  let tp = 0;
  let fp = 0;
  let totalDup = 0;
  for (let k = 0; k < p.count; k++) {
    totalDup += truth.dup[k];
    if (mask[k] === 1) {
      tp += truth.dup[k];
      fp += truth.not[k];
    }
  }
  const threshold = { exact: 1, 'rp-hm': t.D, 'feature-code': t.a, minhash: t.jaccard, simhash: t.hamming }[
    m
  ];
  return pointOf(threshold, tp, fp, totalDup);
}

/**
 * The methods on the same axes (comparison mode): each method's own threshold varies — D for RP
 * (C = 1), C for RP + HM at the current D, and each other method's own curve (methodCurve).
 */
export function comparisonCurves(
  p: PairTable,
  truth: Truth,
  D: number,
  maxD: number,
  steps = 60,
): Figure1Curve[] {
  const n = p.count;
  const s = (f: (k: number) => number) => Float64Array.from({ length: n }, (_, k) => f(k));
  return [
    scoreCurve(
      p,
      truth,
      'rp-hm',
      'RP (C = 1), D varies',
      s((k) => p.dR[k]),
      0,
      maxD,
      steps,
    ),
    scoreCurve(
      p,
      truth,
      'rp-hm',
      `RP + HM at D = ${D.toFixed(3)}, C varies`,
      s((k) => (p.dR[k] < D ? p.dX[k] : Infinity)),
      0,
      1,
      steps,
    ),
    ...(['feature-code', 'minhash', 'simhash'] as const).map((m) => methodCurve(p, truth, m, steps)!),
  ];
}
