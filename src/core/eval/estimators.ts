/**
 * Precision and recall from hand labels, weighted by the sampling design (Horvitz–Thompson: a label
 * drawn with inclusion probability π stands for 1/π pairs), with 95% intervals.
 *
 * Interval: Wilson score interval (Wilson 1927) on the weighted proportion, with Kish's effective
 * sample size n_eff = (Σw)² / Σw² in place of n, so unequal weights widen it as they should. Wilson
 * rather than the normal approximation because labelled sets are small and proportions near 0 or 1.
 */
export type LabelValue = 'dup' | 'not' | 'unsure';

export interface WeightedLabel {
  label: LabelValue;
  /** Inclusion probability of the pair in the labelled sample (0 < π ≤ 1). */
  pi: number;
  /** Does the method (at its current thresholds) call this pair a duplicate? */
  predicted: boolean;
}

export interface Estimate {
  value: number;
  lo: number;
  hi: number;
  /** Effective sample size behind the estimate. */
  n: number;
}

const Z95 = 1.959963984540054;

/** Wilson score interval for a proportion p observed on n (possibly fractional, effective) trials. */
export function wilson(p: number, n: number, z = Z95): { lo: number; hi: number } {
  if (n <= 0) return { lo: 0, hi: 1 };
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

/** Weighted proportion of `hit` among `items`, with its Wilson interval on Kish's effective n. */
export function weightedProportion(items: { w: number; hit: boolean }[]): Estimate {
  let sw = 0;
  let sw2 = 0;
  let hits = 0;
  for (const x of items) {
    sw += x.w;
    sw2 += x.w * x.w;
    if (x.hit) hits += x.w;
  }
  if (sw === 0) return { value: NaN, lo: 0, hi: 1, n: 0 };
  const p = hits / sw;
  const nEff = (sw * sw) / sw2;
  return { value: p, ...wilson(p, nEff), n: nEff };
}

/**
 * Pair-level precision = weighted share of duplicates among labelled pairs the method accepts;
 * recall = weighted share of accepted pairs among labelled duplicates. 'unsure' labels are left out.
 */
export function precisionRecall(labels: readonly WeightedLabel[]): { precision: Estimate; recall: Estimate } {
  const sure = labels.filter((l) => l.label !== 'unsure');
  const precision = weightedProportion(
    sure.filter((l) => l.predicted).map((l) => ({ w: 1 / l.pi, hit: l.label === 'dup' })),
  );
  const recall = weightedProportion(
    sure.filter((l) => l.label === 'dup').map((l) => ({ w: 1 / l.pi, hit: l.predicted })),
  );
  return { precision, recall };
}

export function f1(p: number, r: number): number {
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}
