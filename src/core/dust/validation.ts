/**
 * Validating DUST rules (§5.3, Figs. 3–4). A rule is tried on random URLs of a test list L where it
 * changes the URL; u and R(u) are fetched and compared; the rule is refuted once ε·N samples were not
 * similar and accepted once (1 − ε)·N were. Here "fetching" looks a page up in the dataset, so a
 * URL the dataset does not hold is neither success nor failure: it is skipped unless
 * missingIsNegative asks for the paper's live-fetch reading (Fig. 3 line 9, "fetch v failed").
 *
 * Sampling is without replacement: L is finite, and drawing the same URL twice adds no evidence. When
 * L runs out before either bound, the rule is judged on the n samples seen with the same ratio,
 * refuted iff negatives ≥ ε·n (the paper's loop draws with replacement until a bound, which on a
 * small L lands on the same side in expectation).
 */
import { hash32, mix32 } from '../hash';
import { normaliseUrl } from '../url/normalize';
import { seededRandom } from '../random';
import { composedOf } from './composition';
import { movesOrigin, originEnd, pathAcrossOrigins } from './origin-moves';
import { redirectsAgainst } from './redirect-direction';
import { applyRule, instancesIn, pairRefines, reversed, UrlIndex } from './rules';
import { documentsSimilar } from './similarity';
import { originOf, sectionKey } from './sections';
import { groupBySite } from './url-list';
import type { DustParams, DustUrl, FetchFn, Rule, SubstringRule } from './types';

/**
 * The URL list split into the part rules are detected on and the test list L of Fig. 4 (§6: "In the
 * validation phase, we use random entries from additional logs, different from those used to detect
 * the rules"). A URL's side depends on its spelling and the seed only, not on the list's order.
 */
export function splitUrls(
  urls: readonly DustUrl[],
  share: number,
  seed: number,
): { detection: DustUrl[]; validation: DustUrl[] } {
  if (share <= 0) return { detection: [...urls], validation: [...urls] };
  const detection: DustUrl[] = [];
  const validation: DustUrl[] = [];
  const salt = mix32(seed ^ 0x510e527f);
  for (const u of urls) (mix32(hash32(u.url) ^ salt) / 0x100000000 < share ? validation : detection).push(u);
  return { detection, validation };
}

export type Verdict = 'valid' | 'refuted' | 'undecided';

export interface ValidationOutcome {
  verdict: Verdict;
  positives: number;
  negatives: number;
  /** The negative samples (u, R(u)), up to NEGATIVES_KEPT. */
  negativeSamples: [string, string][];
  /** Samples skipped: R(u) missing from the dataset, or documents without sketch or digest. */
  missing: number;
  unjudgeable: number;
  reason: string;
  /** Why an undecided outcome judged no sample. */
  cause?: 'no-change' | 'no-content' | 'target-missing';
}

/** Negative samples kept per validation (εN is 5 at the paper's setting; an exhausted list may give more). */
export const NEGATIVES_KEPT = 50;

/**
 * Fig. 3, ValidateRule(R, L):
 *  4: while (positive < (1 − ε)N and negative < εN) do
 *  5:   u := a random URL from L on which applying R results in a different URL
 *  7:   fetch u and v := R(u)
 *  8:   if (fetch u failed) continue
 *  9:   if (fetch v failed or DocSketch(u) ≠ DocSketch(v)) negative++ else positive++
 * 13: if (negative ≥ εN) return false
 */
