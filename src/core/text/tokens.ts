/**
 * Unicode-aware word tokens: the "words" of the lecture's word shingles (Broder 1997, [Brod98]).
 *
 * Words are what Unicode's word-boundary rules (UAX #29) call words: Intl.Segmenter's isWordLike
 * segments, which also splits Chinese, Japanese, Thai, Lao, Khmer and Myanmar text, written without
 * spaces, by ICU's dictionaries. Segmenter costs ~30× a regex here (Node 20, 300-word pages), so
 * text without those scripts takes a regex that reproduces UAX #29 as ICU applies it (checked code
 * point by code point against Segmenter in test/core/text/tokens.test.ts).
 */

export interface TokenOptions {
  /** Fold case (String.prototype.toLowerCase, locale-independent); default true. */
  lowercase?: boolean;
  /** Tokens to drop, compared in lower case; default none. */
  stopWords?: ReadonlySet<string>;
}

/**
 * Scripts written without spaces between words, which only the Segmenter's dictionaries can split
 * (plus the Common-script kana marks UAX #29 counts as Katakana). Hangul is not among them: Korean
 * puts spaces between words, and the regex reproduces how ICU treats Hangul syllables.
 */
const NO_SPACE_SCRIPT =
  /[\p{Ideographic}\u3031-\u3035\u309b\u309c\u30a0\u30fc\uff70\uff9e\uff9f\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

const NO_SPACE_SCRIPT_G = new RegExp(NO_SPACE_SCRIPT.source, 'gu');

/** True when text has a character of a script written without spaces (Chinese, Japanese, Thai, …). */
export function hasCjk(text: string): boolean {
  return NO_SPACE_SCRIPT.test(text);
}

/** How many UTF-16 code units of text belong to the scripts hasCjk looks for. */
export function countCjk(text: string): number {
  return text.length - text.replace(NO_SPACE_SCRIPT_G, '').length;
}

/**
 * Cleaned before either path: format characters (\p{Cf}: soft hyphens, zero-width joiners, bidi
 * marks) are invisible typesetting hints, so "co\u00ADoperate" must be the word "cooperate" (UAX #29
 * WB4 keeps them inside the word, which would make it a different token); U+200B (zero-width space)
 * and U+202F (narrow no-break space, French "10 000") become spaces, which is what they mean.
 */
const INVISIBLE = /[\p{Cf}\u202f]/gu;
const invisible = (c: string): string => (c === '\u200b' || c === '\u202f' ? ' ' : '');

/*
 * The regex path, after UAX #29 (Unicode 17, as ICU 78 implements it): a word starts with a letter,
 * a decimal digit or a connector ("_", ExtendNumLet, which alone is no word) and goes on through those
 * and combining marks (WB4, WB5–WB13b); MidLetter/MidNumLet punctuation joins two letters ("don't",
 * "e.g", "example.com", "a:b", "l·l"; WB6/WB7), MidNum/MidNumLet two digits ("3.14", "1,000";
 * WB11/WB12); Hebrew letters also take '"' between them and a trailing "'" (WB7a–c). \p{Nd}, not
 * \p{N}: "x²" and "½" are not UAX #29 numbers. ICU keeps Hangul syllables (not jamo) apart from
 * other letters and punctuation ("PC방" is "PC", "방"), so they form words of their own. ALETTER_EXTRA: ALetter characters
 * outside \p{L} (modifier symbols, enclosed letters, letter-like numerals). The test compares both
 * paths on every code point outside the Segmenter scripts.
 */
const HANGUL = '\\uac00-\\ud7a3';
const ALETTER_EXTRA =
  '\\p{Nl}\\u00b8\\u02c2-\\u02c5\\u02d2-\\u02d7\\u02de\\u02df\\u02e5-\\u02eb\\u02ed\\u02ef-\\u02ff' +
  '\\u055a-\\u055c\\u055e\\u058a\\u05f3\\u066b\\u19da\\u19de\\u19df\\u1aa0-\\u1aa6\\u1aa8-\\u1aad' +
  '\\u24b6-\\u24e9\\ua708-\\ua716\\ua720\\ua721\\ua789\\ua78a\\uaade\\uaadf\\uab5b' +
  '\\u{1173a}\\u{1173b}\\u{1173f}\\u{1f130}-\\u{1f149}\\u{1f150}-\\u{1f169}\\u{1f170}-\\u{1f189}';
/** Letters that join across MidLetter: \p{L} and ALetter extras, without Hangul. */
const LETTER = `[[\\p{L}${ALETTER_EXTRA}]--[${HANGUL}]]`;
const DIGIT = '\\p{Nd}';
/** Extend (WB4): combining marks and emoji skin-tone modifiers. */
const EXTEND = '[\\p{M}\\u{1f3fb}-\\u{1f3ff}]';
const BODY = `[${LETTER}${DIGIT}\\p{Pc}${EXTEND}]`;
const MID_LETTER =
  "['.:\\u00b7\\u0387\\u055f\\u05f4\\u2018\\u2019\\u2024\\u2027\\ufe13\\ufe52\\ufe55\\uff07\\uff0e\\uff1a]";
const MID_NUM =
  "[',.;\\u037e\\u0589\\u060c\\u060d\\u066c\\u07f8\\u2018\\u2019\\u2024\\u2044\\ufe50\\ufe52\\ufe54\\uff07\\uff0c\\uff0e\\uff1b]";
const HEBREW = '\\p{Script=Hebrew}';
const WORD_RE = new RegExp(
  `[${HANGUL}]+` +
    `|(?:[${LETTER}${DIGIT}]|\\p{Pc}(?=${BODY}))${BODY}*` +
    `(?:(?:(?<=${LETTER}${EXTEND}*)${MID_LETTER}(?=${LETTER})` +
    `|(?<=${DIGIT}${EXTEND}*)${MID_NUM}(?=${DIGIT})` +
    `|(?<=${HEBREW}${EXTEND}*)"(?=${HEBREW}))${BODY}+)*` +
    `(?:(?<=${HEBREW}${EXTEND}*)')?`,
  // v: set subtraction in LETTER (Node 20, Chrome 112, Firefox 116, Safari 17).
  'gv',
);

let segmenter: Intl.Segmenter | undefined;

/**
 * The longest string handed to Intl.Segmenter at once (UTF-16 code units). ICU's dictionary break
 * for CJK grows quadratically with the length of a run in Node 20's ICU (a real page with a single
 * 「。」 took 17.8 s in the CLI, a 600 KB page 208 s; the same file 0.9 s in Chromium). Sentences
 * are far shorter than this, so nearly every piece ends at a sentence end; the same pieces are cut
 * in the browser and in Node, so both give the same words.
 */
export const SEGMENT_MAX = 512;
/** At a hard cut (no safe place in SEGMENT_MAX), the words of the last this-many units are redone. */
const CARRY = 32;

/**
 * Where a piece may end without changing any word: after whitespace (UAX #29 breaks around it,
 * WB3a–WB3d) or a CJK sentence end or ideographic punctuation, none of which joins words
 * (no MidLetter or MidNum among them) and each of which ends a dictionary run in ICU.
 */
function isSafeEnd(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x3000 || // ideographic space
    (c >= 0x3001 && c <= 0x3002) || // 、。
    (c >= 0x3008 && c <= 0x3011) || // 〈〉《》「」『』【】
    c === 0xff01 || // ！
    c === 0xff1f || // ？
    c === 0xff08 ||
    c === 0xff09 || // （）
    c === 0x2028 ||
    c === 0x2029
  );
}

