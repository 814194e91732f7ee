import type { PairTable } from './pairs';
import { SOURCE } from './pairs';

/** The detection methods the workbench compares, each with the thresholds its sliders move. */
export type MethodId = 'exact' | 'rp-hm' | 'feature-code' | 'minhash' | 'simhash';

export interface Thresholds {
  /** RP+HM: collide iff ‖ΔX‖∞ < C and ‖ΔR‖∞ < D (C = 1: RP only). */
  C: number;
  D: number;
  /** Feature code + length: ratio ≤ a; `fcLengthCheck` false gives the feature code alone. */
  a: number;
  fcLengthCheck: boolean;
  /** MinHash: exact Jaccard of LSH candidates ≥ jaccard. */
  jaccard: number;
  /** SimHash: Hamming distance ≤ hamming. */
  hamming: number;
}

/** Slider ranges; candidate generation runs at the loosest end so no slider move needs a recompute. */
export const RANGES = {
  C: [0, 1],
  D: [0, 0.1],
  a: [1, 1.5],
  jaccard: [0.3, 1],
  hamming: [0, 4],
} as const;

/**
 * Defaults, chosen by measurement on docsite (`npm run bench:quality`, template text left out) and kept
 * only where the sample agrees (`npm run bench:sample`). The near-replica paper gives no C, D values
 * (only curves): D = 0.022 is RP's break-even on docsite's main texts (95.5%; precision 95.6%, recall
 * 95.0% there; the sample 99.0% / 88.4%), C = 1 (RP only) because the Hyperlink Map adds 0.2 points at
 * its best (C = 0.28) and none on the sample. a = 1.10 is Peng et al.'s §4 value: docsite's break-even
 * (a = 1.04) costs the sample 5 points of recall. J ≥ 0.8 (lecture) beats its docsite break-even
 * (0.835) on the sample. Hamming ≤ 4 rather than Manku et al.'s 3 (a 64-bit SimHash over 8 billion
 * pages): +3 points of recall on docsite (99.2% / 95.9%) and +1 on the sample, no precision lost.
 */
export const DEFAULT_THRESHOLDS: Thresholds = {
  C: 1,
  D: 0.022,
  a: 1.1,
  fcLengthCheck: true,
  jaccard: 0.8,
  hamming: 4,
};

/**
 * The method the workbench opens on, chosen by measurement (`npm run bench:quality`, cluster section;
 * pairs claimed by the clusters against the truth's groups; template text left out): MinHash — exact
 * Jaccard ≥ 0.8 of the LSH candidates — with star clusters: docsite 98.4% precision / 99.5% recall
 * (whole pages: 98.3% / 98.4%; RP + HM at C = 1, D = 0.022 with components: 94.3% / 95.0%), the sample
 * 100% / 97.8% (whole pages 100% / 98.2%; RP + HM: 99.0% / 88.4%). No chain: the least similar two
 * members of its 10 largest clusters have exact Jaccard 0.95 (docsite) and 0.91 (sample). Star
 * clusters at J ≥ 0.8 bound every member pair at J ≥ 0.6 (Jaccard distance is a metric). The papers'
 * RP + HM stays one click away in the method menu.
 */
export const DEFAULT_METHOD: MethodId = 'minhash';

export const METHOD_LABELS: Record<MethodId, string> = {
  exact: 'Exact fingerprint',
  'rp-hm': 'RP + Hyperlink Map (C, D)',
  'feature-code': 'Feature code + length',
  minhash: 'Shingles / MinHash (Jaccard)',
  simhash: 'SimHash (Hamming)',
};

/**
 * Does pair k pass method m at thresholds t? The single-pair form of `acceptMask`'s rule, kept beside it;
 * test/core/candidates/methods.test.ts checks the two agree on random pair tables for every method.
 */
export function accepts(p: PairTable, m: MethodId, t: Thresholds, k: number): boolean {
  switch (m) {
    case 'exact':
      return p.exact[k] === 1;
    case 'rp-hm':
      return p.dR[k] < t.D && (t.C >= 1 || p.dX[k] < t.C);
    case 'feature-code':
      return p.fcMatch[k] === 1 && (!t.fcLengthCheck || p.lengthRatio[k] <= t.a);
    case 'minhash':
      return (p.sources[k] & SOURCE.lsh) !== 0 && p.jaccard[k] >= t.jaccard;
    case 'simhash':
      return p.simhash[k] <= t.hamming;
  }
}

/**
 * Which pairs pass method m at thresholds t, as a byte mask: one tight loop per method (a slider move
 * re-runs this over every stored pair; a per-pair switch cost 2× at 1M pairs).
 */
export function acceptMask(
  p: PairTable,
  m: MethodId,
  t: Thresholds,
  out = new Uint8Array(p.count),
): { mask: Uint8Array; accepted: number } {
  const n = p.count;
  let accepted = 0;
  switch (m) {
    case 'exact':
      for (let k = 0; k < n; k++) accepted += out[k] = p.exact[k] === 1 ? 1 : 0;
      break;
    case 'rp-hm': {
      const { dR, dX } = p;
      const D = t.D;
      const C = t.C >= 1 ? Infinity : t.C;
      for (let k = 0; k < n; k++) accepted += out[k] = dR[k] < D && dX[k] < C ? 1 : 0;
      break;
    }
    case 'feature-code': {
      const { fcMatch, lengthRatio } = p;
      const a = t.fcLengthCheck ? t.a : Infinity;
      for (let k = 0; k < n; k++) accepted += out[k] = fcMatch[k] === 1 && lengthRatio[k] <= a ? 1 : 0;
      break;
    }
    case 'minhash': {
      const { sources, jaccard } = p;
      const j = t.jaccard;
      for (let k = 0; k < n; k++)
        accepted += out[k] = (sources[k] & SOURCE.lsh) !== 0 && jaccard[k] >= j ? 1 : 0;
      break;
    }
    case 'simhash': {
      const { simhash } = p;
      const h = t.hamming;
      for (let k = 0; k < n; k++) accepted += out[k] = simhash[k] <= h ? 1 : 0;
      break;
    }
  }
  return { mask: out, accepted };
}
