import { describe, expect, it } from 'vitest';
import { hash32, hash64 } from '../../../src/core/hash';
import {
  SIMHASH_MAX_DISTANCE,
  hamming64,
  simhash64,
  simhashCandidates,
} from '../../../src/core/signatures/simhash';
import { seededRandom, uint32From } from '../../../src/core/random';

/** Deterministic uniform 32-bit integers for test data. */
const uint32s = (seed: number) => uint32From(seededRandom(seed));

/** Popcount one bit at a time: the reference for hamming64. */
function naiveHamming(aHi: number, aLo: number, bHi: number, bLo: number): number {
  let d = 0;
  for (let b = 0; b < 32; b++) d += ((aHi ^ bHi) >>> b) & 1;
  for (let b = 0; b < 32; b++) d += ((aLo ^ bLo) >>> b) & 1;
  return d;
}

describe('hash64', () => {
  it('gives 64 balanced, uncorrelated bits over two lanes', () => {
    const N = 20_000;
    const ones = new Array<number>(64).fill(0);
    let sameBit = 0;
    const seen = new Set<string>();
    for (let i = 0; i < N; i++) {
      const [hi, lo] = hash64(`token-${i}`);
      expect(hi >>> 0).toBe(hi);
      expect(lo >>> 0).toBe(lo);
      seen.add(`${hi}:${lo}`);
      for (let b = 0; b < 32; b++) {
        ones[b] += (hi >>> b) & 1;
        ones[32 + b] += (lo >>> b) & 1;
        sameBit += ((hi ^ lo) >>> b) & 1 ? 0 : 1;
      }
    }
    expect(seen.size).toBe(N);
    // sd of a bit's share is 0.0035 at N = 20k; 0.02 is ~6 sd.
    for (const c of ones) expect(Math.abs(c / N - 0.5)).toBeLessThan(0.02);
    expect(Math.abs(sameBit / (32 * N) - 0.5)).toBeLessThan(0.01);
    expect(hash64('rose')).toEqual(hash64('rose'));
    // The low lane is MurmurHash3 with hash64's fixed seed (documented in hash.ts).
    for (const s of ['', 'a', 'rose', '北京']) expect(hash64(s)[1]).toBe(hash32(s, 0x9747b28c));
    expect(hash64('rose')).not.toEqual(hash64('rosf'));
  });
});

describe('hamming64', () => {
  it('counts differing bits', () => {
    expect(hamming64(0, 0, 0, 0)).toBe(0);
    expect(hamming64(0xffffffff, 0xffffffff, 0, 0)).toBe(64);
    expect(hamming64(0x80000000, 1, 0, 0)).toBe(2);
    expect(hamming64(0xf0f0f0f0, 0, 0x0f0f0f0f, 0)).toBe(32);
  });

  it('equals bit-by-bit counting on random values', () => {
    const next = uint32s(1);
    for (let t = 0; t < 2000; t++) {
      const v = [next(), next(), next(), next()] as const;
      expect(hamming64(...v)).toBe(naiveHamming(...v));
    }
  });
});

