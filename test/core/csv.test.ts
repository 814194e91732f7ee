import { describe, expect, it } from 'vitest';
import {
  delimitedField,
  formatDelimited,
  neutraliseCell,
  parseDelimited,
  parseDelimitedLines,
  restoreCell,
} from '../../src/core/csv';
import { seededRandom, type Rng } from '../../src/core/random';

/** What OWASP's CSV-injection guidance says a spreadsheet cell must not begin with. */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

// Formula starters, the neutralising quote, RFC 4180's specials, digits and a number's signs, and
// text beyond ASCII (accents, CJK, an astral emoji, a bidi override).
const ALPHABET = [
  '=',
  '+',
  '-',
  '@',
  '\t',
  '\r',
  '\n',
  '\r\n',
  "'",
  '"',
  ',',
  ';',
  ' ',
  '0',
  '7',
  '.',
  'e',
  'a',
  'Z',
  '|',
  '!',
  '(',
  'é',
  '中',
  '😀',
  '\u202e',
  'http://x.test/',
];

function randomCell(rng: Rng): string {
  const n = Math.floor(rng() * 9);
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(rng() * ALPHABET.length)];
  return s;
}

function randomRecords(rng: Rng): string[][] {
  const width = 1 + Math.floor(rng() * 5);
  const height = 1 + Math.floor(rng() * 8);
  return Array.from({ length: height }, () => Array.from({ length: width }, () => randomCell(rng)));
}

/** Every raw cell a spreadsheet would read: none may begin like a formula unless it is a plain number. */
function formulaCells(text: string, sep: string): string[] {
  return parseDelimited(text, { sep })
    .flat()
    .filter((c) => FORMULA_START.test(c) && !PLAIN_NUMBER.test(c));
}

describe('CSV codec: formula cells neutralised (OWASP)', () => {
  it('writes a formula-like cell with a leading quote, quoted', () => {
    expect(delimitedField('=HYPERLINK("http://evil.test/","x")')).toBe(
      `"'=HYPERLINK(""http://evil.test/"",""x"")"`,
    );
    expect(delimitedField("+cmd|' /C calc'!A0")).toBe(`"'+cmd|' /C calc'!A0"`);
    expect(delimitedField('-2+3')).toBe(`"'-2+3"`);
    expect(delimitedField('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(delimitedField('\tx')).toBe(`"'\tx"`);
    expect(delimitedField('\rx')).toBe(`"'\rx"`);
    expect(delimitedField('-Infinity')).toBe(`"'-Infinity"`);
  });

  it('leaves plain numbers (the product’s own, or a crawled one a spreadsheet reads the same) as numbers', () => {
    for (const n of ['-0.5', '-3', '+1', '1e-7', '-2.5E+3', '-.5', '0']) expect(delimitedField(n)).toBe(n);
    expect(delimitedField(-0.5)).toBe('-0.5');
    expect(delimitedField(1e-7)).toBe('1e-7');
    expect(
      formatDelimited([
        ['t', 'p'],
        [-0.25, 1],
      ]),
    ).toBe('t,p\n-0.25,1\n');
  });

  it('escapes a cell that already begins with the quote, so restoring gives back exactly what was written', () => {
    expect(neutraliseCell("'=x")).toBe("''=x");
    expect(neutraliseCell("''")).toBe("'''");
    expect(neutraliseCell("'plain")).toBe("'plain");
    expect(neutraliseCell("it's")).toBe("it's");
    for (const s of ["'=x", "''", "'''-", "'plain", "'", '=', '-', 'x'])
      expect(restoreCell(neutraliseCell(s))).toBe(s);
  });

  it('round-trips seeded random records (formula starters, quotes, commas, line breaks, CR, tabs, unicode)', () => {
    const seeds = [...Array.from({ length: 300 }, (_, i) => 20_240_501 + i)];
    if (process.env.CSV_SEED) seeds.push(Number(process.env.CSV_SEED));
    for (const seed of seeds) {
      const rng = seededRandom(seed);
      for (const sep of [',', '\t']) {
        const records = randomRecords(rng);
        const text = formatDelimited(records, sep);
        expect(
          parseDelimited(text, { sep, restore: true }),
          `seed ${seed}, sep ${JSON.stringify(sep)}`,
        ).toEqual(records);
        expect(formulaCells(text, sep), `seed ${seed}: cells a spreadsheet would run`).toEqual([]);
      }
    }
  });

  it('names the line each record starts on (a quoted line break spans lines)', () => {
    const text = formatDelimited([
      ['h1', 'h2'],
      ['a\nb', 'c'],
      ['d', 'e\r\nf\ng'],
      ['h', 'i'],
    ]);
    expect(parseDelimitedLines(text).lines).toEqual([1, 2, 4, 7]);
    expect(parseDelimitedLines('x\r\ny\n\nz').lines).toEqual([1, 2, 3, 4]);
  });

  it('reads without restore what a spreadsheet would see; restore is only for files the product wrote', () => {
    const text = formatDelimited([['=1+1', "'-x"]]);
    expect(parseDelimited(text)).toEqual([["'=1+1", "''-x"]]);
    expect(parseDelimited(text, { restore: true })).toEqual([['=1+1', "'-x"]]);
  });
});
