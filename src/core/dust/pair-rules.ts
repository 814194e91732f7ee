/**
 * Rules from pairs of URLs with the same document — not in the paper, which mines the URL list alone;
 * here, when the list comes from a crawl, the documents are known too. Two gaps of Fig. 1 are closed:
 *
 * - Overflowing envelopes. dir/index.html and dir/ share the envelope ("…/dir/", "$") with every other
 *   file of the directory, so in any directory of more than T_low files the paper's own example rule
 *   "/index.html$" → "$" (§3) gets no support.
 * - Two-place rules. /archive/2024/N/ and /story_N differ in two places around the shared N; no
 *   substitution α → β with one envelope (Definition 3.1) expresses them for more than one N.
 *
 * For every pair of URLs of one site whose documents are identical (same text fingerprint or digest;
 * groups larger than pairGroupMax are skipped, as Fig. 1 skips overflowing buckets), the two token
 * strings are aligned: common prefix and suffix stripped, the differing middles kept, with the
 * neighbouring token on each side when it is not alphanumeric (a separator or a frame: "/", "?", "^",
 * "$", so "/index.html$" → "/$" and not "index.html" → ""). When the middles share an alphanumeric
 * token that occurs once in each, the pair also yields the two-place rule with that token carried:
 * "/archive/2024/{x}/$" → "/story_{x}$". A rule spelled by at least MS pairs is a candidate; its
 * support and likely-similar support are then counted over the whole site list as for any rule, and
 * it is validated (Figs. 3–4) like the others. Candidates equal to, or refined by, a rule of Figs.
 * 1–2 are dropped: the paper's rules come first; a refinement stays (Fig. 4 skips it when the broader
 * rule is valid).
 *
 * Several varying tokens: /2024/04/14/1234/ ↔ /?p=1234 spells one rule per date. All the pairs'
 * spellings (also those below MS) are generalised (generalise.ts): the words that vary become typed
 * wildcards, /2024/{m}/{d}/{n}/$ → /?p={n}$, one rule whose support is counted over all its
 * instances. The narrower spellings stay candidates; once the general rule is valid they are folded
 * under it (validation.ts). mergeLikelyRules does the same for the rules of Figs. 1–2.
 */
import { applyRule, compareSides, likelySubstringRule, pairRefines, reversed, UrlIndex } from './rules';
import { likelySimilar } from './similarity';
import { groupBySite } from './url-list';
import { generalise } from './generalise';
import { wildcardKind } from './wildcards';
import { GAP, type DustParams, type DustUrl, type SubstringRule } from './types';

const ALNUM_TOKEN = /^[\p{L}\p{N}]+$/u;

function isAlnumToken(t: string): boolean {
  return t !== GAP && ALNUM_TOKEN.test(t);
}

/** The rules one pair spells: the plain difference, and the two-place ones with a carried token. */
export function pairDifferences(
  a: readonly string[],
  b: readonly string[],
  maxLength: number,
): [string[], string[]][] {
  const n = a.length;
  const m = b.length;
  let p = 0;
  while (p < n && p < m && a[p] === b[p]) p++;
  if (p === n && p === m) return [];
  let q = 0;
  while (q < n - p && q < m - p && a[n - 1 - q] === b[m - 1 - q]) q++;
  const mu = a.slice(p, n - q);
  const mv = b.slice(p, m - q);
  if (mu.length > maxLength || mv.length > maxLength) return [];
  // p ≥ 1 and q ≥ 1: both strings start with ^ and end with $. A difference inside the origin
  // (scheme, host, port) keeps the whole origin before it, from ^: the rule moves the origin
  // (^https://www.s/a → ^http://s/a), not any "/www.s/" in a path.
  let slashes = 0;
  let authorityEnd = a.length;
  for (let i = 1; i < a.length; i++)
    if (a[i] === '/' && ++slashes === 3) {
      authorityEnd = i;
      break;
    }
  const left = p <= authorityEnd ? a.slice(0, p) : isAlnumToken(a[p - 1]) ? [] : [a[p - 1]];
  const right = isAlnumToken(a[n - q]) ? [] : [a[n - q]];
  const out: [string[], string[]][] = [];
  const frame = (x: string[], y: string[]) => {
    const alpha = [...left, ...x, ...right];
    const beta = [...left, ...y, ...right];
    // An empty side has no one place to be found (rules.ts findRun).
    if (alpha.length > 0 && beta.length > 0) out.push(orient(alpha, beta));
  };
  frame(mu, mv);
  for (let i = 0; i < mu.length; i++) {
    const x = mu[i];
    if (!isAlnumToken(x) || mu.indexOf(x, i + 1) >= 0) continue;
    const j = mv.indexOf(x);
    if (j < 0 || mv.indexOf(x, j + 1) >= 0) continue;
    frame([...mu.slice(0, i), GAP, ...mu.slice(i + 1)], [...mv.slice(0, j), GAP, ...mv.slice(j + 1)]);
  }
  return out;
}