describe('simhash64', () => {
  it('hand cases: one feature is its hash; a majority wins each bit; ties give 0', () => {
    const [xh, xl] = hash64('x');
    const [yh, yl] = hash64('y');
    expect(simhash64(['x'])).toEqual([xh, xl]);
    expect(simhash64(['x', 'x', 'y'])).toEqual([xh, xl]); // tf 2 against 1
    // Long runs of one token: every counter of a set bit climbs past 15 (the packed counters' limit).
    expect(simhash64([...new Array<string>(100).fill('x'), ...new Array<string>(99).fill('y')])).toEqual([
      xh,
      xl,
    ]);
    // Two features: a bit is 1 only where both hashes have it (where they differ the sum is 0).
    expect(simhash64(['x', 'y'])).toEqual([(xh & yh) >>> 0, (xl & yl) >>> 0]);
    expect(simhash64([])).toEqual([0, 0]);
  });

  it("equals Charikar's definition computed bit by bit (sign of Σ ±1 over token hashes)", () => {
    const next = uint32s(4);
    for (let t = 0; t < 60; t++) {
      const tokens = Array.from({ length: t * 3 }, () => `t${next() % 40}`); // repeats, lengths 0…177
      const sum = new Array<number>(64).fill(0);
      for (const tok of tokens) {
        const [h, l] = hash64(tok);
        for (let b = 0; b < 32; b++) {
          sum[b] += (h >>> b) & 1 ? 1 : -1;
          sum[32 + b] += (l >>> b) & 1 ? 1 : -1;
        }
      }
      let hi = 0;
      let lo = 0;
      for (let b = 0; b < 32; b++) {
        if (sum[b] > 0) hi |= 1 << b;
        if (sum[32 + b] > 0) lo |= 1 << b;
      }
      expect(simhash64(tokens)).toEqual([hi >>> 0, lo >>> 0]);
    }
  });

  it('ignores token order and rejects unknown weightings', () => {
    expect(simhash64(['a', 'rose', 'is', 'a', 'rose'])).toEqual(simhash64(['rose', 'rose', 'a', 'a', 'is']));
    expect(() => simhash64(['a'], 'idf' as 'tf')).toThrow(RangeError);
  });

  it('puts small edits much closer than unrelated documents', () => {
    const next = uint32s(2);
    const vocab = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const doc = () => Array.from({ length: 500 }, () => vocab[next() % vocab.length]);
    let near = 0;
    let far = 0;
    const T = 50;
    for (let t = 0; t < T; t++) {
      const a = doc();
      const b = a.slice();
      for (let e = 0; e < 5; e++) b[next() % b.length] = vocab[next() % vocab.length]; // 1% edited
      const [ah, al] = simhash64(a);
      const [bh, bl] = simhash64(b);
      const [ch, cl] = simhash64(doc());
      near += hamming64(ah, al, bh, bl);
      far += hamming64(ah, al, ch, cl);
    }
    // Unrelated: a little under 32 of 64 bits, since both documents draw on the same 3,000 words
    // (28 here). 1% edited: ~2.4 bits, within Manku et al.'s k = 3.
    expect(far / T).toBeGreaterThan(24);
    expect(far / T).toBeLessThan(34);
    expect(near / T).toBeLessThan(5);
  });
});

/** All pairs i < j within distance k, by comparing every pair. */
function bruteForce(hi: Uint32Array, lo: Uint32Array, count: number, k: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) if (hamming64(hi[i], lo[i], hi[j], lo[j]) <= k) out.push(`${i},${j}`);
  }
  return out;
}

const pairStrings = (p: Uint32Array) =>
  Array.from({ length: p.length / 2 }, (_, x) => `${p[2 * x]},${p[2 * x + 1]}`);

/** Random fingerprints plus clusters of copies with 0…6 bits flipped (so many pairs sit near k). */
function fingerprints(seed: number, count: number) {
  const next = uint32s(seed);
  const hi = new Uint32Array(count);
  const lo = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    if (i > 0 && next() % 3 === 0) {
      const src = next() % i;
      hi[i] = hi[src];
      lo[i] = lo[src];
      const flips = next() % 7;
      for (let f = 0; f < flips; f++) {
        const bit = next() % 64;
        if (bit < 32) hi[i] ^= 1 << bit;
        else lo[i] ^= 1 << (bit - 32);
      }
    } else {
      hi[i] = next();
      lo[i] = next();
    }
  }
  return { hi, lo };
}

