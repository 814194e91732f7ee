/**
 * Shingles and their resemblance (lecture "Computing near similarity": Broder's word w-shingles,
 * [Brod98]; similarity = |A ∩ B| / |A ∪ B|, Jaccard). A document becomes the set of 32-bit hashes of
 * its shingles, kept as a sorted Uint32Array without repeats: compact, transferable between workers,
 * and two of them intersect by one merge.
 */
import { hasCjk, countCjk, regexWords, segmenterWords } from '../text/tokens';
import { combine32, hash32, mix32 } from '../hash';

export interface ShingleOptions {
  /** Words per shingle; the lecture's example uses 4, Broder et al. 1997 used 10; 5 is our default. */
  w: number;
  /** Characters per shingle for text in scripts written without spaces (Chinese, Japanese, Thai). */
  cjkN: number;
}

export const SHINGLE_DEFAULTS: Readonly<ShingleOptions> = { w: 5, cjkN: 5 };

/**
 * Text whose letters are more than this share Chinese/Japanese/Thai/… characters is shingled by
 * characters: word segmentation there comes from ICU dictionaries, which differ between ICU versions
 * (browser vs Node) and split unknown names arbitrarily, while character n-grams are the same
 * everywhere. Below it, a few CJK words in alphabetic text are just more words.
 */
const CJK_SHARE = 0.3;

/** Seeds separating the hash spaces of token hashes, word shingles and character shingles. */
const TOKEN_SEED = 0x5bd1e995;
const WORD_SEED = 0x27d4eb2f;
const CHAR_SEED = 0x165667b1;

const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}\p{M}]+/gu;

/**
 * The shingle set of text: sorted, distinct 32-bit hashes of its word w-shingles (over tokenize's
 * lowercased words) or, where CJK characters dominate, of its character n-grams over letters and
 * digits only (spaces and punctuation such as 。， skipped). Text with fewer than w words (n
 * characters) gives one shingle of all of them, so identical short texts still match; text without
 * words gives the empty set.
 */
export function shingleSet(text: string, opts: Partial<ShingleOptions> = {}): Uint32Array {
  const w = positiveInt(opts.w ?? SHINGLE_DEFAULTS.w, 'w');
  const n = positiveInt(opts.cjkN ?? SHINGLE_DEFAULTS.cjkN, 'cjkN');
  const lower = text.toLowerCase();
  // Same tokens as tokenize(text), without testing for CJK twice on the common path.
  if (!hasCjk(lower)) return wordShingles(regexWords(lower), w);
  const letters = lower.replace(NOT_LETTER_OR_DIGIT, '');
  if (countCjk(letters) > CJK_SHARE * letters.length) return charShingles(letters, n);
  return wordShingles(segmenterWords(lower), w);
}

/**
 * shingleSet(text, opts) from the words tokenize(text) already made (lowercased, no stop words
 * dropped): the engine tokenises each page once for its bag of words and its shingles. Text where CJK
 * characters dominate takes character n-grams (not words); text with a few CJK characters among
 * others has as words Intl.Segmenter's over the lowercased text, which is what tokenize gave too, so
 * the Segmenter (~230 ns a character) no longer runs twice over such pages (514 of docsite's).
 */
export function shingleSetOfWords(
  text: string,
  words: readonly string[],
  opts: Partial<ShingleOptions> = {},
): Uint32Array {
  const w = positiveInt(opts.w ?? SHINGLE_DEFAULTS.w, 'w');
  // Lowercasing maps no character into or out of the scripts hasCjk looks for.
  if (hasCjk(text)) {
    const letters = text.toLowerCase().replace(NOT_LETTER_OR_DIGIT, '');
    if (countCjk(letters) > CJK_SHARE * letters.length)
      return charShingles(letters, positiveInt(opts.cjkN ?? SHINGLE_DEFAULTS.cjkN, 'cjkN'));
  }
  return wordShingles(words, w);
}

function wordShingles(words: readonly string[], w: number): Uint32Array {
  return sortedUnique(wordShingleRun(words, w));
}

/**
 * The hash of each word w-shingle of `words` in text order, repeats kept (shingleSet's values before
 * sorting): where a shingle lies in the text (core/eval/evidence.ts marks the shared words).
 */
export function wordShingleRun(words: readonly string[], w: number): Uint32Array {
  const units = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) units[i] = hash32(words[i], TOKEN_SEED);
  return gramRun(units, units.length, w, WORD_SEED);
}

function charShingles(letters: string, n: number): Uint32Array {
  // Code points, not code units: a CJK Extension B character is one character.
  const units = new Uint32Array(letters.length);
  let len = 0;
  for (let i = 0; i < letters.length; i++) {
    const cp = letters.codePointAt(i) ?? 0;
    if (cp > 0xffff) i++;
    units[len++] = cp;
  }
  return gramSet(units, len, n, CHAR_SEED);
}

/**
 * Hashes every run of g consecutive units (all len of them when len < g) into one 32-bit value, then
 * sorts and removes repeats. The run's length enters the hash, so a short text's single shingle
 * cannot equal a full-length shingle of another text.
 */
function gramSet(units: Uint32Array, len: number, g: number, seed: number): Uint32Array {
  return sortedUnique(gramRun(units, len, g, seed));
}

/** gramSet's hashes in text order, before sorting. */
function gramRun(units: Uint32Array, len: number, g: number, seed: number): Uint32Array {
  if (len === 0) return new Uint32Array(0);
  const width = Math.min(g, len);
  const count = len - width + 1;
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    let h = seed ^ width;
    for (let j = 0; j < width; j++) h = combine32(h, units[i + j]);
    out[i] = mix32(h ^ width);
  }
  return out;
}

/** Sorts in place and drops repeats; copies only when repeats shrank it (keeps buffers tight). */
function sortedUnique(a: Uint32Array): Uint32Array {
  a.sort();
  let m = 0;
  for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[m - 1]) a[m++] = a[i];
  return m === a.length ? a : a.slice(0, m);
}

/**
 * Exact Jaccard resemblance |A ∩ B| / |A ∪ B| of two sorted, repeat-free sets, by one merge.
 * Two empty sets give 0, not 1: 0/0 is undefined, and a page without words carries no evidence of
 * resembling another; counting it as 1 would make every text-less page (images, redirects, failed
 * extractions) one near-duplicate cluster. (The exact-duplicate fingerprint likewise leaves them out.)
 */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  const na = a.length;
  const nb = b.length;
  if (na === 0 || nb === 0) return 0;
  const inter = intersectionSize(a, b);
  return inter / (na + nb - inter);
}

/** |A ∩ B| of two sorted, repeat-free sets, by one merge. */
export function intersectionSize(a: Uint32Array, b: Uint32Array): number {
  const na = a.length;
  const nb = b.length;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < na && j < nb) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      inter++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return inter;
}

function positiveInt(v: number, name: string): number {
  if (!Number.isInteger(v) || v < 1)
    throw new RangeError(`shingle option ${name} must be an integer ≥ 1, got ${v}`);
  return v;
}