/** End of the piece that starts at `start`: after the last safe end within SEGMENT_MAX, or -1. */
function safeEnd(text: string, start: number): number {
  if (text.length - start <= SEGMENT_MAX) return text.length;
  for (let i = start + SEGMENT_MAX - 1; i > start; i--) if (isSafeEnd(text.charCodeAt(i))) return i + 1;
  return -1;
}

/**
 * Words by Intl.Segmenter (UAX #29 plus ICU dictionaries), as written: no case folding. The text is
 * segmented in pieces of at most SEGMENT_MAX units, so time grows linearly with its length.
 */
export function segmenterWords(text: string): string[] {
  // One Segmenter for the module: constructing one costs more than segmenting a short page.
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  const seg = segmenter;
  const src = clean(text);
  const words: string[] = [];
  let start = 0;
  while (start < src.length) {
    const end = safeEnd(src, start);
    if (end >= 0) {
      for (const s of seg.segment(src.slice(start, end))) if (s.isWordLike) words.push(s.segment);
      start = end;
      continue;
    }
    // No safe place (a long run of CJK without punctuation): cut anyway, keep the words that end
    // CARRY units before the cut, and segment again from there, so the dictionary sees each word
    // with context on both sides. Never between the halves of a surrogate pair.
    let cut = start + SEGMENT_MAX;
    const c = src.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut--;
    const piece = src.slice(start, cut);
    let resume = 0;
    const kept: string[] = [];
    for (const s of seg.segment(piece)) {
      if (s.index > 0 && s.index <= piece.length - CARRY) {
        words.push(...kept);
        kept.length = 0;
        resume = s.index;
      }
      if (s.isWordLike) kept.push(s.segment);
    }
    if (resume === 0) {
      // One segment over the whole piece (no break in it at all): nothing to redo.
      words.push(...kept);
      start = cut;
    } else start += resume;
  }
  return words;
}

/** Words by the UAX #29 regex (the fast path; exact only for text without hasCjk scripts). */
export function regexWords(text: string): string[] {
  const words: string[] = [];
  asciiWords(text, 0, text.length, words);
  return words;
}

