import { f1 } from './estimators';

/**
 * Precision–recall curves over one threshold, from a score per pair (smaller = more alike, as ‖ΔR‖∞)
 * and a weight of truth per pair, in O(n log n) once: pairs sorted by score, prefix sums of the
 * duplicate and non-duplicate weights; a threshold t then reads precision and recall at the count of
 * scores < t by binary search — no rescan when a slider moves.
 */
export interface CurvePoint {
  threshold: number;
  precision: number;
  recall: number;
  /** Weight of true positives (accepted duplicates), false positives and false negatives (missed duplicates). */
  tp: number;
  fp: number;
  fn: number;
}

/** Precision and recall from weighted counts; precision is 1 when nothing is accepted (nothing wrong yet). */
export function pointOf(threshold: number, tp: number, fp: number, totalDup: number): CurvePoint {
  return {
    threshold,
    precision: tp + fp > 0 ? tp / (tp + fp) : 1,
    recall: totalDup > 0 ? tp / totalDup : 0,
    tp,
    fp,
    fn: Math.max(0, totalDup - tp),
  };
}

export class ThresholdCurve {
  private readonly scores: Float64Array;
  /** Prefix sums: dup[i] = weight of duplicates among the i smallest scores. */
  private readonly dup: Float64Array;
  private readonly not: Float64Array;
  readonly totalDup: number;

  /**
   * @param score per pair (accepted when score < threshold)
   * @param truthDup weight of the pair being a duplicate (1/0 for oracle truth, 1/π for a labelled duplicate)
   * @param truthNot weight of the pair being a non-duplicate
   * @param extraDup duplicates that no pair in the table represents (missed by every candidate generator)
   */
  constructor(
    score: ArrayLike<number>,
    truthDup: ArrayLike<number>,
    truthNot: ArrayLike<number>,
    extraDup = 0,
  ) {
    const n = score.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => score[a] - score[b]);
    this.scores = new Float64Array(n);
    this.dup = new Float64Array(n + 1);
    this.not = new Float64Array(n + 1);
    for (let k = 0; k < n; k++) {
      const i = order[k];
      this.scores[k] = score[i];
      this.dup[k + 1] = this.dup[k] + truthDup[i];
      this.not[k + 1] = this.not[k] + truthNot[i];
    }
    this.totalDup = this.dup[n] + extraDup;
  }

  /** Number of pairs with score < t. */
  private count(t: number): number {
    let lo = 0;
    let hi = this.scores.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.scores[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  at(t: number): CurvePoint {
    const c = this.count(t);
    return pointOf(t, this.dup[c], this.not[c], this.totalDup);
  }

  /** The curve at `steps` thresholds evenly spread over [lo, hi]. */
  sample(lo: number, hi: number, steps: number): CurvePoint[] {
    return Array.from({ length: steps + 1 }, (_, i) => this.at(lo + ((hi - lo) * i) / steps));
  }
}

export type BreakEven = CurvePoint & { value: number };

/**
 * The break-even point: where the curve crosses precision = recall (the near-replica paper reports
 * its methods by it). Points are taken in threshold order; where precision − recall changes sign between
 * two neighbours the crossing is interpolated linearly between them (threshold, precision, recall and
 * counts alike), so value = precision = recall there. With several crossings (a noisy curve) the one
 * with the highest value is returned.
 *
 * Points with recall 0 are left out: nothing true is accepted there, and their precision is either the
 * 0/0 convention (1) or 0, so a "crossing" next to them is an artefact of the sampling, not of the method.
 *
 * Returns null when the curve never crosses within the sampled range: the closest point is not a
 * break-even (precision 9% at recall 68% is not one), and the caller says "no break-even in range".
 */
export function breakEven(points: readonly CurvePoint[]): BreakEven | null {
  const pts = points.filter((p) => p.recall > 0 && Number.isFinite(p.precision) && Number.isFinite(p.recall));
  let best: BreakEven | null = null;
  const keep = (b: BreakEven) => {
    if (!best || b.value > best.value) best = b;
  };
  for (let i = 0; i < pts.length; i++) {
    const d0 = pts[i].precision - pts[i].recall;
    if (d0 === 0) {
      keep({ ...pts[i], value: pts[i].recall });
      continue;
    }
    if (i + 1 >= pts.length) break;
    const d1 = pts[i + 1].precision - pts[i + 1].recall;
    if (d1 !== 0 && Math.sign(d0) !== Math.sign(d1)) {
      const s = d0 / (d0 - d1);
      const lerp = (a: number, b: number) => a + (b - a) * s;
      const [p, q] = [pts[i], pts[i + 1]];
      const recall = lerp(p.recall, q.recall);
      keep({
        threshold: lerp(p.threshold, q.threshold),
        precision: lerp(p.precision, q.precision),
        recall,
        tp: lerp(p.tp, q.tp),
        fp: lerp(p.fp, q.fp),
        fn: lerp(p.fn, q.fn),
        value: recall,
      });
    }
  }
  return best;
}

/** The point with the highest F1. */
export function bestF1(points: readonly CurvePoint[]): CurvePoint & { f1: number } {
  let best = { ...points[0], f1: -1 };
  for (const p of points) {
    const f = f1(p.precision, p.recall);
    if (f > best.f1) best = { ...p, f1: f };
  }
  return best;
}
