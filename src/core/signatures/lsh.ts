/**
 * LSH banding of MinHash signatures (minhash.ts; Leskovec, Rajaraman, Ullman, Mining of Massive
 * Datasets §3.4): b bands of r rows; two sets become candidates when all rows of some band agree, with
 * probability 1 − (1 − s^r)^b at resemblance s.
 */
import { PairList, bucketOrder, combine32, mix32 } from '../hash';
import { EMPTY_SLOT } from './minhash';

/** P[candidate] for resemblance s with b bands of r rows: MMDS §3.4.2's S-curve 1 − (1 − s^r)^b. */
export function sCurve(s: number, bands: number, rows: number): number {
  return 1 - Math.pow(1 - Math.pow(s, rows), bands);
}

/** ∫ f over [lo, hi] by composite Simpson with 512 panels (the integrands are smooth polynomials). */
function integrate(f: (s: number) => number, lo: number, hi: number): number {
  const n = 512;
  const h = (hi - lo) / n;
  let sum = f(lo) + f(hi);
  for (let i = 1; i < n; i++) sum += f(lo + i * h) * (i % 2 === 1 ? 4 : 2);
  return (sum * h) / 3;
}

const bandChoices = new Map<string, { bands: number; rows: number }>();

/**
 * Bands b and rows r (b·r ≤ permutations) minimising fp·∫₀ᵗ S(s) ds + fn·∫ₜ¹ (1 − S(s)) ds, the
 * weighted areas of false positives below the threshold t and false negatives above it: datasketch's
 * MinHashLSH._optimal_param (ekzhu/datasketch, lsh.py), same search order and tie rule. 128
 * permutations at t = 0.8 give b = 9, r = 13 (S(0.8) ≈ 0.40).
 */
export function chooseBands(
  permutations: number,
  threshold = 0.8,
  weights: { fp: number; fn: number } = { fp: 0.5, fn: 0.5 },
): { bands: number; rows: number } {
  if (!(threshold > 0 && threshold < 1)) {
    throw new RangeError(`LSH threshold must be in (0, 1), got ${threshold}`);
  }
  // ~0.1 s for 128 permutations (600 (b, r) pairs × 2 integrals), so answers are remembered.
  const key = `${permutations}:${threshold}:${weights.fp}:${weights.fn}`;
  const known = bandChoices.get(key);
  if (known) return { ...known };
  let best = Infinity;
  let opt = { bands: 1, rows: 1 };
  for (let b = 1; b <= permutations; b++) {
    for (let r = 1; r <= Math.floor(permutations / b); r++) {
      const fp = integrate((s) => sCurve(s, b, r), 0, threshold);
      const fn = integrate((s) => 1 - sCurve(s, b, r), threshold, 1);
      const error = fp * weights.fp + fn * weights.fn;
      if (error < best) {
        best = error;
        opt = { bands: b, rows: r };
      }
    }
  }
  bandChoices.set(key, opt);
  return { ...opt };
}

/**
 * Probability with which LSH must propose a pair at the lowest Jaccard a slider allows: 0.99, so a
 * pair at the minimum is missed once in a hundred and a pair 0.1 above it far less often (1 − S(s)
 * falls steeply above the point where S first reaches 0.99).
 */
export const LSH_RECALL = 0.99;

/**
 * Bands b and rows r (b·r ≤ permutations) whose S-curve reaches `recall` at resemblance `minimum`, so
 * every pair at or above the slider's lowest value is a candidate with probability ≥ recall (MMDS
 * §3.4.3: the threshold of a banding sits near (1/b)^(1/r), and the curve must be placed left of the
 * lowest value wanted, not on it). Among those, the most rows (the steepest curve: fewest candidates
 * below the minimum), then the fewest bands. 128 permutations: J ≥ 0.3 → 49 × 2, 0.5 → 35 × 3,
 * 0.8 → 16 × 6 (chooseBands' 9 × 13 for 0.8 proposes a pair at exactly 0.8 with probability 0.40).
 */
export function bandsForMinimum(
  permutations: number,
  minimum: number,
  recall = LSH_RECALL,
): { bands: number; rows: number } {
  if (!(minimum > 0 && minimum < 1)) throw new RangeError(`LSH minimum must be in (0, 1), got ${minimum}`);
  if (!(recall > 0 && recall < 1)) throw new RangeError(`LSH recall must be in (0, 1), got ${recall}`);
  for (let r = permutations; r >= 1; r--) {
    const sr = Math.pow(minimum, r);
    if (sr <= 0) continue;
    let b = Math.max(1, Math.ceil(Math.log(1 - recall) / Math.log(1 - sr)));
    // Far more bands than the permutations allow (a steep curve at a low minimum): fewer rows.
    if ((b - 1) * r > permutations) continue;
    // The logarithms round; the S-curve itself decides.
    while (b > 1 && sCurve(minimum, b - 1, r) >= recall) b--;
    while (b * r <= permutations && sCurve(minimum, b, r) < recall) b++;
    if (b * r <= permutations) return { bands: b, rows: r };
  }
  // Even one row per band cannot reach the recall: every slot its own band is the most LSH can do.
  return { bands: permutations, rows: 1 };
}

/**
 * The lowest resemblance that b bands of r rows propose with probability ≥ recall: S⁻¹(recall) =
 * (1 − (1 − recall)^(1/b))^(1/r). Below it a slider's results are incomplete.
 */
