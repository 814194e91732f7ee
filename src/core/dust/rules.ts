/**
 * Rules as operations on URLs: applying one (§3 Canonization: "we assume that there is some standard
 * way of applying every rule"), the shrinking order of §5.3, and refinement (Definition 5.2, Lemma 5.3).
 */
import { dropParam, dropPathParam, setParam } from './url-params';
import { tokenizeUrl, untokenize } from './url-list';
import { fillWildcards, hasWildcard, isWildcard, isWordToken, matchWildRun } from './wildcards';
import type { DustUrl, Rule, SubstringRule } from './types';

export { isWordToken };

/** A likely substring rule with nothing validated yet; `over` sets supports, origin, reason. */
export function likelySubstringRule(
  site: string,
  alpha: string[],
  beta: string[],
  over: Partial<SubstringRule> = {},
): SubstringRule {
  return {
    id: 0,
    kind: 'substring',
    site,
    alpha,
    beta,
    support: 0,
    likelySimilarSupport: 0,
    redundancySupport: 0,
    status: 'likely',
    direction: 'undecided',
    positives: 0,
    negatives: 0,
    instances: [],
    refinesValid: null,
    reason: '',
    ...over,
  };
}

/**
 * A rule's two sides as people read them, in the paper's α → β notation (§3): a substring rule's token
 * runs joined, wildcards as they are ({y}/{m}/{d}/{n}, {s}, {x}: wildcards.ts); a parameter
 * substitution (§1) as the parameter with any value → dropped or set to its default; a path parameter
 * with its ';' (";jsessionid=… → (dropped)"). The UI, the exports and the CLI all spell rules from here.
 */
export function ruleSides(rule: Rule): { alpha: string; beta: string } {
  if (rule.kind === 'substring') return { alpha: rule.alpha.join(''), beta: rule.beta.join('') };
  if (rule.kind === 'param-drop') return { alpha: `${rule.param}=…`, beta: '(dropped)' };
  if (rule.kind === 'path-param-drop') return { alpha: `;${rule.param}=…`, beta: '(dropped)' };
  return { alpha: `${rule.param}=…`, beta: `${rule.param}=${rule.value}` };
}

/** A rule as one line: "α → β" (see ruleSides). */
export function ruleSpelling(rule: Rule): string {
  const { alpha, beta } = ruleSides(rule);
  return `${alpha} → ${beta}`;
}

/**
 * §5.3: "α ≻ β … if either |α| > |β| or |α| = |β| and α succeeds β in the lexicographical order. In
 * this case, we say that the rule α → β shrinks the URL." Lengths in tokens (URLs are strings over
 * the token alphabet, §3); the order compares token by token. Positive when a ≻ b.
 */
export function compareSides(a: readonly string[], b: readonly string[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i] ? 1 : -1;
  return 0;
}

/**
 * Leftmost position ≥ from where run occurs in tokens, or -1. A leading '^' of the run matches only
 * the start frame and a trailing '$' only the end frame (Definition 3.1 lets rules "simultaneously
 * start with the token ^ and/or … end with the token $"); the empty run occurs nowhere, as a
 * substitution "" → β has no one place to insert β. Wildcards in the run (wildcards.ts) match what
 * their kind allows.
 */
export function findRun(tokens: readonly string[], run: readonly string[], from = 0): number {
  const n = run.length;
  if (n === 0) return -1;
  if (hasWildcard(run)) return matchWildRun(tokens, run, from)?.at ?? -1;
  if (n > tokens.length) return -1;
  let lo = Math.max(from, 1);
  let hi = tokens.length - n;
  if (run[0] === '^') [lo, hi] = [from, Math.min(hi, 0)];
  if (run[n - 1] === '$') lo = Math.max(lo, tokens.length - n);
  for (let k = lo; k <= hi; k++) {
    let t = 0;
    while (t < n && tokens[k + t] === run[t]) t++;
    if (t === n) return k;
  }
  return -1;
}

/** tokens with the leftmost occurrence of alpha replaced by beta; null when alpha does not occur. */
export function applySubstring(
  tokens: readonly string[],
  alpha: readonly string[],
  beta: readonly string[],
): string[] | null {
  // The frames stay where they are: a rule may only move them together (^…/^…, …$/…$).
  if ((alpha[0] === '^') !== (beta[0] === '^')) return null;
  if ((alpha[alpha.length - 1] === '$') !== (beta[beta.length - 1] === '$')) return null;
  if (hasWildcard(alpha) || hasWildcard(beta)) {
    const m = matchWildRun(tokens, alpha);
    const put = m && fillWildcards(beta, m.bind);
    return m && put && [...tokens.slice(0, m.at), ...put, ...tokens.slice(m.end)];
  }
  const k = findRun(tokens, alpha);
  if (k < 0) return null;
  return [...tokens.slice(0, k), ...beta, ...tokens.slice(k + alpha.length)];
}

/** The URL a rule turns url into, or null when the rule does not apply or changes nothing. */
export function applyRule(rule: Rule, url: string, tokens?: readonly string[]): string | null {
  let out: string | null;
  if (rule.kind === 'substring') {
    const t = applySubstring(tokens ?? tokenizeUrl(url), rule.alpha, rule.beta);
    out = t && untokenize(t);
  } else if (rule.kind === 'param-drop') out = dropParam(url, rule.param);
  else if (rule.kind === 'path-param-drop') out = dropPathParam(url, rule.param);
  else out = setParam(url, rule.param, rule.value);
  return out === null || out === url ? null : out;
}

