/**
 * Simhash (Charikar, "Similarity estimation techniques from rounding algorithms", STOC 2002, as used
 * for web pages by Manku, Jain, Das Sarma, "Detecting near-duplicates for web crawling", WWW 2007):
 * every feature hashes to 64 bits; bit i of the fingerprint is 1 when the features whose hash has bit
 * i set outweigh those where it is clear. Similar documents get fingerprints at small Hamming
 * distance; Manku et al. call 64-bit fingerprints within distance 3 near-duplicates (§2, §4).
 */
import { PairList, bucketOrder, combine32, hash64Into, mix32 } from '../hash';

/** Manku et al. §4: for 8B pages and 64-bit fingerprints, k = 3 gave the best precision/recall. */
export const SIMHASH_MAX_DISTANCE = 3;

const ones = new Int32Array(64);
const nibbles = new Int32Array(8);
const pair = new Uint32Array(2);

/**
 * 64-bit simhash of a token sequence as [hi, lo] unsigned halves. Features are the tokens, hashed by
 * hash64; weight 'tf' counts each occurrence once, so a token's weight is its term frequency (Manku
 * §2 weights features; idf weights would need corpus statistics). Bit b is 1 when more than half of
 * the tokens' hashes have it (Charikar's sign of Σ ±w); ties and no tokens give 0 bits.
 */
export function simhash64(tokens: readonly string[], weights: 'tf' = 'tf'): [hi: number, lo: number] {
  if (weights !== 'tf') throw new RangeError(`unknown simhash weighting ${String(weights)}`);
  return majority(tokens.length, (t) => {
    hash64Into(tokens[t], pair);
    return pair;
  });
}

/**
 * 64-bit simhash whose features are hashed shingles (each once, weight 1) — what the engine uses.
 * Single words as features are dominated by common words: among 100k unrelated generated pages,
 * tf-weighted word simhash put 999 pairs within distance 3, and on the sample crawl most page pairs.
 * Shingles carry word order and rare words, as Manku et al.'s features do.
 */
export function simhashOfHashes(hashes: Uint32Array): [hi: number, lo: number] {
  return majority(hashes.length, (t) => {
    pair[0] = mix32((hashes[t] ^ 0x2545f491) >>> 0);
    pair[1] = mix32((hashes[t] ^ 0x9e3779b9) >>> 0);
    return pair;
  });
}

/**
 * Charikar's sign of Σ ±w over n features whose 64-bit hashes `feature(t)` gives as [hi, lo]: bit b
 * is 1 when more than half of the features have it. SWAR counting: nibbles[j] holds eight 4-bit
 * counters, for bits j, j + 4, …, j + 28 of a half, flushed before any counter can pass 15 — ~16
 * operations per feature instead of 64 × 4.
 */
function majority(n: number, feature: (t: number) => Uint32Array): [hi: number, lo: number] {
  ones.fill(0);
  nibbles.fill(0);
  for (let t = 0; t < n; t++) {
    const f = feature(t);
    const hi = f[0];
    const lo = f[1];
    for (let j = 0; j < 4; j++) {
      nibbles[j] += (hi >>> j) & 0x11111111;
      nibbles[4 + j] += (lo >>> j) & 0x11111111;
    }
    if (t % 15 === 14 || t === n - 1) flushNibbles();
  }
  let hi = 0;
  let lo = 0;
  for (let b = 0; b < 32; b++) {
    if (2 * ones[b] > n) hi |= 1 << b;
    if (2 * ones[32 + b] > n) lo |= 1 << b;
  }
  return [hi >>> 0, lo >>> 0];
}

/** Adds the packed nibble counters into ones[] (bit b of hi at b, of lo at 32 + b) and clears them. */
function flushNibbles(): void {
  for (let j = 0; j < 4; j++) {
    const h = nibbles[j];
    const l = nibbles[4 + j];
    for (let q = 0; q < 8; q++) {
      ones[j + 4 * q] += (h >>> (4 * q)) & 0xf;
      ones[32 + j + 4 * q] += (l >>> (4 * q)) & 0xf;
    }
    nibbles[j] = 0;
    nibbles[4 + j] = 0;
  }
}

/** Set bits of a 32-bit value (Hacker's Delight §5-1, SWAR popcount). */
function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Hamming distance of two 64-bit values given as 32-bit halves. */
export function hamming64(aHi: number, aLo: number, bHi: number, bLo: number): number {
  return popcount32(aHi ^ bHi) + popcount32(aLo ^ bLo);
}

/**
 * Bits [start, start + width) of the 64-bit value hi:lo (bit 0 = lowest bit of lo), width ≤ 32.
 * A block may straddle the halves when 64 does not divide evenly (e.g. k = 5: six blocks of 10–11).
 */
