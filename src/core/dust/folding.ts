/**
 * What the rule table leaves out, not in the paper: valid rules the site's other valid rules make
 * redundant (markRedundantValid, redundant-valid.ts), special cases folded under the rule that covers
 * them and compositions of several valid rules (foldSpecialCases), and in lists without documents the
 * special cases of a likely parameter rule (foldLikelySpecialCases). The paper's own redundancy elimination,
 * Fig. 2, is redundancy.ts.
 */
import { composedOf } from './composition';
import { ruleSpelling, UrlIndex } from './rules';
import { groupBySite } from './url-list';
import type { DustParams, DustUrl, Rule } from './types';

/** Spellings kept per folding rule (the count is exact). */
const FOLDED_SPELLINGS = 5;

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