export function validateRule(
  rule: Rule,
  L: UrlIndex,
  fetch: FetchFn,
  params: Pick<DustParams, 'N' | 'epsilon' | 'dustJaccard' | 'missingIsNegative'>,
  random: () => number,
): ValidationOutcome {
  const posLimit = Math.ceil((1 - params.epsilon) * params.N - 1e-9);
  const negLimit = Math.ceil(params.epsilon * params.N - 1e-9);
  const pool = Array.from(L.candidates(rule));
  let positives = 0;
  let negatives = 0;
  const negativeSamples: [string, string][] = [];
  const negative = (u: string, v: string) => {
    negatives++;
    if (negativeSamples.length < NEGATIVES_KEPT) negativeSamples.push([u, v]);
  };
  let missing = 0;
  let unjudgeable = 0;
  let applicable = 0;
  for (let left = pool.length; left > 0 && positives < posLimit && negatives < negLimit; left--) {
    const pick = Math.floor(random() * left);
    const u = L.urls[pool[pick]];
    pool[pick] = pool[left - 1];
    const v = applyRule(rule, u.url, u.tokens);
    // A rewrite the URL parser undoes (/ → "" at https:// gives https:/h/…, read back as https://h/…)
    // does not change the URL: fetching it would fetch u itself.
    if (v === null || normaliseUrl(v).href === u.url) continue;
    applicable++;
    const fu = fetch(u.url);
    if (!fu || (fu.status ?? 0) >= 400) continue;
    const fv = fetch(v);
    if (!fv) {
      if (params.missingIsNegative) negative(u.url, v);
      else missing++;
      continue;
    }
    if ((fv.status ?? 0) >= 400) {
      negative(u.url, v);
      continue;
    }
    const similar = documentsSimilar(fu, fv, params.dustJaccard);
    if (similar === null) unjudgeable++;
    else if (similar) positives++;
    else negative(u.url, v);
  }
  const n = positives + negatives;
  const out = { positives, negatives, negativeSamples, missing, unjudgeable };
  if (negatives >= negLimit)
    return { ...out, verdict: 'refuted', reason: `${negatives} of ${n} samples not similar (≥ εN)` };
  if (positives >= posLimit)
    return { ...out, verdict: 'valid', reason: `${positives} of ${n} samples similar` };
  if (n === 0) {
    const cause = applicable === 0 ? 'no-change' : unjudgeable > 0 ? 'no-content' : 'target-missing';
    const why = {
      'no-change': 'the rule changes no URL of the test list',
      'no-content':
        'the URL list has no content (sizes only, no sketch or digest): validation needs documents (§5.3)',
      'target-missing': 'R(u) is not in the dataset for any sampled u',
    }[cause];
    return { ...out, verdict: 'undecided', reason: why, cause };
  }
  const verdict = negatives >= params.epsilon * n ? 'refuted' : 'valid';
  return {
    ...out,
    verdict,
    reason: `${positives} similar, ${negatives} not, of ${n} < N samples (test list exhausted)`,
  };
}

/**
 * A rule whose every instance in L sits at the end of the URL (.htm → "" on /a/x.htm ↔ /a/x) is
 * spelled with the end frame (.htm$ → $) before it is judged: applied at its leftmost occurrence,
 * the bare spelling would also rewrite /a/x.htm/ or /a.htm/x, pages it was never seen on. Fig. 2
 * keeps a refinement with the same support for the same reason ("it gives the full context").
 */
export function anchorAtEnd(rule: SubstringRule, L: UrlIndex): void {
  const a = rule.alpha;
  const b = rule.beta;
  if (a[a.length - 1] === '$' || b[b.length - 1] === '$') return;
  const anchored = { ...rule, alpha: [...a, '$'], beta: [...b, '$'] };
  let instances = 0;
  for (const c of L.candidates(rule)) {
    const u = L.urls[c];
    for (const [r, other] of [
      [rule, anchored],
      [reversed(rule), reversed(anchored)],
    ] as const) {
      const v = applyRule(r, u.url, u.tokens);
      if (v === null || !L.byUrl.has(v)) continue;
      instances++;
      if (applyRule(other, u.url, u.tokens) !== v) return;
    }
  }
  if (instances === 0) return;
  rule.alpha = anchored.alpha;
  rule.beta = anchored.beta;
}

function settle(rule: Rule, o: ValidationOutcome): void {
  rule.positives = o.positives;
  rule.negatives = o.negatives;
  if (o.negativeSamples.length > 0) rule.negativeSamples = o.negativeSamples;
  else delete rule.negativeSamples;
}

/**
 * A rule refuted across its site, judged again section by section (an origin and its first path
 * directory, sections.ts): `dir/ → dir` where one directory's server answers both spellings and the
 * others serve two pages. Each section with instances is validated on its own URLs as Fig. 3 validates a
 * site (the same N, ε and document test); the rule is valid in the sections that pass with no negative
 * sample, when they hold at least MS samples together and not every section passes (then the site-wide
 * refutation stands on samples this split did not see). Null when none passes.
 */