function blockBits(hi: number, lo: number, start: number, width: number): number {
  const mask = width >= 32 ? -1 : (1 << width) - 1;
  if (start >= 32) return ((hi >>> (start - 32)) & mask) >>> 0;
  if (start + width <= 32) return ((lo >>> start) & mask) >>> 0;
  const lowBits = 32 - start;
  return (((lo >>> start) | (hi << lowBits)) & mask) >>> 0;
}

/**
 * Pairs of fingerprints within Hamming distance maxDistance, by Manku et al.'s block method (§3):
 * cut the 64 bits into maxDistance + 1 blocks; two fingerprints that differ in at most maxDistance
 * bits agree exactly on at least one block (pigeonhole). So items are bucketed by each block in turn
 * and only bucket-mates are compared. A pair is examined only in the first block it agrees on, so it
 * is reported once. Returns flat [i0, j0, i1, j1, …], i < j, sorted by (i, j).
 */
export function simhashCandidates(
  hi: Uint32Array,
  lo: Uint32Array,
  count: number,
  maxDistance = SIMHASH_MAX_DISTANCE,
  /**
   * A bucket of more than `full` items (near-identical pages agree on every block) compares each item
   * with the bucket's first `anchors` items only, as lshCandidates and the batch's SQL bound theirs
   * (lsh.ts LSH_BUCKET): about anchors × size pairs, not size²/2. Infinity: every pair.
   */
  bucket: { full: number; anchors: number } = { full: Infinity, anchors: 0 },
): Uint32Array {
  if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > 63) {
    throw new RangeError(`maxDistance must be an integer in 0…63, got ${maxDistance}`);
  }
  const blocks = maxDistance + 1;
  // One block (k = 0) would be 64 bits wide: bucket by a 32-bit hash of it; the distance check
  // below rejects the rare collision.
  const values = new Uint32Array(count * blocks);
  for (let i = 0; i < count; i++) {
    if (blocks === 1) {
      values[i] = mix32(combine32(hi[i], lo[i]));
      continue;
    }
    for (let t = 0, start = 0; t < blocks; t++) {
      const width = blockWidth(t, blocks);
      values[i * blocks + t] = blockBits(hi[i], lo[i], start, width);
      start += width;
    }
  }
  const keys = new Uint32Array(count);
  const out = new PairList(count);
  // Once a block had a large bucket, pairs are no longer skipped for agreeing on an earlier block (the
  // list drops repeats): what the earlier block's anchors left out is found here, as the SQL finds it.
  let anchoredBefore = false;
  for (let t = 0; t < blocks; t++) {
    for (let i = 0; i < count; i++) keys[i] = values[i * blocks + t];
    const order = bucketOrder(keys, count);
    for (let s = 0; s < count;) {
      let e = s + 1;
      while (e < count && keys[order[e]] === keys[order[s]]) e++;
      // Stable sort from ascending positions: within a bucket order[x] < order[y] for x < y. A large
      // bucket: each item with the first `anchors` items only. A pair agreeing on an earlier block was
      // looked at there — unless that block's bucket was large, where it may not have been.
      const large = e - s > bucket.full;
      const heads = large ? Math.min(bucket.anchors, e - s - 1) : e - s - 1;
      for (let x = s; x < s + heads; x++) {
        const i = order[x];
        for (let y = x + 1; y < e; y++) {
          const j = order[y];
          if (!anchoredBefore && agreeBefore(values, i * blocks, j * blocks, t)) continue;
          if (hamming64(hi[i], lo[i], hi[j], lo[j]) <= maxDistance) out.push(i, j);
        }
      }
      if (large) anchoredBefore = true;
      s = e;
    }
  }
  return out.toPairs();
}

/**
 * The block values simhashCandidates buckets a fingerprint by, for maxDistance: maxDistance + 1 blocks
 * (their bits, ≤ 32 each), or for maxDistance 0 the whole 64 bits as one (null: the caller keys it).
 * Two fingerprints within maxDistance agree on at least one block (the batch joins on them).
 */
export function simhashBlocks(hi: number, lo: number, maxDistance: number): number[] | null {
  const blocks = maxDistance + 1;
  if (blocks === 1) return null;
  const out: number[] = [];
  for (let t = 0, start = 0; t < blocks; t++) {
    const width = blockWidth(t, blocks);
    out.push(blockBits(hi, lo, start, width));
    start += width;
  }
  return out;
}

/** Widths of `blocks` near-equal blocks covering 64 bits; the first 64 mod blocks are one wider. */
function blockWidth(t: number, blocks: number): number {
  return Math.floor(64 / blocks) + (t < 64 % blocks ? 1 : 0);
}

/** Whether two items agree on some block before t (then that block already reported them). */
function agreeBefore(values: Uint32Array, a: number, b: number, t: number): boolean {
  for (let s = 0; s < t; s++) if (values[a + s] === values[b + s]) return true;
  return false;
}
