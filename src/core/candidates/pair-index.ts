import type { PairTable } from './pairs';

/**
 * Looking pairs up by their pages. The pair table is sorted by (a, b) with a < b (PairCollector), so a
 * pair is one binary search away and a page's pairs as the smaller page are one contiguous run.
 */

/** Index k of candidate pair (i, j), or null when no generator proposed it. */
export function findPair(p: Pick<PairTable, 'a' | 'b' | 'count'>, i: number, j: number): number | null {
  const [x, y] = i < j ? [i, j] : [j, i];
  const lo = lowerBound(p, x, y);
  return lo < p.count && p.a[lo] === x && p.b[lo] === y ? lo : null;
}

function lowerBound(p: Pick<PairTable, 'a' | 'b' | 'count'>, x: number, y: number): number {
  let lo = 0;
  let hi = p.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (p.a[mid] < x || (p.a[mid] === x && p.b[mid] < y)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The candidate pairs with both pages among `members` (ascending k): one run per member, never a scan
 * of the whole table — the cluster detail asks for this once per cluster.
 */
export function pairsWithin(p: Pick<PairTable, 'a' | 'b' | 'count'>, members: readonly number[]): number[] {
  const inside = new Set(members);
  const out: number[] = [];
  for (const x of members) {
    for (let k = lowerBound(p, x, 0); k < p.count && p.a[k] === x; k++) if (inside.has(p.b[k])) out.push(k);
  }
  return out.sort((u, v) => u - v);
}
