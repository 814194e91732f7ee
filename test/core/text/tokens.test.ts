import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ENGLISH_STOP_WORDS,
  SEGMENT_MAX,
  countCjk,
  hasCjk,
  regexOnlyWords,
  regexWords,
  segmenterWords,
  tokenize,
} from '../../../src/core/text/tokens';
import { seededRandom } from '../../../src/core/random';

/** Paragraphs in Latin-script languages, with the punctuation UAX #29 treats specially. */
const PARAGRAPHS = [
  `Crawlers don't fetch the same page twice: "content seen?" is checked with fingerprints or shingles
  (Broder et al., 1997). E.g. the U.S. mirror of example.com served 1,024 copies at 3.14 MB each —
  that's 3,215.36 MB, or ~3.2 GB; see https://www.example.com/path/to/page?id=42&ref=home#top and
  mail user.name@example.co.uk. It’s 10:30 a.m.; O'Reilly's "rock 'n' roll" list has 'tis, o'clock
  and dogs' bones. C++, C#, .NET, node_modules, __init__, x², H₂O, ½ cup, 100%, #hashtag, @user.`,
  `L'homme qu'on appelle « le Père » n'est pas venu aujourd'hui ; il faut d’abord régler 1 234,56 €.
  Ça coûte 12,5 % de plus. Où est l'hôtel-Dieu ? Voilà : c'est l·l, col·lecció, 5e arrondissement.`,
  `Die Straße heißt „Äußere Ringstraße“ – Größe 3,5 m², Öffnungszeiten 8.30–17.00 Uhr, z.B. Mo.–Fr.
  Über 1.000.000 Besucher/Jahr; Dr. Müller's Praxis (Tel. 089/12 34 56).`,
  `¿Dónde está el niño? ¡Qué día! La señora Núñez pagó $1.250,75 por 3 kilos de café en São Paulo;
  Ação, coração e pão. W Łodzi żółć gęślą jaźń. İstanbul'da ılık şırıl şırıl. Tiếng Việt có dấu:
  người Việt Nam, Hà Nội. Ελληνικά: ΣΟΦΟΣ σοφός. Русский текст: съешь же ещё этих мягких булок.`,
  `Korean: 한국어 텍스트, PC방, 1가 and 가나다라; Hebrew: צה"ל ג'ירפה; Arabic: مرحبا ١٢٣ ٢٫٥; soft
  hy\u00adphen, zero\u200bwidth space, bidi \u200emark\u200f, narrow\u202fno-break 10\u202f000.`,
];

describe('regex path agrees with Intl.Segmenter', () => {
  it.each(PARAGRAPHS.map((p, i) => [i, p]))('paragraph %i', (_, p) => {
    expect(regexWords(p)).toEqual(segmenterWords(p));
    expect(regexWords(p.toLowerCase())).toEqual(segmenterWords(p.toLowerCase()));
  });

  it('agrees on every code point outside the Segmenter scripts, in word contexts', () => {
    // One string per code point, contexts separated by spaces (UAX #29 always breaks at spaces).
    // ICU quirk left out: a Hangul syllable followed by a combining mark is not word-like there.
    const diffs: string[] = [];
    for (let cp = 0x20; cp < 0x30000; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue;
      const c = String.fromCodePoint(cp);
      if (hasCjk(c)) continue;
      const t = `a${c}b | 1${c}2 | ${c} | ${c}${c} | x ${c}b ${c}1 z | ש${c}ש | a\u0301${c}b`;
      const a = regexWords(t);
      const b = segmenterWords(t);
      if (a.length !== b.length || a.some((w, i) => w !== b[i])) diffs.push(`U+${cp.toString(16)} in ${t}`);
    }
    expect(diffs).toEqual([]);
  });

  it('keeps UAX #29 words together and splits what it splits', () => {
    expect(regexWords("don't e.g. example.com 3.14 1,000 a:b 10:30 a.1 foo_bar _ x² ½")).toEqual([
      "don't",
      'e.g',
      'example.com',
      '3.14',
      '1,000',
      'a:b',
      '10',
      '30',
      'a',
      '1',
      'foo_bar',
      'x',
    ]);
  });
});

