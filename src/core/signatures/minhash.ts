/**
 * MinHash signatures (Broder 1997, "On the resemblance and containment of documents"): for a random
 * permutation π of the shingle space, P[min π(A) = min π(B)] = J(A, B), so the share of equal minima
 * over k permutations estimates the Jaccard resemblance. LSH banding of the signatures is lsh.ts.
 */
import { mix32 } from '../hash';

export interface MinHashOptions {
  /** Hash functions k per signature; 128 as datasketch's MinHash (num_perm) defaults to. */
  permutations: number;
  /** Seed of the hash family; signatures compare only when made with the same seed. */
  seed: number;
}

export const MINHASH_DEFAULTS: Readonly<MinHashOptions> = { permutations: 128, seed: 1 };

/** Value of every slot of an empty set's signature (the minimum over nothing). */
export const EMPTY_SLOT = 0xffffffff;

interface HashFamily {
  /** Salt of the pre-mix y = fmix32(x ^ premix). */
  premix: number;
  /** Odd multipliers a_i and offsets b_i (top bit flipped, see minhashSignature). */
  a: Int32Array;
  b: Int32Array;
}

const families = new Map<string, HashFamily>();

/**
 * The k hash functions h_i(x) = a_i·y + b_i mod 2^32 with y = fmix32(x ^ premix): multiply-add
 * hashing (Dietzfelbinger, STACS 1996) on pre-mixed input. Odd a_i make each h_i a bijection, a
 * permutation of the 32-bit shingle space as Broder's argument wants. The pre-mix matters: on
 * structured input (runs of consecutive feature ids) multiply-add alone is biased (Dahlgaard,
 * Knudsen, Thorup, "Practical hash functions for similarity estimation…", NIPS 2017); after fmix32
 * the estimator's mean and spread match the binomial J ± sqrt(J(1−J)/k) (tested). One multiply-add
 * per slot and shingle is a third of the work of fmix32(x ^ salt_i). Parameters come from a
 * splitmix-style walk over the seed.
 */
function hashFamily(permutations: number, seed: number): HashFamily {
  const key = `${permutations}:${seed}`;
  let family = families.get(key);
  if (!family) {
    let state = mix32(seed ^ 0x6a09e667);
    const next = (): number => mix32((state = (state + 0x9e3779b9) | 0));
    family = { premix: next(), a: new Int32Array(permutations), b: new Int32Array(permutations) };
    for (let i = 0; i < permutations; i++) {
      family.a[i] = next() | 1;
      family.b[i] = next() ^ 0x80000000;
    }
    families.set(key, family);
  }
  return family;
}

/** Pre-mixed shingles of the current call; grown, never shrunk (one per worker). */
let mixed = new Int32Array(1024);

/**
 * MinHash signature of a shingle set (shingleSet's output, or any 32-bit feature hashes): slot i is
 * min over x of h_i(x), unsigned; an empty set gives EMPTY_SLOT everywhere. Written to
 * into[offset … offset + k) when given, so many signatures can live in one Uint32Array; returns the
 * written view.
 */
export function minhashSignature(
  shingles: Uint32Array,
  opts: Partial<MinHashOptions> = {},
  into?: Uint32Array,
  offset = 0,
): Uint32Array {
  const k = opts.permutations ?? MINHASH_DEFAULTS.permutations;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`permutations must be an integer ≥ 1, got ${k}`);
  const { premix, a, b } = hashFamily(k, opts.seed ?? MINHASH_DEFAULTS.seed);
  const out = into ? into.subarray(offset, offset + k) : new Uint32Array(k);
  if (out.length !== k) throw new RangeError(`signature needs ${k} slots at offset ${offset}`);
  const n = shingles.length;
  if (mixed.length < n) mixed = new Int32Array(Math.max(n, 2 * mixed.length));
  const y = mixed;
  for (let i = 0; i < n; i++) y[i] = mix32(shingles[i] ^ premix) | 0;
  // b_i has its top bit flipped, so h_i is compared as a signed int32 in unsigned order and V8 stays
  // in int32 arithmetic; four slots per pass over the shingles keep four independent chains busy.
  const MAX = 0x7fffffff;
  let p = 0;
  for (; p + 4 <= k; p += 4) {
    const a0 = a[p],
      a1 = a[p + 1],
      a2 = a[p + 2],
      a3 = a[p + 3];
    const b0 = b[p],
      b1 = b[p + 1],
      b2 = b[p + 2],
      b3 = b[p + 3];
    let m0 = MAX,
      m1 = MAX,
      m2 = MAX,
      m3 = MAX;
    for (let i = 0; i < n; i++) {
      const v = y[i];
      const h0 = (Math.imul(v, a0) + b0) | 0;
      const h1 = (Math.imul(v, a1) + b1) | 0;
      const h2 = (Math.imul(v, a2) + b2) | 0;
      const h3 = (Math.imul(v, a3) + b3) | 0;
      if (h0 < m0) m0 = h0;
      if (h1 < m1) m1 = h1;
      if (h2 < m2) m2 = h2;
      if (h3 < m3) m3 = h3;
    }
    out[p] = m0 ^ 0x80000000;
    out[p + 1] = m1 ^ 0x80000000;
    out[p + 2] = m2 ^ 0x80000000;
    out[p + 3] = m3 ^ 0x80000000;
  }
  for (; p < k; p++) {
    let m = MAX;
    for (let i = 0; i < n; i++) {
      const h = (Math.imul(y[i], a[p]) + b[p]) | 0;
      if (h < m) m = h;
    }
    out[p] = m ^ 0x80000000;
  }
  return out;
}

/**
 * Estimated Jaccard resemblance: the share of slots where two signatures agree. Signatures are read
 * at aOffset / bOffset, so both can sit in one large array. 0 when either is an empty set's
 * signature, as shingles.ts's jaccard defines J with an empty set.
 */
export function estimateJaccard(
  a: Uint32Array,
  b: Uint32Array,
  aOffset = 0,
  bOffset = 0,
  permutations = Math.min(a.length - aOffset, b.length - bOffset),
): number {
  if (permutations <= 0) return 0;
  let equal = 0;
  let aEmpty = true;
  let bEmpty = true;
  for (let i = 0; i < permutations; i++) {
    const x = a[aOffset + i];
    const y = b[bOffset + i];
    if (x === y) equal++;
    if (x !== EMPTY_SLOT) aEmpty = false;
    if (y !== EMPTY_SLOT) bEmpty = false;
  }
  return aEmpty || bEmpty ? 0 : equal / permutations;
}