/** Lemma 5.3: α1 → β1 refines α2 → β2 iff some envelope (γ, δ) gives α1 = γα2δ and β1 = γβ2δ. */
export function refines(
  a1: readonly string[],
  b1: readonly string[],
  a2: readonly string[],
  b2: readonly string[],
): boolean {
  const extra = a1.length - a2.length;
  if (extra < 0 || b1.length - b2.length !== extra) return false;
  // "we simply check that α is a substring of α', replace α by β, and check whether the outcome is
  // β'. If α has multiple occurrences in α', we check all of them."
  for (let k = 0; k <= extra; k++) {
    let ok = true;
    for (let t = 0; t < a2.length && ok; t++) ok = a1[k + t] === a2[t];
    for (let t = 0; t < k && ok; t++) ok = b1[t] === a1[t];
    for (let t = 0; t < b2.length && ok; t++) ok = b1[k + t] === b2[t];
    for (let t = k + a2.length; t < a1.length && ok; t++) ok = b1[t - a2.length + b2.length] === a1[t];
    if (ok) return true;
  }
  return false;
}

/**
 * Refinement between pairs, each standing for two rules (§5.2: "When considering two pairs (α, β)
 * and (α', β'), we check refinement in both directions"): x refines y when x's α → β refines y's
 * α → β or y's β → α. Only substring rules of one site refine each other.
 */
export function pairRefines(x: Rule, y: Rule): boolean {
  if (x.kind !== 'substring' || y.kind !== 'substring' || x.site !== y.site) return false;
  return refines(x.alpha, x.beta, y.alpha, y.beta) || refines(x.alpha, x.beta, y.beta, y.alpha);
}

/** The reverse rule β → α of a substring rule (§5.3 tries it when α → β is refuted). */
export function reversed(rule: SubstringRule): SubstringRule {
  return { ...rule, alpha: rule.beta, beta: rule.alpha };
}

/**
 * URLs of one site indexed by token, so the URLs a rule may apply to are found from the posting
 * list of its rarest token instead of by scanning the whole list.
 */
export class UrlIndex {
  readonly urls: readonly DustUrl[];
  readonly byUrl: Map<string, DustUrl>;
  private readonly postings = new Map<string, number[]>();

  constructor(urls: readonly DustUrl[]) {
    this.urls = urls;
    this.byUrl = new Map(urls.map((u) => [u.url, u]));
    urls.forEach((u, k) => {
      let last = '';
      for (const t of u.tokens) {
        if (t === last) continue;
        last = t;
        const list = this.postings.get(t);
        if (!list) this.postings.set(t, [k]);
        else if (list[list.length - 1] !== k) list.push(k);
      }
    });
  }

  /** Indices of the URLs holding the rule's rarest token: a superset of the URLs it applies to. */
  candidates(rule: Rule): readonly number[] {
    const side = rule.kind === 'substring' ? rule.alpha : tokenizeUrl(rule.param).slice(1, -1);
    if (rule.kind === 'substring' && side.length === 0) return [];
    let best: readonly number[] | null = null;
    for (const t of side) {
      if (isWildcard(t)) continue;
      const list = this.postings.get(t) ?? [];
      if (best === null || list.length < best.length) best = list;
    }
    return best ?? this.urls.map((_, k) => k);
  }
}

/**
 * Instances (u, R(u)) of a rule with both URLs in L (Definition 3.1), u from L.candidates in list
 * order; at most `limit` of them.
 */
export function* instancesIn(rule: Rule, L: UrlIndex, limit = Infinity): Generator<[DustUrl, DustUrl]> {
  let n = 0;
  for (const c of L.candidates(rule)) {
    const u = L.urls[c];
    const v = applyRule(rule, u.url, u.tokens);
    const w = v === null ? undefined : L.byUrl.get(v);
    if (!w) continue;
    if (++n > limit) return;
    yield [u, w];
  }
}

/** Up to k instances (u, R(u)) with both URLs in the list (Definition 3.1), likely-similar ones first. */
export function findInstances(
  rule: Rule,
  index: UrlIndex,
  k: number,
  similar: (a: DustUrl, b: DustUrl) => boolean,
): [string, string][] {
  const good: [string, string][] = [];
  const other: [string, string][] = [];
  for (const c of index.candidates(rule)) {
    const u = index.urls[c];
    const v = applyRule(rule, u.url, u.tokens);
    const w = v === null ? undefined : index.byUrl.get(v);
    if (!w) continue;
    if (similar(u, w)) good.push([u.url, w.url]);
    else if (other.length < k) other.push([u.url, w.url]);
    if (good.length >= k) break;
  }
  return [...good, ...other].slice(0, k);
}

/**
 * Every instance (u, R(u)) of a rule in a URL list (Definition 3.1: both URLs in the list), in list
 * order — what a rule's detail pages through.
 */
export function ruleInstancesIn(rule: Rule, urls: readonly string[]): [string, string][] {
  const inList = new Set(urls);
  const out: [string, string][] = [];
  // A URL the rule applies to holds its longest literal text: most URLs are skipped by one includes().
  const side = rule.kind === 'substring' ? rule.alpha : [rule.param];
  const needle = side
    .filter((t, i) => !isWildcard(t) && !(i === 0 && t === '^') && !(i === side.length - 1 && t === '$'))
    .reduce((a, t) => (t.length > a.length ? t : a), '');
  for (const u of urls) {
    if (needle !== '' && !u.includes(needle)) continue;
    const v = applyRule(rule, u);
    if (v !== null && inList.has(v)) out.push([u, v]);
  }
  return out;
}