/** The shrinking direction first (§5.3), so both orders of a pair count for one rule. */
function orient(alpha: string[], beta: string[]): [string[], string[]] {
  return compareSides(alpha, beta) < 0 ? [beta, alpha] : [alpha, beta];
}

const SEP = '\u0001';

/** A rule spelled by pairs of URLs with the same document, and how many pairs spell it. */
export interface PairSpelling {
  alpha: string[];
  beta: string[];
  count: number;
}

/**
 * Every rule the pairs of URLs of one site's list with the same document spell (pairDifferences),
 * each with the number of pairs spelling it — all of them, also those under MS: the families of
 * generalise.ts are formed from these, their counts summed, before any threshold.
 */
export function pairSpellings(
  list: readonly DustUrl[],
  params: Pick<DustParams, 'S' | 'pairGroupMax'>,
): PairSpelling[] {
  const byDocument = new Map<string, number[]>();
  list.forEach((u, k) => {
    if (u.digest === '') return;
    const g = byDocument.get(u.digest);
    if (g) g.push(k);
    else byDocument.set(u.digest, [k]);
  });
  const pairs = new Map<string, PairSpelling>();
  for (const g of byDocument.values()) {
    if (g.length < 2 || g.length > params.pairGroupMax) continue;
    for (let x = 0; x < g.length; x++) {
      for (let y = x + 1; y < g.length; y++) {
        const seen = new Set<string>();
        for (const [alpha, beta] of pairDifferences(list[g[x]].tokens, list[g[y]].tokens, params.S)) {
          const key = alpha.join(SEP) + SEP + SEP + beta.join(SEP);
          if (seen.has(key)) continue;
          seen.add(key);
          const t = pairs.get(key);
          if (t) t.count++;
          else pairs.set(key, { alpha, beta, count: 1 });
        }
      }
    }
  }
  return [...pairs.values()];
}

/**
 * Candidate rules from identical documents, per site, with their supports counted over the site's
 * list. `existing` are the rules of Figs. 1–2 (and parameter rules are independent of these).
 */
export function detectPairRules(
  urls: readonly DustUrl[],
  params: Pick<DustParams, 'site' | 'S' | 'MS' | 'pairGroupMax' | 'likelySimilarJaccard'>,
  existing: readonly SubstringRule[],
): SubstringRule[] {
  const out: SubstringRule[] = [];
  for (const [site, list] of groupBySite(urls, params.site)) {
    const pairs = pairSpellings(list, params);
    const mine = existing.filter((r) => r.site === site);
    const spelled = new Set(mine.map(spellingKey));
    const outSpelled = new Set<string>();
    let index: UrlIndex | null = null;
    for (const { alpha, beta, count } of pairs) {
      if (count < params.MS) continue;
      const rule = likelySubstringRule(site, alpha, beta, { origin: 'pairs' });
      // A refinement of a Fig. 1–2 rule stays a candidate: its context may be what makes it apply
      // (/$ → $ where the broader / → "" rewrites the first '/', of http://); Fig. 4 lines 4–7 skip it
      // once the broader rule is valid.
      if (spelled.has(spellingKey(rule)) || mine.some((r) => pairRefines(r, rule))) continue;
      index ??= new UrlIndex(list);
      countSupport(rule, index, params.likelySimilarJaccard);
      if (rule.likelySimilarSupport < params.MS) continue;
      rule.reason = `likely: ${count} pairs of identical documents differ so; ${rule.likelySimilarSupport} likely-similar instances in the list`;
      out.push(rule);
      outSpelled.add(spellingKey(rule));
    }
    // A general rule with one carried word restates the carried-token candidate ({n} for {x}).
    const carried = new Set(out.filter((r) => r.site === site).map((r) => asGap(r.alpha, r.beta)));
    for (const g of generalise(pairs, params.MS)) {
      const rule = likelySubstringRule(site, g.alpha, g.beta, { origin: 'pairs' });
      if (carried.has(asGap(g.alpha, g.beta))) continue;
      if (spelled.has(spellingKey(rule)) || outSpelled.has(spellingKey(rule))) continue;
      index ??= new UrlIndex(list);
      countSupport(rule, index, params.likelySimilarJaccard);
      if (rule.likelySimilarSupport < params.MS) continue;
      outSpelled.add(spellingKey(rule));
      rule.reason = `likely: one rule for ${g.members} spellings of ${g.count} pairs of identical documents (the words that vary are wildcards); ${rule.likelySimilarSupport} likely-similar instances in the list`;
      out.push(rule);
    }
  }
  return out.sort(
    (a, b) =>
      b.likelySimilarSupport - a.likelySimilarSupport ||
      b.support - a.support ||
      compareSides(b.alpha, a.alpha) ||
      compareSides(b.beta, a.beta) ||
      (a.site < b.site ? -1 : a.site > b.site ? 1 : 0),
  );
}

