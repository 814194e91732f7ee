/**
 * Tidy text: white space folded the way the workbench compares texts (tidyText), the class table of
 * white space it reads (WS, and NOT_PRE for text outside preformatted elements), and foldSpaces for
 * one-line strings such as titles.
 */

/**
 * tidyText(s) with its line breaks as spaces: words one space apart, trimmed. JS's \s is the
 * white space tidyText folds (WS below). Not through tidyText: titles are sliced and
 * concatenated strings, and charCodeAt loops that have seen those run 2× slower on flat ones after
 * (Node 20), which is what tidyText gets from extraction.
 */
export function foldSpaces(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * What each UTF-16 code unit is to tidyText, as bits: 1 white space (JS's \s: the ASCII ones, U+00A0,
 * U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF), 2 white space that never
 * stays as it is (all but ' ' and '\n'), 4 a line break (\n, \r, U+2028, U+2029). A table of every
 * code unit (64 KiB), so the test is one load, with no branch on the character's range.
 */
export const WS = new Uint8Array(0x10000);
for (const c of [9, 11, 12, 0xa0, 0x1680, 0x202f, 0x205f, 0x3000, 0xfeff]) WS[c] = 1 | 2;
for (let c = 0x2000; c <= 0x200a; c++) WS[c] = 1 | 2;
for (const c of [13, 0x2028, 0x2029]) WS[c] = 1 | 2 | 4;
WS[32] = 1;
WS[10] = 1 | 4;
/** WS for text outside preformatted elements, whose \r and \n are spaces (Extraction.textRange). */
export const NOT_PRE = WS.slice();
NOT_PRE[10] = NOT_PRE[13] = 1 | 2;
/**
 * WS as tidyText reads it: a binding of this module's own. V8 reads an exported binding through its
 * module cell, and tidyText's loop reading the exported WS ran ~10% slower (docsite, Node 20, the
 * tidyText time of npm run bench:extract: 52–58 ms against 47–52 with WS private to extract.ts;
 * through this binding 47–49).
 */
const CLASSES = WS;

/**
 * Fold runs of white space within lines to one space (one line break when the run has one), trim
 * lines, drop empty lines. Most of a page's text is already tidy (words one ' ' or '\n' apart): the
 * loop only looks for the white space that is not — a character of class 2, or white space after
 * white space (or at the start) — with a branch that is almost never taken, and the tidy stretches
 * between are copied as whole slices. A branch per word boundary (the loop before, and any test of
 * "is this white space") is mispredicted at every one of them: docsite, Node 20, 4.7 → 3.1 ns a
 * character (test/core/html/tidy.test.ts checks it against that loop).
 */
export function tidyText(s: string): string {
  const n = s.length;
  let out = '';
  let keep = 0; // start of the stretch of `s` not yet copied to `out`
  let prev = 1; // the class of the character before; the start counts as white space
  for (let i = 0; i < n; i++) {
    const t = CLASSES[s.charCodeAt(i)];
    if (((t & 2) | (t & prev & 1)) === 0) {
      prev = t;
      continue;
    }
    // White space to fold at i. Its run started at i - 1 when that is white space (never earlier:
    // two in a row would have stopped the loop there), and ends at the next other character.
    const runStart = i > 0 && prev & 1 ? i - 1 : i;
    let lines = t | (runStart < i ? prev : 0);
    let j = i + 1;
    let u: number;
    while (j < n && (u = CLASSES[s.charCodeAt(j)]) !== 0) {
      lines |= u;
      j++;
    }
    // Leading white space goes, trailing goes, any other run becomes one separator.
    if (runStart > 0)
      out += j < n ? s.slice(keep, runStart) + (lines & 4 ? '\n' : ' ') : s.slice(keep, runStart);
    keep = j;
    i = j; // s[j] is not white space: the loop goes on after it
    prev = 0;
  }
  // A last ' ' or '\n' after the last word (the loop lets single ones through) goes too.
  const end = prev & 1 ? n - 1 : n;
  if (keep === 0) return end === n ? s : s.slice(0, end);
  return keep >= end ? out : out + s.slice(keep, end);
}