describe('simhashCandidates', () => {
  it.each([0, 1, 2, 3, 4, 5, 7])(
    'equals brute force at maxDistance %i (blocks straddling 32 bits included)',
    (k) => {
      const count = 600;
      const { hi, lo } = fingerprints(10 + k, count);
      const expected = bruteForce(hi, lo, count, k);
      expect(expected.length).toBeGreaterThan(20);
      expect(pairStrings(simhashCandidates(hi, lo, count, k))).toEqual(expected);
    },
  );

  it('defaults to Manku et al.’s k = 3 and reports each pair once, i < j', () => {
    expect(SIMHASH_MAX_DISTANCE).toBe(3);
    const count = 400;
    const { hi, lo } = fingerprints(99, count);
    // Identical fingerprints agree on every block; they must still appear once.
    hi[5] = hi[6] = hi[7];
    lo[5] = lo[6] = lo[7];
    const pairs = simhashCandidates(hi, lo, count);
    const got = pairStrings(pairs);
    expect(new Set(got).size).toBe(got.length);
    for (let x = 0; x < pairs.length; x += 2) expect(pairs[x]).toBeLessThan(pairs[x + 1]);
    expect(got).toEqual(bruteForce(hi, lo, count, 3));
    expect(got).toEqual(expect.arrayContaining(['5,6', '5,7', '6,7']));
  });

  // A reference of the anchored rule as sql/dedup.sql states it: per block, a bucket of up to `full`
  // items gives every pair, a larger one each item with the bucket's `anchors` smallest items; pairs
  // united over the blocks, kept within the distance.
  const anchoredReference = (
    hi: Uint32Array,
    lo: Uint32Array,
    count: number,
    k: number,
    full: number,
    anchors: number,
  ) => {
    const blocks = k + 1;
    const width = (t: number) => Math.floor(64 / blocks) + (t < 64 % blocks ? 1 : 0);
    const bits = (i: number) => BigInt(hi[i]) * 2n ** 32n + BigInt(lo[i]);
    const out = new Set<string>();
    for (let t = 0, start = 0; t < blocks; start += width(t), t++) {
      const buckets = new Map<string, number[]>();
      for (let i = 0; i < count; i++) {
        const key = ((bits(i) >> BigInt(start)) & (2n ** BigInt(width(t)) - 1n)).toString();
        buckets.set(key, [...(buckets.get(key) ?? []), i]);
      }
      for (const b of buckets.values()) {
        const heads = b.length > full ? Math.min(anchors, b.length - 1) : b.length - 1;
        for (let x = 0; x < heads; x++)
          for (let y = x + 1; y < b.length; y++) {
            const [i, j] = [b[x], b[y]];
            let d = 0;
            for (let v = bits(i) ^ bits(j); v > 0n; v >>= 1n) d += Number(v & 1n);
            if (d <= k) out.add(`${i},${j}`);
          }
      }
    }
    return [...out].sort((a, b) => {
      const [a0, a1] = a.split(',').map(Number);
      const [b0, b1] = b.split(',').map(Number);
      return a0 - b0 || a1 - b1;
    });
  };

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`bounds a bucket of near-identical pages by its anchors as the SQL does, seed ${seed}`, () => {
      let s = seed * 2654435761;
      const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 0;
      const count = 300 + (next() % 300);
      const { hi, lo } = fingerprints(seed * 7, count);
      // Two groups of near-identical pages (0–2 bits off a base), larger than the full bucket.
      for (const [from, size] of [
        [10, 60 + (next() % 80)],
        [200, 30 + (next() % 60)],
      ]) {
        for (let i = from; i < Math.min(count, from + size); i++) {
          hi[i] = hi[from];
          lo[i] = lo[from];
          for (let f = 0; f < next() % 3; f++) {
            const bit = next() % 64;
            if (bit < 32) hi[i] ^= 1 << bit;
            else lo[i] ^= 1 << (bit - 32);
          }
        }
      }
      const k = 1 + (next() % 4);
      const full = 20 + (next() % 30);
      const anchors = 1 + (next() % 3);
      const got = pairStrings(simhashCandidates(hi, lo, count, k, { full, anchors }));
      expect(got, `seed ${seed}: k ${k}, full ${full}, anchors ${anchors}`).toEqual(
        anchoredReference(hi, lo, count, k, full, anchors),
      );
      // Linear in the large groups: far fewer pairs than every pair within the distance.
      expect(got.length, `seed ${seed}`).toBeLessThan(bruteForce(hi, lo, count, k).length / 2);
    });
  }

  it('rejects distances outside 0…63', () => {
    const z = new Uint32Array(1);
    expect(() => simhashCandidates(z, z, 1, -1)).toThrow(RangeError);
    expect(() => simhashCandidates(z, z, 1, 64)).toThrow(RangeError);
  });
});

describe('simhashOfHashes (shingle features)', () => {
  it('is equal for equal sets, close for sets differing in a few shingles, far for unrelated ones', async () => {
    const { simhashOfHashes, hamming64 } = await import('../../../src/core/signatures/simhash');
    const base = Uint32Array.from({ length: 400 }, (_, i) => Math.imul(i + 1, 2654435761) >>> 0);
    const near = base.slice();
    for (let i = 0; i < 8; i++) near[i * 50] ^= 0xdeadbeef;
    const far = Uint32Array.from({ length: 400 }, (_, i) => Math.imul(i + 7777, 40503) >>> 0);
    const [ah, al] = simhashOfHashes(base);
    const [bh, bl] = simhashOfHashes(base.slice());
    const [nh, nl] = simhashOfHashes(near);
    const [fh, fl] = simhashOfHashes(far);
    expect(hamming64(ah, al, bh, bl)).toBe(0);
    expect(hamming64(ah, al, nh, nl)).toBeLessThanOrEqual(6);
    expect(hamming64(ah, al, fh, fl)).toBeGreaterThan(16);
  });
});
