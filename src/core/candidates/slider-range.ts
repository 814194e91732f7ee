/**
 * Where a threshold acts. A slider moves one threshold of a method while the others stay; the accepted
 * pairs change only where the moved threshold crosses the value of a candidate pair that passes the
 * others (its critical value: ‖ΔX‖∞ for C, ‖ΔR‖∞ for D, the length ratio for a, exact Jaccard, the
 * Hamming distance). Past the largest critical value every such pair passes (or none, for a
 * lower bound like Jaccard ≥), before the smallest none does (or all): the slider's travel there
 * changes nothing, and the pane says so (issue "Every screen readable…", scope 3: honest controls).
 */
import { SOURCE, type PairTable } from './pairs';
import { storedThresholds, type MethodId, type Thresholds } from './methods';

export type SliderKey = 'C' | 'D' | 'a' | 'jaccard' | 'hamming';

export interface ActiveRange {
  /** The smallest and largest critical value of the pairs the other thresholds let through. */
  lo: number;
  hi: number;
  /** Those pairs: the most the slider can accept. */
  pairs: number;
  /** Whether a pair passes when the threshold is above its critical value (C, D, a, Hamming) or below (Jaccard). */
  upper: boolean;
}

/** The critical values of method m's pairs for `key` (the other thresholds held), as one pass. */
export function activeRange(
  p: PairTable,
  m: MethodId,
  key: SliderKey,
  thresholds: Thresholds,
): ActiveRange | null {
  const t = storedThresholds(thresholds);
  let lo = Infinity;
  let hi = -Infinity;
  let pairs = 0;
  const see = (v: number) => {
    if (!Number.isFinite(v)) return;
    pairs++;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  };
  const n = p.count;
  if (m === 'rp-hm' && key === 'C') {
    for (let k = 0; k < n; k++) if (p.dR[k] < t.D) see(p.dX[k]);
  } else if (m === 'rp-hm' && key === 'D') {
    const C = t.C >= 1 ? Infinity : t.C;
    for (let k = 0; k < n; k++) if (p.dX[k] < C) see(p.dR[k]);
  } else if (m === 'feature-code' && key === 'a') {
    for (let k = 0; k < n; k++) if (p.fcMatch[k] === 1) see(p.lengthRatio[k]);
  } else if (m === 'minhash' && key === 'jaccard') {
    for (let k = 0; k < n; k++) if ((p.sources[k] & SOURCE.lsh) !== 0) see(p.jaccard[k]);
  } else if (m === 'simhash' && key === 'hamming') {
    for (let k = 0; k < n; k++) see(p.simhash[k]);
  } else return null;
  if (pairs === 0) return null;
  return { lo, hi, pairs, upper: key !== 'jaccard' };
}

/**
 * The part of a slider's travel [min, max] where it changes nothing, said in words: "above 0.150 every
 * candidate pair within the other thresholds passes". Null when the slider acts over (almost) all of
 * its travel: dead stretches under `share` of it are not worth a line.
 */
export function deadTravel(
  r: ActiveRange | null,
  min: number,
  max: number,
  share = 0.1,
): { from: number; to: number; all: boolean }[] {
  if (!r) return [];
  const span = max - min;
  const out: { from: number; to: number; all: boolean }[] = [];
  // An upper bound (v < C): at or below lo nothing passes, above hi everything does; a lower bound
  // (Jaccard ≥ v): at or below lo everything passes, above hi nothing.
  const long = (d: number) => d > 0 && d >= share * span;
  if (long(r.lo - min)) out.push({ from: min, to: Math.min(r.lo, max), all: !r.upper });
  if (long(max - r.hi)) out.push({ from: Math.max(r.hi, min), to: max, all: r.upper });
  return out;
}
