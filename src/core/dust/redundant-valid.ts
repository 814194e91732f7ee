/**
 * Valid rules the site's other valid rules make redundant (markRedundantValid), folded under them so
 * the rule table says each redirection once: part of what the table leaves out (folding.ts).
 */
import { canonizationOrder, canonize } from './canonize';
import { composedOf } from './composition';
import { pathAcrossOrigins } from './origin-moves';
import { isCycleBreaker } from './origins';
import { applyRule, instancesIn, reversed, UrlIndex } from './rules';
import { groupBySite } from './url-list';
import type { DustParams, DustUrl, Rule } from './types';

/**
 * Valid rules the site's other valid rules make redundant — not in the paper, whose Fig. 4 only
 * drops refinements of a rule already valid. A rule validated on its own may still restate the
 * others: ^www.s/ → ^s:8000/ beside ^www.s/ → ^s/ and ^s:8000/ → ^s/, or a date's permalink rule
 * validated before the rule with wildcards that covers it. Rules are taken from those that rewrite
 * the most tokens, then from the least supported up; one whose every instance in the test list the remaining valid rules already send to one URL
 * (composition.ts composedOf) gets coveredBy and is no longer applied or listed: the table then says
 * each redirection once, as a person would write it. Its status stays valid (§6 judged it so).
 */
export function markRedundantValid(
  rules: readonly Rule[],
  testList: readonly DustUrl[],
  params: Pick<DustParams, 'site' | 'maxIterations' | 'N'>,
): void {
  const sites = groupBySite(testList, params.site);
  // The greedy passes look at a sample of a rule's instances (GREEDY_SAMPLE, in list order); the
  // settling pass below checks every instance of every rule left out, and puts back what fails.
  const sample = Math.min(params.N, GREEDY_SAMPLE);
  const indexes = new Map<string, UrlIndex>();
  const kept = new Set(rules.filter((r) => r.status === 'valid' && !r.coveredBy));
  const indexOf = (site: string): UrlIndex => {
    let L = indexes.get(site);
    if (!L) indexes.set(site, (L = new UrlIndex(sites.get(site) ?? [])));
    return L;
  };
  const chain = new Map<Rule, boolean>();
  for (const r of kept) chain.set(r, chainsOn(r, indexOf(r.site), [...kept], params.maxIterations, sample));
  // Links of a chain go first (?id=N → story_N when story_N → a/N is valid too, beside ?id=N → a/N):
  // a person sends every alias straight to the canonical URL, so the rule left is the one to it. Then
  // rules that change more at once (^https://m.s/ → ^http://www.s/ before ^https://m.s/ →
  // ^https://www.s/ when http → https is valid too): a person writes each change once.
  const order = [...kept].sort(
    (a, b) =>
      Number(chain.get(b)) - Number(chain.get(a)) ||
      changeSpan(b) - changeSpan(a) ||
      a.likelySimilarSupport - b.likelySimilarSupport ||
      a.support - b.support ||
      b.id - a.id,
  );
  // Canonisation is not confluent: with rules still to be folded, another order of rewrites may
  // miss a merge the fewer rules make. Passes repeat while they fold something (a few suffice).
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let folded = 0;
    for (const r of order) {
      if (!kept.has(r)) continue;
      const others = [...kept].filter((v) => v !== r && v.site === r.site);
      if (others.length === 0) continue;
      const L = indexOf(r.site);
      const by = composedOf(r, L, others, params.maxIterations, sample);
      // A rule that is the only direct link of some URL to another URL of its page stays: its URLs
      // would be merged, but through pages the crawl does not hold (a/N when story_N was not crawled).
      if (!by || (!mixesParameters(r, L, others) && !othersRelateEach(r, L, others, sample))) continue;
      // A parameter rule is what a person writes; substitutions that drop some of its values
      // (?utm_campaign=nova$ → $, one per value) are its special cases, never the other way round.
      if (r.kind !== 'substring' && others.some((v) => v.kind === 'substring' && by.includes(v.id))) continue;
      r.coveredBy = by;
      r.reason += `; every instance is already merged by ${by.map((id) => `#${id}`).join(', ')}: not applied`;
      kept.delete(r);
      folded++;
    }
    if (folded === 0) break;
  }
  // A rule that moves the origin while it rewrites the path (^https://www.s/{y}/{m}/{d}/{n}/$ →
  // ^http://www.s/items/{n}.html$, found where an origin alias met a date alias) restates an origin
  // rule and a path rule; a person writes those two. When the greedy order folded the path rule under
  // it, the two trade places if the path rule, put back, lets it fold.
  for (const x of [...kept]) {
    if (!pathAcrossOrigins(x)) continue;
    const under = rules
      .filter(
        (y) =>
          y.status === 'valid' &&
          y.site === x.site &&
          !pathAcrossOrigins(y) &&
          !isCycleBreaker(y) &&
          (y.coveredBy?.includes(x.id) ?? false),
      )
      .sort((a, b) => b.likelySimilarSupport - a.likelySimilarSupport || a.id - b.id);
    const L = indexOf(x.site);
    for (const y of under) {
      kept.add(y);
      const others = [...kept].filter((v) => v !== x && v.site === x.site);
      const by = composedOf(x, L, others, params.maxIterations, sample);
      if (!by) {
        kept.delete(y);
        continue;
      }
      delete y.coveredBy;
      y.reason = y.reason.replace(FOLDED_NOTE, '');
      x.coveredBy = by;
      x.reason += `; every instance is already merged by ${by.map((id) => `#${id}`).join(', ')}: not applied`;
      kept.delete(x);
      break;
    }
  }
  // What the rules left applied merge is what counts: a rule folded under rules folded later, or any
  // rule whose instances they no longer all merge, is put back (valid ones applied again) until
  // every folded rule holds.
  // Canonical forms under the rules left applied, per site, cached until a rule is put back.
  const canonical = new Map<string, Map<string, string>>();
  const merges = (r: Rule): boolean => {
    let cache = canonical.get(r.site);
    if (!cache) canonical.set(r.site, (cache = new Map()));
    const ordered = canonizationOrder([...kept].filter((v) => v.site === r.site));
    const c = (u: DustUrl) => {
      let x = cache.get(u.url);
      if (x === undefined)
        cache.set(u.url, (x = canonize(u.url, ordered, params.maxIterations, u.tokens).url));
      return x;
    };
    const L = indexOf(r.site);
    let instances = 0;
    for (const [u, w] of instancesIn(r, L)) {
      instances++;
      if (c(u) !== c(w)) return false;
    }
    return instances > 0;
  };
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let restored = 0;
    for (const r of rules) {
      if (!r.coveredBy || isCycleBreaker(r)) continue;
      // Its coverers stay as they were found (foldSpecialCases follows a folded one to its own).
      if (merges(r)) continue;
      canonical.delete(r.site);
      delete r.coveredBy;
      r.reason = r.reason.replace(FOLDED_NOTE, '');
      if (r.status === 'valid') kept.add(r);
      restored++;
    }
    if (restored === 0) break;
  }
}

