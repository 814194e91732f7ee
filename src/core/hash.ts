/**
 * The core's integer hashes, written once: shingles, MinHash and SimHash (signatures/), template
 * lines (text/), DUST's URL ids and validation split (dust/), batch band keys (batch/), the revisit
 * originals' keys (ingest/origins.ts). Non-cryptographic: these only need to spread values evenly over
 * 32 (or 64) bits, fast, identically in Node and in Web Workers. (The text fingerprint,
 * text/fingerprint.ts, is its own function: it is stored with every page and in the batch's Parquet,
 * so its bits never change.)
 *
 * hash32 is MurmurHash3 x86_32 (Austin Appleby, public domain; smhasher/src/MurmurHash3.cpp) over the
 * string's UTF-16 code units read as little-endian bytes: two code units make one 32-bit block, so
 * hash32(s, seed) equals MurmurHash3_x86_32 of the UTF-16LE encoding of s (tested against byte-wise
 * reference vectors). No TextEncoder, no allocation.
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
/** Second lane's constants (xxHash32's PRIME32_1/PRIME32_2/PRIME32_3), so the lanes mix differently. */
const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
/** Seeds of hash64's lanes: any two distinct constants; fixed so signatures are reproducible. */
const SEED_HI = 0x2545f491;
const SEED_LO = 0x9747b28c;

/** MurmurHash3's fmix32 finaliser: a bijection on 32 bits with full avalanche. Unsigned result. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** MurmurHash3 x86_32 of the UTF-16LE code units of s; unsigned 32-bit. */
export function hash32(s: string, seed = 0): number {
  const n = s.length;
  const end = n & ~1;
  let h = seed | 0;
  for (let i = 0; i < end; i += 2) {
    let k = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (n & 1) {
    // Murmur's 2-byte tail: mixed into h without the block's rotate-multiply-add.
    let k = Math.imul(s.charCodeAt(end), C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
  }
  return mix32(h ^ (n * 2));
}

/**
 * hash32 of the string whose UTF-16 code units are units[0, len): callers that build a normalised form
 * code unit by code unit (template lines) hash it without making the string.
 */
export function hash32Units(units: Uint16Array, len: number, seed = 0): number {
  const end = len & ~1;
  let h = seed | 0;
  for (let i = 0; i < end; i += 2) {
    let k = units[i] | (units[i + 1] << 16);
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (len & 1) {
    let k = Math.imul(units[end], C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
  }
  return mix32(h ^ (len * 2));
}

/**
 * Combines a 32-bit value into a running hash h (Murmur3's block step). Used to hash sequences of
 * integers (a shingle's token hashes, an LSH band's rows) without building strings.
 */
export function combine32(h: number, k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, C2);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/**
 * 64-bit hash as two 32-bit lanes written to out[offset] (high) and out[offset + 1] (low), one pass
 * over s and no allocation: simhash calls this once per token. The low lane is hash32(s, SEED_LO); the
 * high lane mixes each code unit with xxHash32-style constants and rotations, so a collision in one
 * lane says nothing about the other (Charikar's simhash wants 64 independent-looking bits).
 */
export function hash64Into(s: string, out: Uint32Array, offset = 0): void {
  const n = s.length;
  const end = n & ~1;
  let lo = SEED_LO;
  let hi = SEED_HI;
  for (let i = 0; i < end; i += 2) {
    const c = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    let k = Math.imul(c, C1);
    k = (k << 15) | (k >>> 17);
    lo ^= Math.imul(k, C2);
    lo = (lo << 13) | (lo >>> 19);
    lo = (Math.imul(lo, 5) + 0xe6546b64) | 0;
    hi = (hi + Math.imul(c, P2)) | 0;
    hi = (hi << 13) | (hi >>> 19);
    hi = Math.imul(hi, P1);
  }
  if (n & 1) {
    const c = s.charCodeAt(end);
    let k = Math.imul(c, C1);
    k = (k << 15) | (k >>> 17);
    lo ^= Math.imul(k, C2);
    hi = (hi + Math.imul(c, P3)) | 0;
    hi = Math.imul((hi << 17) | (hi >>> 15), P1);
  }
  out[offset] = mix32(hi ^ Math.imul(n, P3));
  out[offset + 1] = mix32(lo ^ (n * 2));
}

const scratch = new Uint32Array(2);

/** 64-bit hash of s as [hi, lo] unsigned 32-bit halves (see hash64Into). */
export function hash64(s: string): [hi: number, lo: number] {
  hash64Into(s, scratch);
  return [scratch[0], scratch[1]];
}

/*
 * Bucketing by 32-bit keys, shared by minhash's LSH bands and simhash's blocks: a stable radix sort
 * instead of a Map of arrays, so 100k items cost four typed arrays and no per-item objects.
 */

/** Positions 0…n−1 ordered by keys[position] (LSD radix sort, two 16-bit digits, stable). */
export function bucketOrder(keys: Uint32Array, n: number): Uint32Array {
  let order = new Uint32Array(n);
  let next = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const starts = new Uint32Array(0x10000);
  for (let shift = 0; shift < 32; shift += 16) {
    starts.fill(0);
    for (let i = 0; i < n; i++) starts[(keys[i] >>> shift) & 0xffff]++;
    let sum = 0;
    for (let d = 0; d < 0x10000; d++) {
      const c = starts[d];
      starts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const p = order[i];
      next[starts[(keys[p] >>> shift) & 0xffff]++] = p;
    }
    [order, next] = [next, order];
  }
  return order;
}

/** Growing list of item pairs i < j (count items), returned sorted and without repeats. */
export class PairList {
  private codes = new Float64Array(1024);
  private n = 0;
  private readonly count: number;

  constructor(count: number) {
    this.count = count;
  }

  push(i: number, j: number): void {
    if (this.n === this.codes.length) {
      const grown = new Float64Array(this.codes.length * 2);
      grown.set(this.codes);
      this.codes = grown;
    }
    // i·count + j is exact in a double while count² < 2^53 (count < 94 million).
    this.codes[this.n++] = i * this.count + j;
  }

  /** Flat [i0, j0, i1, j1, …] sorted by (i, j). */
  toPairs(): Uint32Array {
    const codes = this.codes.subarray(0, this.n).sort();
    let m = 0;
    for (let x = 0; x < codes.length; x++) if (x === 0 || codes[x] !== codes[m - 1]) codes[m++] = codes[x];
    const pairs = new Uint32Array(2 * m);
    for (let x = 0; x < m; x++) {
      const i = Math.floor(codes[x] / this.count);
      pairs[2 * x] = i;
      pairs[2 * x + 1] = codes[x] - i * this.count;
    }
    return pairs;
  }
}
