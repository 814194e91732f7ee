import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base32, sha1, sha1Digest } from '../../../src/core/text/sha1';
import { base32Reference, randomBytes, referenceSha1Digest, utf8Bytes } from '../helpers';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('sha1', () => {
  it('matches the FIPS 180 test vectors', () => {
    expect(hex(sha1(utf8Bytes('')))).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(hex(sha1(utf8Bytes('abc')))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(hex(sha1(utf8Bytes('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '84983e441c3bd26ebaae4aa1f95129e5e54670f1',
    );
    expect(hex(sha1(new Uint8Array(1_000_000).fill(0x61)))).toBe('34aa973cd4c4daa4f61eeb2bdbad27316534016f');
  });

  it('matches node:crypto at every length around the padding boundaries', () => {
    const data = randomBytes(200, 99);
    for (let n = 0; n <= 200; n++) {
      const part = data.subarray(0, n);
      expect(hex(sha1(part)), `length ${n}`).toBe(createHash('sha1').update(part).digest('hex'));
    }
  });

  it('matches node:crypto on 1 MB of random bytes', () => {
    const data = randomBytes(1 << 20, 2024);
    expect(hex(sha1(data))).toBe(createHash('sha1').update(data).digest('hex'));
  });

  it('hashes a view by its own bytes, not its whole buffer', () => {
    const big = randomBytes(4096, 5);
    const view = big.subarray(100, 1100);
    expect(hex(sha1(view))).toBe(createHash('sha1').update(view).digest('hex'));
  });
});

describe('base32 and sha1Digest', () => {
  it('encodes the RFC 4648 vectors (without padding)', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [input, out] of vectors) expect(base32(utf8Bytes(input))).toBe(out);
  });

  it('agrees with an independent bit-by-bit base32', () => {
    for (let n = 0; n < 45; n++) {
      const b = randomBytes(n, n + 1);
      expect(base32(b)).toBe(base32Reference(b));
    }
  });

  it('writes WARC-style digests: "abc" → sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5', () => {
    const abc = utf8Bytes('abc');
    expect(referenceSha1Digest(abc)).toBe('sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5');
    expect(sha1Digest(abc)).toBe('sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5');
    const data = randomBytes(1 << 20, 7);
    expect(sha1Digest(data)).toBe(referenceSha1Digest(data));
    expect(sha1Digest(data)).toMatch(/^sha1:[A-Z2-7]{32}$/);
  });
});