describe('the ASCII scan gives the regex’s words', () => {
  const seed = Number(process.env.TOKENS_SEED ?? Math.floor(Math.random() * 1e9));
  // ASCII word characters and the punctuation the regex joins words across, whitespace, and the
  // characters outside ASCII that change a word (accents, combining marks, format characters, curly
  // apostrophes, Hebrew, Hangul, superscripts, narrow no-break space).
  const ALPHABET = [
    ...'aZz09_\'.:,;"-/ \t\n',
    ...'aaaeee1122',
    'é',
    '\u2019',
    '\u00ad',
    '\u200b',
    '\u0301',
    'א',
    '가',
    '²',
    '\u202f',
    '\u{1d400}',
  ];
  it(`on 5,000 random texts and the paragraphs (seed ${seed}; TOKENS_SEED=… to replay)`, () => {
    const rnd = seededRandom(seed);
    for (const p of PARAGRAPHS) expect(regexWords(p)).toEqual(regexOnlyWords(p));
    for (let n = 0; n < 5000; n++) {
      let t = '';
      const len = Math.floor(rnd() * 40);
      // Mostly ASCII, as most pages are; a text in five gets characters from outside it.
      const pool = rnd() < 0.2 ? ALPHABET.length : ALPHABET.length - 11;
      for (let k = 0; k < len; k++) t += ALPHABET[Math.floor(rnd() * pool)];
      expect(regexWords(t), `seed ${seed}, text ${JSON.stringify(t)}`).toEqual(regexOnlyWords(t));
    }
  });
});

describe('tokenize', () => {
  it('lowercases by default and keeps case on request', () => {
    expect(tokenize('The Quick, Brown FOX!')).toEqual(['the', 'quick', 'brown', 'fox']);
    expect(tokenize('The Quick, Brown FOX!', { lowercase: false })).toEqual(['The', 'Quick', 'Brown', 'FOX']);
  });

  it('drops stop words, compared in lower case', () => {
    expect(ENGLISH_STOP_WORDS.size).toBe(127);
    const stopWords = ENGLISH_STOP_WORDS;
    expect(tokenize('The cat is on the mat', { stopWords })).toEqual(['cat', 'mat']);
    expect(tokenize('The Cat is ON the Mat', { stopWords, lowercase: false })).toEqual(['Cat', 'Mat']);
    expect(tokenize('a rose is a rose', { stopWords: new Set(['rose']) })).toEqual(['a', 'is', 'a']);
  });

  it('gives nothing for text without words', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' — … !? 🙂 ')).toEqual([]);
  });

  it('removes invisible format characters and treats U+200B / U+202F as spaces', () => {
    expect(tokenize('co\u00adoperate')).toEqual(['cooperate']);
    expect(tokenize('\u200eright\u200f to left')).toEqual(['right', 'to', 'left']);
    expect(tokenize('zero\u200bwidth 10\u202f000')).toEqual(['zero', 'width', '10', '000']);
  });

  it('splits Chinese into dictionary words (Segmenter path)', () => {
    const text = '我们今天去北京大学参观。天气很好！';
    const words = tokenize(text);
    expect(words.join('')).toBe('我们今天去北京大学参观天气很好');
    expect(words.length).toBeGreaterThan(3);
    expect(words.length).toBeLessThan(15); // not one token per character
    expect(words.some((w) => w.length >= 2)).toBe(true);
  });

  it('splits Japanese and Thai, and mixes with Latin words', () => {
    expect(tokenize('東京都に住んでいます').join('')).toBe('東京都に住んでいます');
    expect(tokenize('東京都に住んでいます').length).toBeGreaterThan(1);
    const thai = tokenize('สวัสดีครับ ภาษาไทย');
    expect(thai.join('')).toBe('สวัสดีครับภาษาไทย');
    expect(thai.length).toBeGreaterThanOrEqual(3);
    expect(tokenize('Hello 世界, WORLD')).toEqual(['hello', '世界', 'world']);
  });
});

