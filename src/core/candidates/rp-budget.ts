/**
 * The RP grid's pair budget (engine.ts): on a crawl whose pages are alike the grid at the widest D
 * would propose a large share of all pairs, each to be measured; the closest `rpBudget` pairs are kept
 * and D's range ends where they end.
 */
import { kthSmallest } from './select';

/** Below this many RP pairs no crawl is cut by the per-page budget (small crawls keep D's whole range). */
export const RP_PAIRS_FLOOR = 100_000;

/** The RP candidate pairs kept at most for n pages: maxRpPairs, and maxRpPairsPerPage a page past the floor. */
export function rpBudget(p: { maxRpPairs: number; maxRpPairsPerPage: number }, n: number): number {
  return Math.min(p.maxRpPairs, Math.max(RP_PAIRS_FLOOR, p.maxRpPairsPerPage * n));
}

/**
 * The L∞ distance below which about `budget` of the n(n−1)/2 pairs fall, estimated on an evenly spaced
 * sample of 2,000 points (their pair distances' quantile), with 50% headroom; Infinity when the budget
 * covers all pairs.
 */
export function estimateD(R: Float32Array, n: number, K: number, budget: number): number {
  const all = (n * (n - 1)) / 2;
  if (budget >= all) return Infinity;
  const s = Math.min(n, 2000);
  const step = n / s;
  const idx = Array.from({ length: s }, (_, i) => Math.floor(i * step));
  const d = new Float32Array((s * (s - 1)) / 2);
  let m = 0;
  for (let x = 0; x < s; x++) for (let y = x + 1; y < s; y++) d[m++] = linf(R, idx[x], idx[y], K);
  const q = Math.min(m - 1, Math.ceil(((budget * 1.5) / all) * m));
  const dq = kthSmallest(d, q);
  return dq > 0 ? dq : Infinity;
}

/** Keep the `budget` closest pairs; the new maxD is the first distance left out (strict < keeps all kept). */
export function budgetCut(
  flat: Uint32Array,
  R: Float32Array,
  K: number,
  budget: number,
): { pairs: Uint32Array; maxD: number } {
  const m = flat.length / 2;
  const d = new Float32Array(m);
  for (let k = 0; k < m; k++) d[k] = linf(R, flat[2 * k], flat[2 * k + 1], K);
  const maxD = kthSmallest(d.slice(), budget);
  const out: number[] = [];
  for (let k = 0; k < m; k++) if (d[k] < maxD) out.push(flat[2 * k], flat[2 * k + 1]);
  return { pairs: Uint32Array.from(out), maxD };
}

export function linf(v: Float32Array, i: number, j: number, K: number): number {
  let d = 0;
  for (let x = 0; x < K; x++) d = Math.max(d, Math.abs(v[i * K + x] - v[j * K + x]));
  return d;
}
