import type { PairTable } from '../candidates/pairs';
import { findPair } from '../candidates/pair-index';

/**
 * One way to name a pair and to find it: labels are keyed by the unordered pair of page seqs, and a
 * labelled pair is found among the candidate pairs by the clusters' binary search (findPair) — the same
 * lookup for the workbench (pages by seq) and the CLI (pages by URL).
 */
export type SortedPairs = Pick<PairTable, 'a' | 'b' | 'count'>;

/** The key of the unordered pair {x, y}. */
export function pairKey(x: number, y: number): string {
  return x < y ? `${x}:${y}` : `${y}:${x}`;
}

/**
 * The candidate pair a label names, through the caller's index from a page's name (seq or URL) to its
 * index in the pair table: null when a page is not in the table or the pair was never a candidate
 * (a labelled duplicate there is one every method missed).
 */
export function locatePair<K>(p: SortedPairs, index: ReadonlyMap<K, number>, x: K, y: K): number | null {
  const i = index.get(x);
  const j = index.get(y);
  return i === undefined || j === undefined || i === j ? null : findPair(p, i, j);
}
