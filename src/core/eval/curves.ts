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
    const tp = this.dup[c];
    const fp = this.not[c];
    return {
      threshold: t,
      precision: tp + fp > 0 ? tp / (tp + fp) : 1,
      recall: this.totalDup > 0 ? tp / this.totalDup : 0,
    };
  }

  /** The curve at `steps` thresholds evenly spread over [lo, hi]. */
  sample(lo: number, hi: number, steps: number): CurvePoint[] {
    return Array.from({ length: steps + 1 }, (_, i) => this.at(lo + ((hi - lo) * i) / steps));
  }
}

/** Where precision and recall are closest on a curve (their mean there), as the near-replica paper reports. */
export function breakEven(points: readonly CurvePoint[]): CurvePoint & { value: number } {
  let best = points[0];
  for (const p of points)
    if (Math.abs(p.precision - p.recall) < Math.abs(best.precision - best.recall)) best = p;
  return { ...best, value: (best.precision + best.recall) / 2 };
}

/** The point with the highest F1. */
export function bestF1(points: readonly CurvePoint[]): CurvePoint & { f1: number } {
  let best = { ...points[0], f1: -1 };
  for (const p of points) {
    const f = p.precision + p.recall === 0 ? 0 : (2 * p.precision * p.recall) / (p.precision + p.recall);
    if (f > best.f1) best = { ...p, f1: f };
  }
  return best;
}
