/**
 * Discovering likely DUST rules (§5.1, Fig. 1). For every envelope (p, s) whose bucket holds 2 … T
 * substrings, every pair (α, β) of the bucket whose URLs pαs and pβs are LikelySimilar adds one to
 * the pair's support; "The number of times a pair (α, β) has been added to the instance table is
 * exactly the size of the set (E_L(α) ∩ E_L(β)) \ (O ∪ D_α,β), which is our estimated support".
 * Pairs with support ≥ MS are kept, sorted by support (lines 17–22).
 *
 * One enumeration serves two thresholds: the buckets of size ≤ T_low are among those of size ≤ T_high,
 * so the supports §5.2 asks for ("we run the first phase of the algorithm twice, once with … T_low
 * and once with … T_high") are counted side by side.
 */
import { buildEnvelopeIndex, forEachBucket, type EnvelopeIndex } from './envelopes';
import { PairTable } from './pair-table';
import { compareSides, likelySubstringRule } from './rules';
import { likelySimilar } from './similarity';
import { SubstringIds } from './substring-ids';
import { groupBySite } from './url-list';
import type { DustParams, DustUrl, SubstringRule } from './types';

/** Counters per pair: instances and likely-similar instances at T_low, then at T_high. */
const ALL_LOW = 0;
const SIMILAR_LOW = 1;
const ALL_HIGH = 2;
const SIMILAR_HIGH = 3;

export interface PairSupports {
  index: EnvelopeIndex;
  ids: SubstringIds;
  table: PairTable;
}

/** Fig. 1 lines 5–20 over the URLs of one site, counting at both thresholds. */
export function countPairSupports(
  urls: readonly DustUrl[],
  params: Pick<DustParams, 'S' | 'likelySimilarJaccard'>,
  Tlow: number,
  Thigh: number,
): PairSupports {
  const index = buildEnvelopeIndex(urls);
  const ids = new SubstringIds(index.tok);
  const table = new PairTable(4);
  // LikelySimilar by sketches compares every slot; a URL pair meets in many envelopes, so
  // answers are remembered per URL pair (1 = no, 2 = yes).
  const memo = new PairTable(1);
  const jaccard = params.likelySimilarJaccard;
  const similar = (a: number, b: number): boolean => {
    const ua = urls[a];
    const ub = urls[b];
    if (!ua.sketch || !ub.sketch) return likelySimilar(ua, ub, jaccard);
    const s = memo.slot(a, b);
    if (memo.values[s] === 0) memo.values[s] = likelySimilar(ua, ub, jaccard) ? 2 : 1;
    return memo.values[s] === 2;
  };
  const sub = new Uint32Array(Math.min(Math.max(Tlow, Thigh, 2), urls.length));
  const { start } = index;
  forEachBucket(index, params.S, Math.max(Tlow, Thigh), (b) => {
    for (let k = 0; k < b.size; k++) sub[k] = ids.id(start[b.url[k]] + b.from[k], b.to[k] - b.from[k]);
    const low = b.size <= Tlow ? 1 : 0;
    const high = b.size <= Thigh ? 1 : 0;
    for (let x = 0; x < b.size; x++) {
      for (let y = x + 1; y < b.size; y++) {
        const sim = similar(b.url[x], b.url[y]) ? 1 : 0;
        const s = table.slot(sub[x], sub[y]) * 4;
        const v = table.values;
        v[s + ALL_LOW] += low;
        v[s + SIMILAR_LOW] += low & sim;
        v[s + ALL_HIGH] += high;
        v[s + SIMILAR_HIGH] += high & sim;
      }
    }
  });
  return { index, ids, table };
}

function spell(s: PairSupports, id: number): string[] {
  return Array.from(s.ids.tokens(id), (t) => s.index.tokenNames[t]);
}

/**
 * Likely rules of a URL list, per site (§1: rules are mined "within a given web site"): pairs whose
 * likely-similar support at T_low is ≥ MS, each oriented shrinking side first (§5.3 "We assume that
 * each pair in R is ordered so that R[i].α ≻ R[i].β"), sorted by that support. redundancySupport is
 * the likely-similar support at T_high, which §5.2 uses to eliminate redundant rules.
 */
export function detectLikelyPairs(
  urls: readonly DustUrl[],
  params: DustParams,
  Tlow: number,
  Thigh: number,
  firstId = 0,
): SubstringRule[] {
  const out: SubstringRule[] = [];
  for (const [site, list] of groupBySite(urls, params.site)) {
    const supports = countPairSupports(list, params, Tlow, Thigh);
    const v = supports.table.values;
    supports.table.forEach((a, b, slot) => {
      const s = slot * 4;
      if (v[s + SIMILAR_LOW] < params.MS) return;
      let alpha = spell(supports, a);
      let beta = spell(supports, b);
      if (compareSides(alpha, beta) < 0) [alpha, beta] = [beta, alpha];
      out.push(
        likelySubstringRule(site, alpha, beta, {
          support: v[s + ALL_LOW],
          likelySimilarSupport: v[s + SIMILAR_LOW],
          redundancySupport: v[s + SIMILAR_HIGH],
          reason: `likely: ${v[s + SIMILAR_LOW]} likely-similar instances in buckets of ≤ ${Tlow} (Fig. 1)`,
        }),
      );
    });
  }
  out.sort(byLikeliness);
  out.forEach((r, k) => (r.id = firstId + k));
  return out;
}

/** Fig. 1 line 21 "sort RT by support size"; ties broken by T_high support, then by spelling, so runs repeat. */
export function byLikeliness(a: SubstringRule, b: SubstringRule): number {
  return (
    b.likelySimilarSupport - a.likelySimilarSupport ||
    b.redundancySupport - a.redundancySupport ||
    b.support - a.support ||
    compareSides(b.alpha, a.alpha) ||
    compareSides(b.beta, a.beta) ||
    (a.site < b.site ? -1 : a.site > b.site ? 1 : 0)
  );
}

/** Fig. 1 with one overflow threshold T: likely rules with support ≥ MS, sorted by support. */
export function detectLikelyRules(urls: readonly DustUrl[], params: DustParams, T: number): SubstringRule[] {
  return detectLikelyPairs(urls, params, T, T);
}
