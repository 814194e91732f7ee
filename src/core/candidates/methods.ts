import type { PairTable } from './pairs';
import { SOURCE } from './pairs';
import { bucketOrder } from '../hash';

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
 * Thresholds as the stored measures are compared with them: measures are 32-bit floats (PairTable), so
 * each threshold is rounded to one too. A pair whose Jaccard is exactly 0.9 (9/10, stored as the float
 * nearest 0.9, just below it) then passes J ≥ 0.9, as it does in the batch's SQL, which compares
 * CAST(… AS FLOAT) with CAST(threshold AS FLOAT) on DuckDB and on Spark alike (sql/dedup.sql).
 */
export function storedThresholds(t: Thresholds): Thresholds {
  return {
    ...t,
    D: Math.fround(t.D),
    C: Math.fround(t.C),
    a: Math.fround(t.a),
    jaccard: Math.fround(t.jaccard),
  };
}

/**
 * Does pair k pass method m at thresholds t? The single-pair form of `acceptMask`'s rule, kept beside it;
 * test/core/candidates/methods.test.ts checks the two agree on random pair tables for every method.
 */
export function accepts(p: PairTable, m: MethodId, thresholds: Thresholds, k: number): boolean {
  const t = storedThresholds(thresholds);
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
      return (p.sources[k] & SOURCE.simhash) !== 0 && p.simhash[k] <= t.hamming;
  }
}

/**
 * Which pairs pass method m at thresholds t, as a byte mask: one tight loop per method (a slider move
 * re-runs this over every stored pair; a per-pair switch cost 2× at 1M pairs).
 */
export function acceptMask(
  p: PairTable,
  m: MethodId,
  thresholds: Thresholds,
  out = new Uint8Array(p.count),
): { mask: Uint8Array; accepted: number } {
  const t = storedThresholds(thresholds);
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
      // As MinHash takes its LSH's pairs: SimHash's block method's (the batch joins those alone).
      const { simhash, sources } = p;
      const h = t.hamming;
      for (let k = 0; k < n; k++)
        accepted += out[k] = (sources[k] & SOURCE.simhash) !== 0 && simhash[k] <= h ? 1 : 0;
      break;
    }
  }
  return { mask: out, accepted };
}

/**
 * The pairs of method m that can pass at some threshold of its slider, ordered so that the ones
 * passing at any threshold are a prefix: sorted once per method (stable radix sort on the measure,
 * ties by pair index), after which a slider move is a binary search instead of a pass over every
 * stored pair. `acceptedPairs` reads it; test/core/candidates/methods.test.ts checks it against
 * `acceptMask` on random pair tables for every method.
 */
export interface AcceptIndex {
  method: MethodId;
  /** Pair indices: ascending measure (dR, length ratio, Hamming), descending Jaccard (MinHash). */
  order: Uint32Array;
  /** The slider's measure of order[i]. */
  values: Float32Array;
  /** RP + HM: ‖ΔX‖∞ of order[i], for C < 1 (the second slider filters the D prefix). */
  second: Float32Array | null;
}

export function acceptIndex(p: PairTable, m: MethodId): AcceptIndex {
  const { dR, dX, fcMatch, lengthRatio, sources, jaccard, simhash, exact } = p;
  // Which pairs enter the order and by what: a pair left out can never pass (NaN fails every
  // comparison; a non-finite ΔX fails acceptMask's `dX < C` even at C = 1, which reads C as ∞).
  const rule: { keep: (k: number) => boolean; measure: ArrayLike<number>; descending: boolean } =
    m === 'exact'
      ? { keep: (k) => exact[k] === 1, measure: exact, descending: false }
      : m === 'rp-hm'
        ? { keep: (k) => dR[k] === dR[k] && Number.isFinite(dX[k]), measure: dR, descending: false }
        : m === 'feature-code'
          ? {
              keep: (k) => fcMatch[k] === 1 && lengthRatio[k] === lengthRatio[k],
              measure: lengthRatio,
              descending: false,
            }
          : m === 'minhash'
            ? {
                keep: (k) => (sources[k] & SOURCE.lsh) !== 0 && jaccard[k] === jaccard[k],
                measure: jaccard,
                descending: true,
              }
            : { keep: (k) => (sources[k] & SOURCE.simhash) !== 0, measure: simhash, descending: false };
  const kept = new Uint32Array(p.count);
  let n = 0;
  for (let k = 0; k < p.count; k++) if (rule.keep(k)) kept[n++] = k;
  const order = sortedBy(rule.measure, kept.subarray(0, n), rule.descending);
  const values = new Float32Array(order.length);
  for (let i = 0; i < order.length; i++) values[i] = rule.measure[order[i]];
  let second: Float32Array | null = null;
  if (m === 'rp-hm') {
    second = new Float32Array(order.length);
    for (let i = 0; i < order.length; i++) second[i] = dX[order[i]];
  }
  return { method: m, order, values, second };
}

/**
 * The pairs passing `ix.method` at thresholds t (the same set as `acceptMask`'s), in the index's
 * order: a prefix of it, filtered by C for RP + HM with C < 1 into `buffer(n)` (a caller may pass
 * a reused array).
 */
export function acceptedPairs(
  ix: AcceptIndex,
  thresholds: Thresholds,
  buffer: (n: number) => Uint32Array = (n) => new Uint32Array(n),
): Uint32Array {
  const t = storedThresholds(thresholds);
  const { order, values } = ix;
  // First position whose value fails: values are monotone, so passing ones come first.
  const end = (fails: (v: number) => boolean) => {
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (fails(values[mid])) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  switch (ix.method) {
    case 'exact':
      return order;
    case 'rp-hm': {
      const D = t.D;
      const c = end((v) => !(v < D));
      if (t.C >= 1) return order.subarray(0, c);
      const C = t.C;
      const second = ix.second!;
      // Branch-free: whether ΔX < C is a coin toss per pair, a branch would mispredict.
      const out = buffer(c + 1);
      let n = 0;
      for (let i = 0; i < c; i++) {
        out[n] = order[i];
        n += second[i] < C ? 1 : 0;
      }
      return out.subarray(0, n);
    }
    case 'feature-code': {
      const a = t.fcLengthCheck ? t.a : Infinity;
      return order.subarray(
        0,
        end((v) => !(v <= a)),
      );
    }
    case 'minhash': {
      const j = t.jaccard;
      return order.subarray(
        0,
        end((v) => !(v >= j)),
      );
    }
    case 'simhash': {
      const h = t.hamming;
      return order.subarray(
        0,
        end((v) => !(v <= h)),
      );
    }
  }
}

/**
 * `ks` ordered by measure[k] (ascending, or descending), ties in the order of `ks`: a stable radix sort
 * on the float's bits made to sort as unsigned integers (negative floats flipped whole, positive ones
 * by the sign bit). −0 is read as 0, as comparisons read it; NaN goes last.
 */
export function sortedBy(measure: ArrayLike<number>, ks: Uint32Array, descending: boolean): Uint32Array {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  const keys = new Uint32Array(ks.length);
  for (let i = 0; i < ks.length; i++) {
    const v = descending ? -measure[ks[i]] : measure[ks[i]];
    f[0] = v === 0 ? 0 : v;
    // NaN (of either sign) last.
    keys[i] = v !== v ? 0xffffffff : u[0] & 0x80000000 ? ~u[0] >>> 0 : (u[0] | 0x80000000) >>> 0;
  }
  const pos = bucketOrder(keys, ks.length);
  const out = new Uint32Array(ks.length);
  for (let i = 0; i < ks.length; i++) out[i] = ks[pos[i]];
  return out;
}