export function validateBySection(
  rule: Rule,
  L: UrlIndex,
  fetch: FetchFn,
  params: Pick<DustParams, 'N' | 'epsilon' | 'dustJaccard' | 'missingIsNegative' | 'MS'>,
  random: () => number,
): { keys: string[]; of: number; positives: number } | null {
  const bySection = new Map<string, DustUrl[]>();
  for (const c of L.candidates(rule)) {
    const u = L.urls[c];
    const k = sectionKey(u.url);
    const list = bySection.get(k);
    if (list) list.push(u);
    else bySection.set(k, [u]);
  }
  if (bySection.size < 2) return null;
  const keys: string[] = [];
  let positives = 0;
  for (const [k, urls] of [...bySection].sort(([x], [y]) => (x < y ? -1 : 1))) {
    const o = validateRule(rule, new UrlIndex(urls), fetch, params, random);
    if (o.verdict !== 'valid' || o.negatives > 0) continue;
    keys.push(k);
    positives += o.positives;
  }
  if (keys.length === 0 || keys.length === bySection.size || positives < params.MS) return null;
  return { keys, of: bySection.size, positives };
}

/**
 * Fig. 4, Validate(R, L), over rules ranked by likeliness, each pair shrinking side first. Rules are
 * updated in place: status, direction (a valid growing rule gets alpha and beta swapped, so
 * alpha → beta is always the rule to apply), counts, reason, refinesValid.
 *
 *  4: for j = 1 to i − 1: if (R[j] was not eliminated and R[i] refines R[j]) eliminate R[i]
 * 10: if (ValidateRule(R[i].α → R[i].β, L)) add it to LR
 * 12: else if (ValidateRule(R[i].β → R[i].α, L)) add it to LR
 * 15: else eliminate R[i]
 *
 * "Not eliminated" earlier rules are the valid ones (undecided ones are not evidence), so the refinement
 * test runs against rules already found valid: "once a broader rule is deemed valid, there is no
 * longer a need for refinements thereof."
 */
