import { DEL, editScript, INS, SAME, splitWords } from './diff';

/**
 * Two texts aligned for a side-by-side view: rows that hold the same passage in A and in B (a row ends
 * where both texts start a new line in their common text), and the differences numbered in reading order.
 * A difference is a maximal run of words deleted and/or inserted between two common words.
 */

/** A piece of one side of a row: common text, or the part of difference `diff` that is on this side. */
export interface Piece {
  text: string;
  /** Index of the difference this piece belongs to; -1 for common text. */
  diff: number;
}

export interface CompareRow {
  a: Piece[];
  b: Piece[];
  /** Indexes of the first and last difference in the row; -1 when the row is common text on both sides. */
  firstDiff: number;
  lastDiff: number;
}

/** Bounds of the word-by-word comparison. */
export interface CompareLimits {
  /** Words of each text at most; a longer text is not compared (the view shows it unmarked). */
  maxWords: number;
  /** Words deleted plus inserted at most (Myers' D) after the common beginning and end are set aside. */
  maxEdits: number;
}

/**
 * 100,000 words a side (~600 KB of text) and 2,000 edits: at both bounds ~0.5–1 s and 16 MB of trace
 * (measured in Node on a busy 2-core machine); a near-duplicate page of a few thousand words, milliseconds.
 */
export const COMPARE_LIMITS: CompareLimits = { maxWords: 100_000, maxEdits: 2_000 };

export type Comparison =
  | { kind: 'compared'; rows: CompareRow[]; differences: number; wordsA: number; wordsB: number }
  | { kind: 'too-long'; wordsA: number; wordsB: number; limit: number }
  | { kind: 'too-different'; wordsA: number; wordsB: number; limit: number };

/** Count of words (tokens that are not white space alone). */
function words(tokens: readonly string[]): number {
  let n = 0;
  for (const t of tokens) if (t.trim()) n++;
  return n;
}

export function compareTexts(a: string, b: string, limits: CompareLimits = COMPARE_LIMITS): Comparison {
  const ta = splitWords(a);
  const tb = splitWords(b);
  const wordsA = words(ta);
  const wordsB = words(tb);
  if (wordsA > limits.maxWords || wordsB > limits.maxWords)
    return { kind: 'too-long', wordsA, wordsB, limit: limits.maxWords };
  const script = editScript(ta, tb, limits.maxEdits);
  if (!script) return { kind: 'too-different', wordsA, wordsB, limit: limits.maxEdits };
  const rows: CompareRow[] = [];
  let row: CompareRow = { a: [], b: [], firstDiff: -1, lastDiff: -1 };
  // Each side is at a line start when its part of the row is empty or its last word ends a line.
  let lineA = true;
  let lineB = true;
  const endsLine = (t: string, before: boolean) => (t.trim() ? /\n\s*$/.test(t) : before || t.includes('\n'));
  const push = (side: Piece[], text: string, diff: number) => {
    const last = side[side.length - 1];
    if (last && last.diff === diff) last.text += text;
    else side.push({ text, diff });
  };
  let differences = 0;
  let inDiff = false;
  let i = 0;
  let j = 0;
  for (const op of script) {
    if (op === SAME) {
      inDiff = false;
      if ((row.a.length || row.b.length) && lineA && lineB) {
        rows.push(row);
        row = { a: [], b: [], firstDiff: -1, lastDiff: -1 };
      }
      lineA = endsLine(ta[i], lineA);
      lineB = endsLine(tb[j], lineB);
      push(row.a, ta[i++], -1);
      push(row.b, tb[j++], -1);
      continue;
    }
    if (!inDiff) {
      inDiff = true;
      if (row.firstDiff < 0) row.firstDiff = differences;
      row.lastDiff = differences;
      // Both sides hold the difference, even when one side of it is empty (the place it would go).
      push(row.a, '', differences);
      push(row.b, '', differences);
      differences++;
    }
    if (op === DEL) {
      lineA = endsLine(ta[i], lineA);
      push(row.a, ta[i++], differences - 1);
    } else if (op === INS) {
      lineB = endsLine(tb[j], lineB);
      push(row.b, tb[j++], differences - 1);
    }
  }
  if (row.a.length || row.b.length) rows.push(row);
  return { kind: 'compared', rows, differences, wordsA, wordsB };
}