/** WORD_RE's words of the whole text, without the ASCII scan: the reference regexWords is tested against. */
export function regexOnlyWords(text: string): string[] {
  return clean(text).match(WORD_RE) ?? [];
}

/** The regex's words of one stretch of text, cleaned first. */
function regexStretch(text: string, words: string[]): void {
  const found = clean(text).match(WORD_RE);
  if (found) for (const w of found) words.push(w);
}

/** 1: an ASCII letter, 2: an ASCII digit, 4: "_" (\p{Pc}); 0: anything else below 128. */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++)
  ASCII_CLASS[c] =
    (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
      ? 1
      : c >= 0x30 && c <= 0x39
        ? 2
        : c === 0x5f
          ? 4
          : 0;
/** ' . : join two letters (MidLetter, MidNumLet); ' , . ; two digits (MidNum, MidNumLet). */
const isMidLetter = (c: number) => c === 0x27 || c === 0x2e || c === 0x3a;
const isMidNum = (c: number) => c === 0x27 || c === 0x2c || c === 0x2e || c === 0x3b;
/** ASCII whitespace: no word of UAX #29 (nor of WORD_RE) holds one, so words never cross it. */
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/**
 * WORD_RE's words of text[from, to), read code unit by code unit while the text is ASCII (31 of 35 ns
 * a character of docsite's pages went to the regex's Unicode sets and lookbehinds): a word is a
 * letter or digit, or "_" before another word character, then word characters, joined across ' . :
 * between two letters and ' , . ; between two digits. A stretch between two ASCII whitespace
 * characters that holds any other character is handed to the regex whole (with clean()), so every
 * rule outside ASCII (combining marks, format characters, Hebrew, Hangul, curly apostrophes) is the
 * regex's own. Equal to WORD_RE on any text (test/core/text/tokens.test.ts, random texts).
 */
function asciiWords(text: string, from: number, to: number, words: string[]): void {
  let i = from;
  // Where the current whitespace-free stretch started, and how many words it has given so far.
  let stretch = from;
  let given = words.length;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c >= 128) {
      // Back to the stretch's start: the regex reads it whole, up to the next ASCII whitespace.
      words.length = given;
      let end = i + 1;
      while (end < to && !isSpace(text.charCodeAt(end))) end++;
      regexStretch(text.slice(stretch, end), words);
      i = end;
      continue;
    }
    if (isSpace(c)) {
      i++;
      stretch = i;
      given = words.length;
      continue;
    }
    const k = ASCII_CLASS[c];
    const next = i + 1 < to ? text.charCodeAt(i + 1) : -1;
    if (k === 0 || (k === 4 && !(next >= 0 && next < 128 && ASCII_CLASS[next] !== 0))) {
      // Not a word's start: "_" needs a word character after it (a non-ASCII one sends the stretch
      // to the regex when the scan reaches it).
      i++;
      continue;
    }
    const start = i;
    let last = c;
    i++;
    for (;;) {
      while (i < to) {
        const d = text.charCodeAt(i);
        if (d >= 128 || ASCII_CLASS[d] === 0) break;
        last = d;
        i++;
      }
      if (i + 1 >= to) break;
      const mid = text.charCodeAt(i);
      const after = text.charCodeAt(i + 1);
      if (after >= 128) break;
      const lk = ASCII_CLASS[last];
      const ak = ASCII_CLASS[after];
      if ((lk === 1 && ak === 1 && isMidLetter(mid)) || (lk === 2 && ak === 2 && isMidNum(mid))) i++;
      else break;
    }
    words.push(text.slice(start, i));
  }
}

function clean(text: string): string {
  return text.replace(INVISIBLE, invisible);
}

/** Word tokens of text, lowercased unless opts.lowercase is false, stop words dropped. */
export function tokenize(text: string, opts: TokenOptions = {}): string[] {
  const lowercase = opts.lowercase ?? true;
  const source = lowercase ? text.toLowerCase() : text;
  const words = hasCjk(source) ? segmenterWords(source) : regexWords(source);
  const stop = opts.stopWords;
  if (!stop || stop.size === 0) return words;
  let n = 0;
  for (const w of words) if (!stop.has(lowercase ? w : w.toLowerCase())) words[n++] = w;
  words.length = n;
  return words;
}

/**
 * The classic 127-word English stop list of NLTK (nltk_data corpora/stopwords/english, as shipped
 * until 2018), itself from the Snowball project's English list. "s", "t", "don" are fragments of
 * tokenisers that split at apostrophes; kept for fidelity, harmless here.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her ' +
    'hers herself it its itself they them their theirs themselves what which who whom this that these ' +
    'those am is are was were be been being have has had having do does did doing a an the and but if ' +
    'or because as until while of at by for with about against between into through during before ' +
    'after above below to from up down in out on off over under again further then once here there ' +
    'when where why how all any both each few more most other some such no nor not only own same so ' +
    'than too very s t can will just don should now'
  ).split(' '),
);