/** What markRedundantValid adds to a folded valid rule's reason (taken out when it is put back). */
const FOLDED_NOTE = /; every instance is already merged by [^:]*: not applied$/;

/** Instances of a rule the greedy passes of markRedundantValid look at. */
const GREEDY_SAMPLE = 20;

/** Passes of markRedundantValid at most. */
const MAX_PASSES = 3;

/**
 * Whether a rule is mostly a link of a chain: for most of its instances (u, R(u)) in L, another valid
 * rule of the site that leaves u alone rewrites R(u) again.
 */
function chainsOn(
  r: Rule,
  L: UrlIndex,
  valid: readonly Rule[],
  maxIterations: number,
  limit: number,
): boolean {
  const others = canonizationOrder(valid.filter((v) => v !== r && v.site === r.site));
  if (others.length === 0) return false;
  let all = 0;
  let again = 0;
  for (const [u, w] of instancesIn(r, L, limit)) {
    all++;
    // A rule that rewrites both ends (www → bare after ^www.s/node.php?id= → ^www.s/amp/) does not
    // make r a link: the two ends stay one step apart after it.
    const after = others.filter((k) => applyRule(k, u.url, u.tokens) === null);
    if (canonize(w.url, after, maxIterations, w.tokens).url !== w.url) again++;
  }
  return all > 0 && again > all / 2;
}

/**
 * Whether a substring rule restates a parameter rule together with something else: a valid parameter
 * rule of the site rewrites one side of its instances (?via=apple$ → /$ beside "drop via"). Such a
 * rule is folded even where it is a URL's only direct link: a person writes the parameter rule once.
 */
function mixesParameters(r: Rule, L: UrlIndex, others: readonly Rule[]): boolean {
  if (r.kind !== 'substring') return false;
  const params = others.filter((k) => k.kind !== 'substring');
  if (params.length === 0) return false;
  for (const [u, w] of instancesIn(r, L, 1))
    return params.some((k) => applyRule(k, u.url) !== null || applyRule(k, w.url) !== null);
  return false;
}

/** Whether a URL of L is rewritten into L, or rewritten to, by one of the rules. */
function relatedByOne(u: DustUrl, L: UrlIndex, rules: readonly Rule[]): boolean {
  for (const k of rules) {
    const w = applyRule(k, u.url, u.tokens);
    if (w !== null && L.byUrl.has(w)) return true;
    if (k.kind !== 'substring') continue;
    const y = applyRule(reversed(k), u.url, u.tokens);
    const z = y === null ? undefined : L.byUrl.get(y);
    if (z && applyRule(k, z.url, z.tokens) === u.url) return true;
  }
  return false;
}

/** Whether both URLs of every instance of r in L are related to another URL of L by one other rule. */
function othersRelateEach(r: Rule, L: UrlIndex, others: readonly Rule[], limit: number): boolean {
  for (const [u, w] of instancesIn(r, L, limit)) {
    if (
      others.some((k) => applyRule(k, u.url, u.tokens) === w.url || applyRule(k, w.url, w.tokens) === u.url)
    )
      continue;
    if (!relatedByOne(u, L, others) || !relatedByOne(w, L, others)) return false;
  }
  return true;
}

/** Tokens a substring rule rewrites: the longer side once their common prefix and suffix are set aside. */
function changeSpan(r: Rule): number {
  if (r.kind !== 'substring') return 0;
  const { alpha: a, beta: b } = r;
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let q = 0;
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  return Math.max(a.length - p - q, b.length - p - q);
}