export function validateRules(
  rules: Rule[],
  testList: readonly DustUrl[],
  fetch: FetchFn,
  params: DustParams,
  onRule?: (done: number, total: number) => void,
): void {
  // Token postings are built for a site when its first rule is validated.
  const sites = groupBySite(testList, params.site);
  const indexes = new Map<string, UrlIndex>();
  const indexOf = (site: string): UrlIndex => {
    let index = indexes.get(site);
    if (!index) indexes.set(site, (index = new UrlIndex(sites.get(site) ?? [])));
    return index;
  };
  const valid: Rule[] = [];
  // The valid rules as compositions are judged with them: each rewrites only on the origins where it
  // has instances (sites by port on one address are one site here, and a rule seen on one of them
  // would otherwise merge, on the others, instances it was never seen on).
  const local = new LocalRules(params.extensions && params.scoped);
  const accept = (rule: Rule, L: UrlIndex): void => {
    valid.push(rule);
    local.add(rule, L);
  };
  rules.forEach((rule, k) => {
    onRule?.(k, rules.length);
    const broader = valid.find((v) => pairRefines(rule, v));
    if (broader) {
      rule.refinesValid = broader.id;
      rule.coveredBy = [broader.id];
      rule.reason = `refines valid rule #${broader.id}: not validated (Fig. 4 lines 4–7)`;
      rule.pending = 'refines-valid';
      return;
    }
    const L = indexOf(rule.site);
    if (params.extensions && rule.kind === 'substring') anchorAtEnd(rule, L);
    // Lemma 5.3 sees refinement between literal substitutions only; a special case of a parameter
    // rule (?sessionid=4015$ → $ under "drop sessionid") or of a rule with wildcards is recognised by
    // its instances: the valid rules already send both URLs of each to one URL.
    // Dropping a parameter is never the special case of a substitution; setting it to a default is
    // one of dropping it, once that is valid.
    const composed =
      rule.kind === 'substring' || rule.kind === 'param-default'
        ? composedOf(rule, L, local.rules(), params.maxIterations)
        : null;
    // A rule of Figs. 1–2 is judged on its own unless one valid rule covers it (as before this
    // extension, compositions of several skip validation only for rules from pairs).
    // A rule that keeps the origin is never the special case of one that moves it while it rewrites
    // the path (/nodes/{x}.html$ → /?p={x}$ beside ^https://m.s/nodes/{x}.html$ → ^http://s/?p={x}$,
    // which merges its instances only as respelled on the origin the moves lead to): it is the rule a
    // person writes, and is judged on its own.
    const acrossOnly =
      composed?.length === 1 &&
      !pathAcrossOrigins(rule) &&
      valid.some((v) => v.id === composed[0] && pathAcrossOrigins(v));
    const by =
      composed &&
      !acrossOnly &&
      (composed.length === 1 || (rule.kind === 'substring' && rule.origin === 'pairs'))
        ? composed
        : null;
    if (by) {
      rule.refinesValid = by[0];
      rule.coveredBy = by;
      rule.pending = by.length === 1 ? 'special-case' : 'composition';
      rule.reason =
        by.length === 1
          ? `special case of valid rule #${by[0]}, which merges every instance of it: not validated (Fig. 4 lines 4–7)`
          : `its instances are already merged by valid rules ${by.map((id) => `#${id}`).join(', ')}: not validated (a composition; the idea of Fig. 4 lines 4–7)`;
      return;
    }
    const random = seededRandom(params.seed ^ Math.imul(rule.id + 1, 0x9e3779b1));
    // §5.3 tries the shrinking direction first. When the site's own redirects point the other way
    // (shop.test/x answers 301 to www.shop.test/x), the server has named its canonical URL: try that
    // direction first (not in the paper).
    const serverWay = rule.kind === 'substring' && redirectsAgainst(rule, L, params.extensions);
    const order: Rule[] =
      rule.kind !== 'substring' ? [rule] : serverWay ? [reversed(rule), rule] : [rule, reversed(rule)];
    const outcomes: ValidationOutcome[] = [];
    for (const [k, attempt] of order.entries()) {
      const o = validateRule(attempt, L, fetch, params, random);
      outcomes.push(o);
      if (o.verdict !== 'valid') continue;
      settle(rule, o);
      const growing = rule.kind === 'substring' && attempt !== rule;
      if (rule.kind === 'substring' && growing) [rule.alpha, rule.beta] = [rule.beta, rule.alpha];
      rule.status = 'valid';
      rule.direction = rule.kind !== 'substring' ? 'one-way' : growing ? 'growing' : 'shrinking';
      const why = serverWay ? 'the site redirects this way; ' : '';
      rule.reason =
        k === 0
          ? `valid${growing ? ' growing' : ''}: ${why}${o.reason}`
          : `valid${growing ? ' growing' : ''} (${k === 1 && !growing ? 'growing' : 'shrinking'} direction ${outcomes[0].verdict}: ${outcomes[0].reason}): ${o.reason}`;
      accept(rule, L);
      return;
    }
    const [first, second] = rule.kind === 'substring' && serverWay ? [outcomes[1], outcomes[0]] : outcomes;
    settle(rule, first);
    const verdicts = second ? [first, second] : [first];
    if (verdicts.every((o) => o.verdict === 'refuted')) {
      rule.status = 'refuted';
      rule.reason = `refuted: ${verdicts.map((o) => o.reason).join('; reverse: ')}`;
      // A rule that holds in one section of a site and not in the rest (not in the paper).
      const sections =
        params.extensions && params.scoped && rule.kind === 'substring' && !serverWay
          ? validateBySection(rule, L, fetch, params, random)
          : null;
      if (sections) {
        rule.status = 'valid';
        rule.direction = 'shrinking';
        rule.validIn = sections.keys;
        rule.reason = `valid in ${sections.keys.length} of ${sections.of} sections, ${sections.positives} samples similar there (refuted across the site: ${first.reason})`;
        accept(rule, L);
      }
    } else {
      rule.status = 'likely';
      rule.reason = `undecided: ${verdicts.map((o) => o.reason).join('; reverse: ')}`;
      // The first cause either direction gives, in this order: no documents says most.
      const causes = verdicts.map((o) => o.cause);
      rule.pending =
        (['no-content', 'target-missing', 'no-change'] as const).find((c) => causes.includes(c)) ??
        'unjudged';
    }
  });
  onRule?.(rules.length, rules.length);
}

