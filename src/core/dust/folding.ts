/**
 * What the rule table leaves out, not in the paper: valid rules the site's other valid rules make
 * redundant (markRedundantValid), special cases folded under the rule that covers them and
 * compositions of several valid rules (foldSpecialCases), and in lists without documents the special
 * cases of a likely parameter rule (foldLikelySpecialCases). The paper's own redundancy elimination,
 * Fig. 2, is redundancy.ts.
 */
import { canonizationOrder, canonize, pathAcrossOrigins } from './canonize';
import { isCycleBreaker } from './origins';
import { applyRule, instancesIn, reversed, ruleSpelling, UrlIndex } from './rules';
import { groupBySite } from './url-list';
import { composedOf } from './validation';
import type { DustParams, DustUrl, Rule } from './types';

/** Spellings kept per folding rule (the count is exact). */
const FOLDED_SPELLINGS = 5;

/**
 * Valid rules the site's other valid rules make redundant — not in the paper, whose Fig. 4 only
 * drops refinements of a rule already valid. A rule validated on its own may still restate the
 * others: ^www.s/ → ^s:8000/ beside ^www.s/ → ^s/ and ^s:8000/ → ^s/, or a date's permalink rule
 * validated before the rule with wildcards that covers it. Rules are taken from those that rewrite
 * the most tokens, then from the least supported up; one whose every instance in the test list the remaining valid rules already send to one URL
 * (validation.ts composedOf) gets coveredBy and is no longer applied or listed: the table then says
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

/**
 * An undecided substring rule of a site with valid rules whose every instance in the list those rules
 * already merge is a composition of them (validation.ts composes on the test list only, where such a
 * rule often has no instance with both ends: it stays likely for want of samples, not of evidence).
 * Folded like the compositions validation finds. So is a refuted one whose negatives stay under εN —
 * refuted only because its list ran out before N samples (1 of 15 not similar) while the valid rules,
 * each validated on N samples, merge its instances anyway; its negatives stay in its detail. A refuted
 * rule with εN negatives or more stays listed: its negatives say something the valid rules do not.
 */
export function foldUndecidedCompositions(
  rules: readonly Rule[],
  list: readonly DustUrl[],
  params: Pick<DustParams, 'site' | 'maxIterations' | 'epsilon' | 'N'>,
): void {
  const applied = rules.filter((r) => r.status === 'valid' && !r.coveredBy);
  if (applied.length === 0) return;
  const sites = groupBySite(list, params.site);
  const indexes = new Map<string, UrlIndex>();
  const negLimit = Math.ceil(params.epsilon * params.N - 1e-9);
  for (const r of rules) {
    if (r.kind !== 'substring' || r.coveredBy) continue;
    if (r.status !== 'likely' && !(r.status === 'refuted' && r.negatives < negLimit)) continue;
    const mine = applied.filter((v) => v.site === r.site);
    if (mine.length === 0) continue;
    let L = indexes.get(r.site);
    if (!L) indexes.set(r.site, (L = new UrlIndex(sites.get(r.site) ?? [])));
    const by = composedOf(r, L, mine, params.maxIterations);
    if (!by) continue;
    r.coveredBy = by;
    r.reason += `; every instance in the list is already merged by valid rules ${by.map((id) => `#${id}`).join(', ')} (a composition)`;
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

/** Likely parameter rules special cases are folded under in a list without documents. */
const likelyCoverers = new WeakSet<Rule>();

/**
 * A URL list without documents (an access log, a CDX) validates nothing: every rule stays likely,
 * and a parameter's special cases (?display=list$ → $, ?ref=x&gclid=y$ → ?ref=x$) would be listed
 * beside the rule that drops it. Per site with no valid rule, a substring rule whose every instance
 * one likely parameter rule merges on its own is folded under it, as under a valid rule.
 */
export function foldLikelySpecialCases(
  rules: readonly Rule[],
  list: readonly DustUrl[],
  params: Pick<DustParams, 'site' | 'maxIterations'>,
): void {
  const sites = groupBySite(list, params.site);
  const withValid = new Set(rules.filter((r) => r.status === 'valid').map((r) => r.site));
  const paramRules = rules.filter((r) => r.kind !== 'substring' && r.status === 'likely');
  const indexes = new Map<string, UrlIndex>();
  for (const r of rules) {
    if (r.kind !== 'substring' || r.status !== 'likely' || r.coveredBy || withValid.has(r.site)) continue;
    let L = indexes.get(r.site);
    if (!L) indexes.set(r.site, (L = new UrlIndex(sites.get(r.site) ?? [])));
    for (const p of paramRules) {
      if (p.site !== r.site) continue;
      if (!composedOf(r, L, [p], params.maxIterations)) continue;
      r.coveredBy = [p.id];
      likelyCoverers.add(p);
      break;
    }
  }
}

/** A candidate not listed: the valid rules that merge its instances together (a composition). */
export interface Composition {
  id: number;
  spelling: string;
  status: Rule['status'];
  by: number[];
}

/**
 * The list as shown: a rule whose every instance one valid rule merges on its own (Fig. 4 lines 4–7's
 * refinements, and the special cases validation.ts recognises by their instances: a date's permalink
 * rule under the rule with wildcards, ?sessionid=4015$ → $ under "drop sessionid") is folded under
 * that rule — counted in its `absorbs`, not listed beside it. "Once a broader rule is deemed valid,
 * there is no longer a need for refinements thereof" (§5.3). A rule whose instances several valid
 * rules merge together (drop sessionid, then the mirror prefix) is a composition: not listed either,
 * returned apart so a view can say how many there were. Returns the rules kept, in order; the folding
 * rules are updated in place.
 */
export function foldSpecialCases(rules: readonly Rule[]): { shown: Rule[]; compositions: Composition[] } {
  const byId = new Map(rules.map((r) => [r.id, r]));
  const applied = (r: Rule | undefined) =>
    r !== undefined && (r.status === 'valid' || likelyCoverers.has(r)) && !r.coveredBy;
  const shown: Rule[] = [];
  const compositions: Composition[] = [];
  // A rule covered by a valid rule that is itself redundant is covered by what covers that one
  // (followed to the rules applied, once per rule: chains of folds run long on large sites).
  const memo = new Map<number, number[] | null>();
  const visiting = new Set<number>();
  const through = (id: number): number[] | null => {
    const v = byId.get(id);
    if (applied(v)) return [id];
    if (!v || v.status !== 'valid' || !v.coveredBy) return null;
    const seen = memo.get(id);
    if (seen !== undefined) return seen;
    if (visiting.has(id)) return null;
    visiting.add(id);
    const out = resolve(v.coveredBy);
    visiting.delete(id);
    memo.set(id, out);
    return out;
  };
  const resolve = (ids: readonly number[]): number[] | null => {
    const out = new Set<number>();
    for (const id of ids) {
      const got = through(id);
      if (!got) return null;
      got.forEach((x) => out.add(x));
    }
    return [...out].sort((a, b) => a - b);
  };
  for (const r of rules) {
    const by = r.coveredBy && resolve(r.coveredBy);
    if (!by || by.length === 0) {
      shown.push(r);
      continue;
    }
    if (by.length > 1) {
      compositions.push({ id: r.id, spelling: ruleSpelling(r), status: r.status, by });
      continue;
    }
    const a = (byId.get(by[0])!.absorbs ??= { count: 0, spellings: [] });
    a.count++;
    if (a.spellings.length < FOLDED_SPELLINGS) a.spellings.push(ruleSpelling(r));
  }
  return { shown, compositions };
}
