import { describe, expect, it } from 'vitest';
import { tidyText } from '../../../src/core/text/tidy';
import { seededRandom } from '../../../src/core/random';

/** tidyText as it was before the class table (a branch per character): the reference. */
const SPACE = new Uint8Array(0x3001);
for (const c of [9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]) SPACE[c] = 1;
for (let c = 0x2000; c <= 0x200a; c++) SPACE[c] = 1;
function tidyReference(s: string): string {
  let out = '';
  let keep = -1;
  let wordEnd = 0;
  let runStart = 0;
  let inWord = false;
  let newline = false;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if ((c > 0x20 && c < 0xa0) || !((c <= 0x3000 && SPACE[c] === 1) || c === 0xfeff)) {
      if (!inWord) {
        inWord = true;
        if (keep < 0) keep = i;
        else if (i - runStart !== 1 || s.charCodeAt(runStart) !== (newline ? 10 : 32)) {
          out += s.slice(keep, wordEnd) + (newline ? '\n' : ' ');
          keep = i;
        }
      }
      continue;
    }
    if (inWord) {
      inWord = false;
      wordEnd = i;
      runStart = i;
      newline = false;
    }
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) newline = true;
  }
  if (inWord) wordEnd = n;
  if (keep < 0) return '';
  return out === '' && keep === 0 && wordEnd === n ? s : out + s.slice(keep, wordEnd);
}

/** Every code unit JS's \s matches, and the ones next to them. */
const WHITE = [9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff];
for (let c = 0x2000; c <= 0x200a; c++) WHITE.push(c);
const NEAR = [
  8, 14, 31, 33, 0x9f, 0xa1, 0x167f, 0x1681, 0x1fff, 0x200b, 0x202e, 0x2030, 0x3001, 0xfefe, 0xff00,
];

describe('tidyText', () => {
  it('folds, trims and drops empty lines', () => {
    expect(tidyText('  a \t b \n\n  c\r\nd\u2028e  ')).toBe('a b\nc\nd\ne');
    expect(tidyText('')).toBe('');
    expect(tidyText(' \n\t ')).toBe('');
    expect(tidyText('a\n')).toBe('a');
    expect(tidyText('\na')).toBe('a');
    expect(tidyText('a b\nc')).toBe('a b\nc');
    expect(tidyText('日本\u3000語 😀')).toBe('日本 語 😀');
  });

  it('is the character-by-character loop, on every code unit and random mixes of white space', () => {
    const differing: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const s of [ch, `a${ch}b`, `a ${ch}b`, `a${ch}\nb`, `${ch}a${ch}`])
        if (tidyText(s) !== tidyReference(s)) differing.push(s);
    }
    expect(differing).toEqual([]);
    const next = seededRandom(11);
    const pick = (xs: number[]) => xs[Math.floor(next() * xs.length)];
    for (let t = 0; t < 5000; t++) {
      const n = Math.floor(next() * (t % 20 === 0 ? 3000 : 30));
      const units: number[] = [];
      for (let i = 0; i < n; i++) {
        const r = next();
        // White space of all kinds, tidy separators, ASCII, CJK, surrogate pairs, near misses.
        if (r < 0.25) units.push(pick(WHITE));
        else if (r < 0.4) units.push(pick([32, 10]));
        else if (r < 0.55) units.push(pick(NEAR));
        else if (r < 0.65) units.push(0xd83d, 0xde00 + Math.floor(next() * 64));
        else if (r < 0.8) units.push(0x4e00 + Math.floor(next() * 0x5000));
        else units.push(0x61 + Math.floor(next() * 26));
      }
      const s = String.fromCharCode(...units);
      expect(tidyText(s)).toBe(tidyReference(s));
    }
  });
});