export function lshFloor(bands: number, rows: number, recall = LSH_RECALL): number {
  return Math.pow(1 - Math.pow(1 - recall, 1 / bands), 1 / rows);
}

export interface LshOptions {
  /** Buckets of at most this many items propose every pair; default LSH_BUCKET.full. */
  fullBucket?: number;
  /** A larger bucket proposes each item with its first `anchors` items only; default LSH_BUCKET.anchors. */
  anchors?: number;
}

/**
 * Verification bounded per bucket, as NeMo Curator's anchor documents and text-dedup's bucket minimum
 * bound it: a bucket of s > full items gives about anchors·s pairs, not s²/2, and none is skipped. Every
 * item is still compared with the bucket's anchors, so a group of near-duplicates stays connected; what
 * is lost is a pair of two non-anchors alike while neither is like an anchor (and found in no smaller
 * bucket of another band). 100 was chosen on one generated group of 5,000 near-identical pages (the
 * batch join's worst case: 1.3 s and 0.76 GB instead of 46 s and 3.3 GB) and docsite; checked on a
 * generated 20,000-page corpus, the sample and IANA's real WARC: not one accepted pair or cluster
 * changes there even at 10 (`npm run bench:batch -- --worst 5000 --no-scale`).
 */
export const LSH_BUCKET = { full: 100, anchors: 2 } as const;

export interface LshResult {
  /** Candidate pairs, flat [i0, j0, i1, j1, …], i < j, each pair once, sorted by (i, j). */
  pairs: Uint32Array;
  /** Buckets of more than `fullBucket` items, verified against their anchors, summed over bands. */
  anchoredBuckets: number;
}

/**
 * Items (signature i at signatures[i·permutations]) that agree on all rows of at least one band.
 * Per band, rows hash to a 32-bit key and items are radix-sorted by key; a bucket's items are then
 * checked row by row, so a key collision never makes a pair. Empty sets' signatures are left out
 * (J with an empty set is 0). A bucket of more than `fullBucket` items pairs each item with its
 * `anchors` smallest items only (the batch join does the same, sql/dedup.sql).
 */
export function lshCandidates(
  signatures: Uint32Array,
  count: number,
  permutations: number,
  bands: number,
  rows: number,
  opts: LshOptions = {},
): LshResult {
  const fullBucket = opts.fullBucket ?? LSH_BUCKET.full;
  const anchors = opts.anchors ?? LSH_BUCKET.anchors;
  if (bands * rows > permutations)
    throw new RangeError(`${bands} bands × ${rows} rows exceed ${permutations} slots`);
  if (signatures.length < count * permutations)
    throw new RangeError('signatures shorter than count × permutations');
  const items = new Uint32Array(count);
  let m = 0;
  for (let i = 0; i < count; i++) if (!isEmpty(signatures, i * permutations, permutations)) items[m++] = i;
  const keys = new Uint32Array(m);
  const out = new PairList(count);
  let anchoredBuckets = 0;
  const member = new Uint32Array(m);
  const groupOf = new Uint32Array(m);
  const groupRep = new Uint32Array(m);
  const groupLen = new Uint32Array(m);
  for (let band = 0; band < bands; band++) {
    const first = band * rows;
    for (let a = 0; a < m; a++) {
      const base = items[a] * permutations + first;
      let h = 0x3c6ef372 ^ band;
      for (let j = 0; j < rows; j++) h = combine32(h, signatures[base + j]);
      keys[a] = mix32(h ^ rows);
    }
    const order = bucketOrder(keys, m);
    for (let s = 0; s < m;) {
      let e = s + 1;
      while (e < m && keys[order[e]] === keys[order[s]]) e++;
      if (e - s > 1) {
        // The bucket's groups of items with equal rows (a 32-bit key may collide: then there are
        // several), each ascending (the sort is stable over ascending items).
        let groups = 0;
        for (let x = s; x < e; x++) {
          const i = items[order[x]];
          let g = 0;
          while (
            g < groups &&
            !sameRows(signatures, groupRep[g] * permutations + first, i * permutations + first, rows)
          )
            g++;
          if (g === groups) {
            groupRep[groups] = i;
            groupLen[groups++] = 0;
          }
          groupOf[x - s] = g;
          groupLen[g]++;
        }
        for (let g = 0; g < groups; g++) {
          if (groupLen[g] < 2) continue;
          let n = 0;
          for (let x = s; x < e; x++) if (groupOf[x - s] === g) member[n++] = items[order[x]];
          // Small groups: every pair; large ones: each item with the group's first `anchors` items.
          const heads = n > fullBucket ? Math.min(anchors, n - 1) : n - 1;
          if (n > fullBucket) anchoredBuckets++;
          for (let x = 0; x < heads; x++) for (let y = x + 1; y < n; y++) out.push(member[x], member[y]);
        }
      }
      s = e;
    }
  }
  return { pairs: out.toPairs(), anchoredBuckets };
}

function isEmpty(sig: Uint32Array, base: number, k: number): boolean {
  for (let i = 0; i < k; i++) if (sig[base + i] !== EMPTY_SLOT) return false;
  return true;
}

function sameRows(sig: Uint32Array, a: number, b: number, rows: number): boolean {
  for (let j = 0; j < rows; j++) if (sig[a + j] !== sig[b + j]) return false;
  return true;
}