/** A rule's spelling with every one-token wildcard read as GAP. */
function asGap(alpha: readonly string[], beta: readonly string[]): string {
  const g = (t: string) => {
    const k = wildcardKind(t);
    return k === 'x' || k === 'n' ? GAP : t;
  };
  return alpha.map(g).join(SEP) + SEP + SEP + beta.map(g).join(SEP);
}

/** A rule's two sides in either order, as one key (sameRule as a set lookup). */
function spellingKey(r: SubstringRule): string {
  const a = r.alpha.join(SEP);
  const b = r.beta.join(SEP);
  return a < b ? `${a}${SEP}${SEP}${b}` : `${b}${SEP}${SEP}${a}`;
}

function sameRule(x: SubstringRule, y: SubstringRule): boolean {
  const eq = (p: readonly string[], q: readonly string[]) => compareSides(p, q) === 0;
  return (eq(x.alpha, y.alpha) && eq(x.beta, y.beta)) || (eq(x.alpha, y.beta) && eq(x.beta, y.alpha));
}

/**
 * Support as Definition 3.1 counts it — URLs u of the list whose R(u) is in the list too, either
 * direction — and of those the LikelySimilar ones (§4). Every instance is counted, not only buckets
 * of ≤ T: these rules did not come from buckets.
 */
export function countSupport(rule: SubstringRule, index: UrlIndex, jaccard: number): void {
  const back = reversed(rule);
  const seen = new Set<string>();
  for (const r of [rule, back]) {
    for (const c of index.candidates(r)) {
      const u = index.urls[c];
      const v = applyRule(r, u.url, u.tokens);
      const w = v === null ? undefined : index.byUrl.get(v);
      if (!w) continue;
      const key = u.url < w.url ? `${u.url} ${w.url}` : `${w.url} ${u.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rule.support++;
      if (likelySimilar(u, w, jaccard)) rule.likelySimilarSupport++;
    }
  }
  rule.redundancySupport = rule.likelySimilarSupport;
}

/**
 * Rules of Figs. 1–2 that differ only in words a wildcard covers (?p=5 → /post/5, ?p=6 → /post/6 …
 * at a few instances each) merged into one rule with wildcards (generalise.ts), support counted over
 * the site's list as for rules from pairs. The merged rules are new candidates (origin 'merged'); the
 * rules they merge stay, and are folded under the merged rule once it is valid.
 */
export function mergeLikelyRules(
  rules: readonly SubstringRule[],
  urls: readonly DustUrl[],
  params: Pick<DustParams, 'site' | 'MS' | 'likelySimilarJaccard'>,
): SubstringRule[] {
  const bySite = new Map<string, SubstringRule[]>();
  for (const r of rules) bySite.set(r.site, [...(bySite.get(r.site) ?? []), r]);
  const lists = groupBySite(urls, params.site);
  const out: SubstringRule[] = [];
  for (const [site, mine] of bySite) {
    const general = generalise(
      mine.map((r) => ({ alpha: r.alpha, beta: r.beta, count: r.likelySimilarSupport })),
      params.MS,
    );
    if (general.length === 0) continue;
    const index = new UrlIndex(lists.get(site) ?? []);
    for (const g of general) {
      const rule = likelySubstringRule(site, g.alpha, g.beta, { origin: 'merged' });
      if (mine.some((r) => sameRule(r, rule))) continue;
      countSupport(rule, index, params.likelySimilarJaccard);
      if (rule.likelySimilarSupport < params.MS) continue;
      rule.reason = `likely: merges ${g.members} likely rules that differ only where the wildcards stand; ${rule.likelySimilarSupport} likely-similar instances in the list`;
      out.push(rule);
    }
  }
  return out.sort((a, b) => b.likelySimilarSupport - a.likelySimilarSupport || b.support - a.support);
}
