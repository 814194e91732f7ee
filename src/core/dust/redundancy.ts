/**
 * Eliminating redundant rules (§5.2, Fig. 2). When a pair refines another (Lemma 5.3: α' = γαδ and
 * β' = γβδ) and their calculated supports are nearly equal, "this gives a strong indication that the
 * latter, seemingly more general rule, is valid only in the context specified by the former rule. We
 * can thus eliminate the latter rule from the list" — the refinement is kept "because it gives the
 * full context of the substitution".
 *
 * Two thresholds (§5.2): "we run the first phase of the algorithm twice, once with a lower overflow
 * threshold T_low and once with a higher overflow threshold T_high. While the support calculated
 * using the lower threshold is more effective in filtering out invalid rules, the support calculated
 * using the higher threshold is more effective in eliminating redundant rules." Read here as: the
 * T_low run decides which pairs are likely (support ≥ MS) and ranks them; Fig. 2 orders and compares
 * those pairs by their T_high support.
 */
import { byLikeliness, detectLikelyPairs } from './likely-rules';
import { pairRefines } from './rules';
import type { DustParams, DustUrl, SubstringRule } from './types';

/**
 * Fig. 2 over one list sorted by calculated support (redundancySupport), descending. Returns the
 * rules not eliminated, in input order.
 *
 *  2: for i = 1 to |R| do
 *  3:   if (already eliminated R[i]) continue
 *  4:   for j = 1 to min(MW, |R| − i) do
 *  5:     if (R[i].size − R[i + j].size > max(MRD · R[i].size, MAD)) break
 *  6:     if (R[i] refines R[i + j]) eliminate R[i + j]
 *  8:     else if (R[i + j] refines R[i]) then eliminate R[i]; break
 */
export function eliminateRedundancies(
  sorted: readonly SubstringRule[],
  params: Pick<DustParams, 'MRD' | 'MAD' | 'MW'>,
): SubstringRule[] {
  const n = sorted.length;
  const eliminated = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (eliminated[i]) continue;
    const size = sorted[i].redundancySupport;
    const slack = Math.max(params.MRD * size, params.MAD);
    const last = Math.min(params.MW, n - 1 - i);
    for (let j = 1; j <= last; j++) {
      const other = sorted[i + j];
      if (size - other.redundancySupport > slack) break;
      if (pairRefines(sorted[i], other)) eliminated[i + j] = 1;
      else if (pairRefines(other, sorted[i])) {
        eliminated[i] = 1;
        break;
      }
    }
  }
  return sorted.filter((_, k) => !eliminated[k]);
}

/** Calculated T_high support first; ties keep the order of likeliness. */
function byRedundancySupport(a: SubstringRule, b: SubstringRule): number {
  return b.redundancySupport - a.redundancySupport || byLikeliness(a, b);
}

/** Fig. 2 per site over likely pairs (from detectLikelyPairs); the kept rules ranked by likeliness. */
export function eliminateRedundantRules(
  likely: readonly SubstringRule[],
  params: DustParams,
): SubstringRule[] {
  const bySite = new Map<string, SubstringRule[]>();
  for (const r of likely) {
    const list = bySite.get(r.site);
    if (list) list.push(r);
    else bySite.set(r.site, [r]);
  }
  const kept: SubstringRule[] = [];
  for (const list of bySite.values())
    kept.push(...eliminateRedundancies(list.sort(byRedundancySupport), params));
  return kept.sort(byLikeliness);
}

export interface NonRedundantRules {
  /** Likely pairs found by Fig. 1 with T_low (support ≥ MS). */
  detected: number;
  /** What Fig. 2 kept, ranked by likeliness (T_low support). */
  rules: SubstringRule[];
}

/** Phases 1 and 2 of DustBuster (§5): likely rules from the URL list, redundancies removed, per site. */
export function detectNonRedundantRules(urls: readonly DustUrl[], params: DustParams): NonRedundantRules {
  const likely = detectLikelyPairs(urls, params, params.Tlow, params.Thigh);
  return { detected: likely.length, rules: eliminateRedundantRules(likely, params) };
}
