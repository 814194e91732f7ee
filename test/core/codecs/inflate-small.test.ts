/**
 * The small-member inflate (src/core/codecs/inflate-small.ts) against zlib and fflate: on seeded random
 * inputs of every kind, deflated by zlib at every level and strategy, it gives zlib's bytes; on streams cut
 * short or damaged it answers null, or — when it answers — the bytes fflate gives for the same stream
 * (what the read used before).
 */
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { inflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { inflateSmall } from '../../../src/core/codecs/inflate-small';
import { seededRandom, type Rng } from '../../../src/core/random';

const SEED = Number(process.env.INFLATE_SEED ?? 20261128);

/** Bytes of a kind real members hold: text of a small vocabulary, random bytes, long runs, or a mix. */
function input(rnd: Rng): Uint8Array {
  const n = Math.floor(rnd() ** 3 * 200_000);
  const kind = Math.floor(rnd() * 4);
  const out = new Uint8Array(n);
  const words = Array.from({ length: 50 }, () =>
    Array.from({ length: 1 + Math.floor(rnd() * 9) }, () => 97 + Math.floor(rnd() * 26)),
  );
  for (let i = 0; i < n;) {
    const k = kind === 3 ? Math.floor(rnd() * 3) : kind;
    if (k === 0) {
      for (const c of words[Math.floor(rnd() * words.length)]) if (i < n) out[i++] = c;
      if (i < n) out[i++] = rnd() < 0.1 ? 10 : 32;
    } else if (k === 1) out[i++] = Math.floor(rnd() * 256);
    else {
      const b = Math.floor(rnd() * 256);
      for (let r = Math.floor(rnd() * 300); r > 0 && i < n; r--) out[i++] = b;
    }
  }
  return out;
}

const STRATEGIES = [
  constants.Z_DEFAULT_STRATEGY,
  constants.Z_FILTERED,
  constants.Z_HUFFMAN_ONLY,
  constants.Z_RLE,
  constants.Z_FIXED,
];

function deflate(data: Uint8Array, rnd: Rng): Uint8Array {
  return new Uint8Array(
    deflateRawSync(data, {
      level: Math.floor(rnd() * 10),
      strategy: STRATEGIES[Math.floor(rnd() * STRATEGIES.length)],
      memLevel: 1 + Math.floor(rnd() * 9),
      windowBits: 9 + Math.floor(rnd() * 7),
    }),
  );
}

function fflateOut(stream: Uint8Array, size: number): Uint8Array | 'throws' {
  try {
    return inflateSync(stream, { out: new Uint8Array(size) });
  } catch {
    return 'throws';
  }
}

describe(`inflateSmall (INFLATE_SEED=${SEED})`, () => {
  it('gives zlib’s bytes for streams zlib wrote, at every level and strategy, with a trailer after them', () => {
    const rnd = seededRandom(SEED);
    for (let t = 0; t < 400; t++) {
      const data = input(rnd);
      const stream = deflate(data, rnd);
      const trailer = Uint8Array.from({ length: 8 }, () => Math.floor(rnd() * 256));
      const member = new Uint8Array(stream.length + 8);
      member.set(stream);
      member.set(trailer, stream.length);
      const got = inflateSmall(member, new Uint8Array(data.length + 1));
      expect(got, `case ${t} (seed ${SEED}): ${data.length} bytes`).not.toBeNull();
      expect(Buffer.from(got!).equals(Buffer.from(inflateRawSync(stream))), `case ${t} (seed ${SEED})`).toBe(
        true,
      );
    }
  });

  it('answers null for a stream cut short or an output that does not fit', () => {
    const rnd = seededRandom(SEED + 1);
    for (let t = 0; t < 200; t++) {
      const data = input(rnd);
      if (data.length < 10) continue;
      const stream = deflate(data, rnd);
      const cut = Math.floor(rnd() * stream.length);
      expect(
        inflateSmall(stream.subarray(0, cut), new Uint8Array(data.length + 1)),
        `case ${t} cut at ${cut} (seed ${SEED})`,
      ).toBeNull();
      expect(
        inflateSmall(stream, new Uint8Array(data.length - 1)),
        `case ${t} small out (seed ${SEED})`,
      ).toBeNull();
    }
  });

  it('on damaged streams answers null or what fflate gives', () => {
    const rnd = seededRandom(SEED + 2);
    let answered = 0;
    for (let t = 0; t < 600; t++) {
      const data = input(rnd).subarray(0, 20_000);
      const stream = deflate(data, rnd).slice();
      for (let f = 1 + Math.floor(rnd() * 3); f > 0; f--)
        stream[Math.floor(rnd() * stream.length)] ^= 1 << Math.floor(rnd() * 8);
      const size = data.length + 1 + Math.floor(rnd() * 100);
      const got = inflateSmall(stream, new Uint8Array(size));
      if (got === null) continue;
      answered++;
      const ref = fflateOut(stream, size);
      expect(ref, `case ${t} (seed ${SEED})`).not.toBe('throws');
      expect(Buffer.from(got).equals(Buffer.from(ref as Uint8Array)), `case ${t} (seed ${SEED})`).toBe(true);
    }
    expect(answered).toBeGreaterThan(0);
  });

  it('reads stored, fixed and dynamic blocks, and a stream of an empty input', () => {
    for (const [level, strategy] of [
      [0, constants.Z_DEFAULT_STRATEGY],
      [6, constants.Z_FIXED],
      [9, constants.Z_DEFAULT_STRATEGY],
    ]) {
      for (const data of [
        new Uint8Array(0),
        new TextEncoder().encode('<p>hello, hello, hello</p>'.repeat(50)),
      ]) {
        const stream = new Uint8Array(deflateRawSync(data, { level, strategy }));
        const got = inflateSmall(stream, new Uint8Array(data.length + 1));
        expect(got && Buffer.from(got).equals(Buffer.from(data))).toBe(true);
      }
    }
  });
});
