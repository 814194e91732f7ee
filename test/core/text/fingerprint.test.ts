import { describe, expect, it } from 'vitest';
import { fingerprint64, normaliseText } from '../../../src/core/text/fingerprint';
import { seededRandom } from '../../../src/core/random';

describe('normaliseText', () => {
  it('folds every run of white space to one space and trims', () => {
    expect(normaliseText('  a \t\n b\r\n\u00a0c  ')).toBe('a b c');
    expect(normaliseText('')).toBe('');
  });
});

describe('fingerprint64', () => {
  it('is 16 lowercase hex digits, also for the empty string', () => {
    for (const s of ['', 'a', 'hello world', '日本語のテキスト', 'x'.repeat(100_000)]) {
      expect(fingerprint64(s)).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('is deterministic (and stable across versions: fingerprints are stored with datasets)', () => {
    const s = 'The quick brown fox jumps over the lazy dog';
    expect(fingerprint64(s)).toBe(fingerprint64(s.slice(0, 20) + s.slice(20)));
    // Pinned: a change here changes every stored fingerprint (re-ingest needed).
    expect(fingerprint64('hello world')).toBe('48fad6a480029e68');
  });

  it('is equal for texts that differ only in white space, after normaliseText', () => {
    const a = normaliseText('  Some   page\ttext\n\nwith\r\nbreaks ');
    const b = normaliseText('Some page text with breaks');
    expect(a).toBe(b);
    expect(fingerprint64(a)).toBe(fingerprint64(b));
    expect(fingerprint64('  Some   page text')).not.toBe(fingerprint64('Some page text'));
  });

  it('counts the line breaks of tidy text as the spaces normaliseText makes', () => {
    expect(fingerprint64('first line\nsecond line')).toBe(fingerprint64('first line second line'));
    expect(fingerprint64('first line\nsecond line')).toBe(
      fingerprint64(normaliseText('first line\nsecond line')),
    );
  });

  it('differs for different texts: one character, order, length, and 20 000 random texts', () => {
    const base = 'Alpha page text about harbor cranes and river barges.';
    const variants = [
      base,
      base.replace('Alpha', 'alpha'),
      base.replace('cranes', 'crane'),
      base + ' ',
      'Alpha text page about harbor cranes and river barges.',
      base.slice(0, -1),
    ];
    expect(new Set(variants.map(fingerprint64)).size).toBe(variants.length);

    const next = seededRandom(42);
    const words = ['dedup', 'crawl', 'page', 'near', 'replica', 'shingle', 'url', 'dust', 'hash', 'text'];
    const texts = new Set<string>();
    while (texts.size < 20_000) {
      const n = 3 + Math.floor(next() * 10);
      texts.add(Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' '));
    }
    const fps = new Set([...texts].map(fingerprint64));
    expect(fps.size).toBe(texts.size);
  });

  it('uses both halves: the two 32-bit lanes are not equal or constant', () => {
    const halves = ['a', 'b', 'abc', 'hello'].map((s) => {
      const f = fingerprint64(s);
      return [f.slice(0, 8), f.slice(8)];
    });
    for (const [h1, h2] of halves) expect(h1).not.toBe(h2);
    expect(new Set(halves.map(([h1]) => h1)).size).toBe(4);
    expect(new Set(halves.map(([, h2]) => h2)).size).toBe(4);
  });
});

/**
 * fingerprint64 as first written (h2 carried as a double between characters): the optimised loop
 * must give the same value for every text, since fingerprints are stored with datasets.
 */
function fingerprintAsWritten(text: string): string {
  let h1 = 0x9747b28c ^ text.length;
  let h2 = 0x85ebca6b ^ text.length;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c === 10) c = 32;
    h1 = Math.imul(h1 ^ c, 0xcc9e2d51);
    h1 = (h1 << 15) | (h1 >>> 17);
    h2 = Math.imul(h2 ^ c, 0x1b873593);
    h2 = (h2 << 13) | (h2 >>> 19);
    h2 = Math.imul(h2, 5) + 0xe6546b64;
  }
  const mix = (h: number) => {
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return h ^ (h >>> 16);
  };
  h1 = mix(h1 ^ h2);
  h2 = mix(h2 ^ h1);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

describe('fingerprint64 against the loop as first written', () => {
  it('is bit-identical on random texts of every kind of code unit', () => {
    const next = seededRandom(7);
    // White space of every kind, ASCII, Latin-1, CJK, surrogates (astral and lone), the top units.
    const pool = [
      9, 10, 11, 12, 13, 32, 0x41, 0x7a, 0xa0, 0xe9, 0x3000, 0x65e5, 0xd83d, 0xde00, 0xfeff, 0xffff,
    ];
    for (let t = 0; t < 3000; t++) {
      const n = Math.floor(next() * (t % 10 === 0 ? 2000 : 40));
      let s = '';
      for (let i = 0; i < n; i++)
        s += String.fromCharCode(
          next() < 0.5 ? pool[Math.floor(next() * pool.length)] : Math.floor(next() * 0x10000),
        );
      expect(fingerprint64(s)).toBe(fingerprintAsWritten(s));
    }
    expect(fingerprint64('')).toBe(fingerprintAsWritten(''));
    expect(fingerprint64('😀 日本語\n')).toBe(fingerprintAsWritten('😀 日本語\n'));
  });
});
