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
