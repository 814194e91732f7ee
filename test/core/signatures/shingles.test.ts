import { describe, expect, it } from 'vitest';
import { hash32, mix32 } from '../../../src/core/hash';
import {
  SHINGLE_DEFAULTS,
  jaccard,
  shingleSet,
  shingleSetOfWords,
} from '../../../src/core/signatures/shingles';
import { seededRandom } from '../../../src/core/random';
import { tokenize } from '../../../src/core/text/tokens';

/** MurmurHash3_x86_32 over bytes, written from smhasher's MurmurHash3.cpp: the reference for hash32. */
function murmur3Bytes(bytes: Uint8Array, seed: number): number {
  let h = seed | 0;
  const blocks = bytes.length >> 2;
  for (let i = 0; i < blocks; i++) {
    let k = bytes[4 * i] | (bytes[4 * i + 1] << 8) | (bytes[4 * i + 2] << 16) | (bytes[4 * i + 3] << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = blocks * 4;
  const rest = bytes.length & 3;
  if (rest > 0) {
    let k = 0;
    if (rest === 3) k ^= bytes[tail + 2] << 16;
    if (rest >= 2) k ^= bytes[tail + 1] << 8;
    k ^= bytes[tail];
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
  }
  return mix32(h ^ bytes.length);
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const utf16le = (s: string) => {
  const b = new Uint8Array(2 * s.length);
  for (let i = 0; i < s.length; i++) {
    b[2 * i] = s.charCodeAt(i) & 0xff;
    b[2 * i + 1] = s.charCodeAt(i) >>> 8;
  }
  return b;
};

/** Sorted, repeat-free union of shingle sets, to state expected sets as unions of one-shingle texts. */
const union = (...sets: Uint32Array[]) => Uint32Array.from(new Set(sets.flatMap((s) => [...s]))).sort();

describe('hash32 (MurmurHash3 x86_32 over UTF-16LE)', () => {
  it('reference implementation matches published MurmurHash3 vectors', () => {
    expect(murmur3Bytes(ascii(''), 0)).toBe(0);
    expect(murmur3Bytes(ascii(''), 1)).toBe(0x514e28b7);
    expect(murmur3Bytes(ascii(''), 0xffffffff)).toBe(0x81f16f39);
    expect(murmur3Bytes(new Uint8Array(4), 0)).toBe(0x2362f9de);
    expect(murmur3Bytes(ascii('Hello, world!'), 1234)).toBe(0xfaf6cdb3);
    expect(murmur3Bytes(ascii('The quick brown fox jumps over the lazy dog'), 0x9747b28c)).toBe(0x2fa826cd);
  });

  it('equals the reference on the UTF-16LE bytes of the string', () => {
    for (const s of [
      '',
      'a',
      'ab',
      'abc',
      'rose',
      'a rose is a rose',
      'café',
      '北京大学',
      '𠀀x',
      'x'.repeat(101),
    ]) {
      for (const seed of [0, 1, 0x9747b28c])
        expect(hash32(s, seed), `${s}/${seed}`).toBe(murmur3Bytes(utf16le(s), seed));
    }
  });

  it('mix32 is fmix32', () => {
    expect(mix32(0)).toBe(0);
    expect(mix32(1)).toBe(0x514e28b7); // = MurmurHash3("", seed 1): fmix32(1 ^ 0)
  });
});

describe('shingleSet', () => {
  const rose = 'a rose is a rose is a rose';

  it('lecture example: w = 4 gives the 3 distinct shingles of "a rose is a rose is a rose"', () => {
    const s = shingleSet(rose, { w: 4 });
    expect(s.length).toBe(3);
    // Each shingle is the single shingle of a text of exactly w words.
    const expected = union(
      shingleSet('a rose is a', { w: 4 }),
      shingleSet('rose is a rose', { w: 4 }),
      shingleSet('is a rose is', { w: 4 }),
    );
    expect([...s]).toEqual([...expected]);
  });

  it('is sorted and repeat-free', () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${(i * 7919) % 37}`);
    const s = shingleSet(words.join(' '), { w: 2 });
    for (let i = 1; i < s.length; i++) expect(s[i]).toBeGreaterThan(s[i - 1]);
  });

  it('counts distinct word w-grams (default w = 5)', () => {
    expect(SHINGLE_DEFAULTS).toEqual({ w: 5, cjkN: 5 });
    const text = 'one two three four five six seven one two three four five';
    expect(shingleSet(text).length).toBe(7); // 8 windows, "one … five" twice
    expect(shingleSet(text, { w: 1 }).length).toBe(7); // 7 distinct words
  });

  it('ignores case and punctuation, not word order', () => {
    expect([...shingleSet('A Rose, is a ROSE!', { w: 2 })]).toEqual([
      ...shingleSet('a rose is a rose', { w: 2 }),
    ]);
    expect(jaccard(shingleSet('a b c d e'), shingleSet('e d c b a'))).toBe(0);
  });

  it('uses tokenize (lowercased) for words', () => {
    const text = 'Don’t STOP: e.g. 3.14 and example.com, co\u00adoperate!';
    const words = tokenize(text);
    const expected = union(
      ...words.map((_, i) => shingleSet(words.slice(i, i + 2).join(' '), { w: 2 })).slice(0, -1),
    );
    expect([...shingleSet(text, { w: 2 })]).toEqual([...expected]);
  });

  it('short texts give one shingle of all their words; empty text gives none', () => {
    expect(shingleSet('a rose', { w: 4 }).length).toBe(1);
    expect(jaccard(shingleSet('a rose', { w: 4 }), shingleSet('A rose.', { w: 4 }))).toBe(1);
    expect(jaccard(shingleSet('a rose', { w: 4 }), shingleSet('a rose is', { w: 4 }))).toBe(0);
    expect(shingleSet('').length).toBe(0);
    expect(shingleSet(' … — !! ').length).toBe(0);
  });

  it('shingles CJK-dominated text by character n-grams over letters and digits', () => {
    // 11 letters → 7 distinct 5-grams; punctuation and spaces do not count.
    const zh = '今天天气很好。我们去公园。';
    expect(shingleSet(zh).length).toBe(7);
    expect([...shingleSet('今天 天气，很好！我们 去公园')]).toEqual([...shingleSet(zh)]);
    expect(shingleSet(zh, { cjkN: 2 }).length).toBe(10);
    // Supplementary-plane characters count as one character each.
    expect(shingleSet('𠀀𠀁𠀂', { cjkN: 2 }).length).toBe(2);
    // Shorter than n: one shingle.
    expect(shingleSet('你好', { cjkN: 5 }).length).toBe(1);
  });

  it('uses word shingles when CJK characters are 30% of the letters or fewer', () => {
    const mixed = 'we visited the city of 北京 last summer with friends'; // 2 of 39 letters
    const words = tokenize(mixed);
    expect(words).toContain('北京');
    expect(shingleSet(mixed, { w: 3 }).length).toBe(words.length - 2);
    expect(shingleSet('北京北京北京 ab', { w: 3, cjkN: 2 }).length).toBe(4); // 北京 京北 京a ab
  });

  it('rejects bad options', () => {
    expect(() => shingleSet('a b', { w: 0 })).toThrow(RangeError);
    expect(() => shingleSet('a b', { cjkN: 1.5 })).toThrow(RangeError);
  });
});

describe('shingleSetOfWords', () => {
  it('equals shingleSet on random texts of words, numbers, accents, case, punctuation and CJK', () => {
    const seed = Number(process.env.SHINGLE_SEED ?? 20261127);
    const rng = seededRandom(seed);
    const pieces = [
      'Git',
      'commit',
      'the',
      'naïve',
      'café',
      'ÉCOLE',
      '3.14',
      '2024-05-01',
      "don't",
      'e-mail',
      'x86_64',
      'İstanbul',
      'ǅemal',
      'ß',
      '—',
      ',',
      '.',
      '!',
      '(',
      ')',
      '\n',
      '  ',
      '数据',
      '重复',
      '。',
      'データ',
      'ไทย',
    ];
    let cjk = 0;
    for (let trial = 0; trial < 500; trial++) {
      // Some texts without any CJK piece (the path that reuses the words), some with.
      const withCjk = rng() < 0.3;
      const n = Math.floor(rng() * 60);
      const parts: string[] = [];
      for (let k = 0; k < n; k++) {
        const p = pieces[Math.floor(rng() * (withCjk ? pieces.length : pieces.length - 5))];
        parts.push(p);
      }
      const text = parts.join(rng() < 0.5 ? ' ' : '');
      if (/[\u3000-\u9fff\u0e00-\u0e7f]/.test(text)) cjk++;
      for (const w of [1, 3, 5]) {
        const opts = { w, cjkN: 4 };
        expect(
          [...shingleSetOfWords(text, tokenize(text), opts)],
          `seed ${seed} trial ${trial} w ${w} (SHINGLE_SEED=… to replay): ${JSON.stringify(text)}`,
        ).toEqual([...shingleSet(text, opts)]);
      }
    }
    expect(cjk).toBeGreaterThan(50);
  });
});

describe('jaccard', () => {
  const s = (t: string) => shingleSet(t, { w: 4 });

  it('matches hand-computed values on the lecture example', () => {
    // A = {a rose is a, rose is a rose, is a rose is}; B = {a rose is a, rose is a rose};
    // C = {a rose is a, rose is a flower}.
    const A = s('a rose is a rose is a rose');
    const B = s('a rose is a rose');
    const C = s('a rose is a flower');
    expect(jaccard(A, B)).toBeCloseTo(2 / 3, 12);
    expect(jaccard(A, C)).toBeCloseTo(1 / 4, 12);
    expect(jaccard(B, C)).toBeCloseTo(1 / 3, 12);
    expect(jaccard(A, A)).toBe(1);
    expect(jaccard(A, B)).toBe(jaccard(B, A));
  });

  it('is 0 when either set is empty, both included', () => {
    const empty = new Uint32Array(0);
    expect(jaccard(empty, empty)).toBe(0);
    expect(jaccard(empty, s('a rose'))).toBe(0);
  });

  it('equals |A ∩ B| / |A ∪ B| computed with Sets on random data', () => {
    const rng = seededRandom(42);
    const rnd = (n: number) => Math.floor(rng() * n);
    for (let t = 0; t < 200; t++) {
      const a = Uint32Array.from(new Set(Array.from({ length: rnd(60) }, () => rnd(100)))).sort();
      const b = Uint32Array.from(new Set(Array.from({ length: rnd(60) }, () => rnd(100)))).sort();
      const inter = [...a].filter((x) => b.includes(x)).length;
      const uni = new Set([...a, ...b]).size;
      expect(jaccard(a, b)).toBe(uni === 0 || a.length === 0 || b.length === 0 ? 0 : inter / uni);
    }
  });
});