/**
 * The valid rules as later compositions use them: each kept to the sections it was validated in, or to
 * the origins of its instances — and the origins the valid origin moves connect them with (http and
 * https of one host are one site; two sites on one address by port are not) — when those are not all
 * of the list's origins.
 */
class LocalRules {
  private readonly list: Rule[] = [];
  /** Per rule, the origins of its instances (null: everywhere). */
  private readonly seen = new Map<Rule, Set<string> | null>();
  private readonly lists = new Map<Rule, UrlIndex>();
  /** The valid origin moves, as origin prefixes (https://h: → http://h:). */
  private readonly moves: [string, string][] = [];
  /** The copies handed out, per rule, while the moves stay as they are (their identity keeps caches). */
  private copies = new Map<Rule, Rule>();

  constructor(private readonly on: boolean) {}

  add(rule: Rule, L: UrlIndex): void {
    this.list.push(rule);
    if (!this.on) return;
    this.lists.set(rule, L);
    this.seen.set(rule, rule.validIn ? null : instanceOrigins(rule, L));
    const m = movePrefixes(rule);
    if (m) {
      this.moves.push(m);
      this.copies = new Map();
    }
  }

  rules(): Rule[] {
    if (!this.on) return this.list;
    return this.list.map((r) => {
      let c = this.copies.get(r);
      if (!c) this.copies.set(r, (c = this.localOf(r)));
      return c;
    });
  }

  private localOf(rule: Rule): Rule {
    if (rule.validIn) return { ...rule, scope: { sections: rule.validIn, applicable: 0, instances: 0 } };
    const seen = this.seen.get(rule);
    if (!seen || seen.size === 0) return rule;
    const L = this.lists.get(rule)!;
    let all = originsOfList.get(L);
    if (!all) originsOfList.set(L, (all = new Set(L.urls.map((u) => originOf(u.url)))));
    const origins = new Set(seen);
    // Origins of the list the moves connect, both ways, to a fixpoint (only origins of the list: a move
    // whose origin is a prefix of its target, http://s → http://s:8080, would grow without end).
    for (let grew = true; grew;) {
      grew = false;
      for (const o of [...origins])
        for (const [a, b] of this.moves)
          for (const [x, y] of [
            [a, b],
            [b, a],
          ])
            // A prefix ends at the host's end or inside the port: http://s is not http://sx.test.
            if (o.startsWith(x) && (x.endsWith(':') || o.length === x.length || o[x.length] === ':')) {
              const t = y + o.slice(x.length);
              if (all.has(t) && !origins.has(t)) {
                origins.add(t);
                grew = true;
              }
            }
    }
    if ([...all].every((o) => origins.has(o))) return rule;
    return { ...rule, scope: { sections: [], origins: [...origins], applicable: 0, instances: 0 } };
  }
}

/** The origins of a rule's instances in L (both URLs of each). */
function instanceOrigins(rule: Rule, L: UrlIndex): Set<string> {
  const origins = new Set<string>();
  for (const [u, w] of instancesIn(rule, L)) origins.add(originOf(u.url)).add(originOf(w.url));
  return origins;
}

/** An origin-moving rule's two origin prefixes without ^ (https://h: and http://h:), or null. */
function movePrefixes(rule: Rule): [string, string] | null {
  if (rule.kind !== 'substring' || !movesOrigin(rule)) return null;
  const side = (t: readonly string[]) => {
    const end = originEnd(t);
    const s = (end < 0 ? t : t.slice(0, end)).join('');
    return s.startsWith('^') && !s.includes('{') ? s.slice(1).replace(/\$$/, '') : null;
  };
  const a = side(rule.alpha);
  const b = side(rule.beta);
  return a && b ? [a, b] : null;
}

const originsOfList = new WeakMap<UrlIndex, Set<string>>();