describe('hasCjk', () => {
  it('finds scripts written without spaces', () => {
    for (const t of [
      '北京',
      'カタカナ',
      'ひらがな',
      'ภาษาไทย',
      'ພາສາລາວ',
      'ភាសាខ្មែរ',
      'မြန်မာ',
      'abc 中 def',
      'ｶﾀｶﾅ',
    ]) {
      expect(hasCjk(t), t).toBe(true);
    }
  });

  it('ignores alphabetic scripts, Hangul included', () => {
    for (const t of ['hello', 'café', '한국어', 'Привет', 'مرحبا', 'שלום', 'Ελληνικά', '。，']) {
      expect(hasCjk(t), t).toBe(false);
    }
  });

  it('counts CJK code units', () => {
    expect(countCjk('ab中文c')).toBe(2);
    expect(countCjk('abc')).toBe(0);
  });
});

describe('segmenterWords on long text (bounded pieces: linear time)', () => {
  const CLAUSES = [
    '中华人民共和国是一个位于东亚的国家',
    '我们今天去北京大学参观了图书馆和博物馆',
    '日本語のテキストも少し混ぜておきます',
    'ภาษาไทยก็มีด้วย',
    '搜索引擎需要识别内容相同但网址不同的网页',
  ];
  /** `n` clauses in a fixed order, joined by `sep` ('' = one run with no sentence end at all). */
  const text = (n: number, sep: string) =>
    Array.from({ length: n }, (_, i) => CLAUSES[(i * 7) % CLAUSES.length]).join(sep);
  /** What one Segmenter over the whole text gives: the reference the pieces must reproduce. */
  const whole = (t: string) =>
    [...new Intl.Segmenter(undefined, { granularity: 'word' }).segment(t)]
      .filter((s) => s.isWordLike)
      .map((s) => s.segment);

  afterEach(() => vi.restoreAllMocks());

  it('never hands Intl.Segmenter more than SEGMENT_MAX units, on 1 MB of CJK without a sentence end', () => {
    const big = text(20_000, ''); // ≈ 330,000 characters, ≈ 1 MB of UTF-8
    expect(big.length * 3).toBeGreaterThan(900_000);
    const spy = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    const words = segmenterWords(big);
    expect(spy.mock.calls.length).toBeGreaterThan(big.length / SEGMENT_MAX);
    for (const [input] of spy.mock.calls) expect(input.length).toBeLessThanOrEqual(SEGMENT_MAX);
    // Nothing lost or doubled at the cuts.
    expect(words.join('')).toBe(big);
  });

  it('cuts at sentence ends and line breaks when there are some', () => {
    const t = text(200, '。') + '\n' + text(100, '！');
    const spy = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    segmenterWords(t);
    for (const [input] of spy.mock.calls) {
      expect(input.length).toBeLessThanOrEqual(SEGMENT_MAX);
      if (input !== spy.mock.calls[spy.mock.calls.length - 1][0]) expect(input).toMatch(/[。！\n]$/);
    }
  });

  it('gives the same words as one Segmenter over the whole text', () => {
    for (const t of [
      text(300, ''), // hard cuts only
      text(300, '。'), // sentence ends
      text(300, ' '), // spaces
      'Latin words ' + text(100, '') + ' and more 123.45 words ' + text(100, '、'),
      '😀'.repeat(SEGMENT_MAX) + text(50, ''), // a cut never splits a surrogate pair
    ]) {
      expect(segmenterWords(t)).toEqual(whole(t));
    }
  });

  it('tokenize goes through the bounded path for CJK text', () => {
    const t = text(400, '');
    const expected = whole(t);
    const spy = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    expect(tokenize(t)).toEqual(expected);
    for (const [input] of spy.mock.calls) expect(input.length).toBeLessThanOrEqual(SEGMENT_MAX);
  });
});
