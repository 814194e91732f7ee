/**
 * Rules on every origin of a site. Not in the paper, whose rules are substrings of URLs: a rule found
 * on the pages of one host is spelled with it (^https://s.fr/kb/ → ^https://s.fr/Kb/), so on a site
 * served under several origins (http and https, www. and bare, a mirror host or port) the same
 * redirection is one rule per origin, or — once a valid rule moves the origin — misses the URLs moved
 * there. A valid rule whose two sides keep one origin is tried with that origin as the wildcard {o}
 * (^{o}/kb/ → ^{o}/Kb/): when it has instances on other origins of the site too and Fig. 3 validates it
 * on the test list, the rule takes that spelling and its support.
 */
import { seededRandom } from '../random';
import { movesOrigin, originMove } from './origin-moves';
import { isWildcard, isWordToken, ORIGIN, wildcardKind } from './wildcards';
import { countSupport } from './pair-rules';
import { UrlIndex } from './rules';
import { groupBySite } from './url-list';
import { validateRule } from './validation';
import type { DustParams, DustUrl, FetchFn, Rule, SubstringRule } from './types';

export { ORIGIN };

/** Where a side's origin ends (its path's first '/'), or -1 when the side does not start at ^ with one. */
function originEnd(side: readonly string[]): number {
  if (side[0] !== '^' || side[2] !== ':' || side[3] !== '/' || side[4] !== '/') return -1;
  for (let i = 5; i < side.length; i++) if (side[i] === '/' || side[i] === '?' || side[i] === '$') return i;
  return -1;
}

/** The rule with its shared origin as {o}; null when its sides do not both start with one origin. */
export function withAnyOrigin(rule: SubstringRule): { alpha: string[]; beta: string[] } | null {
  if (movesOrigin(rule)) return null;
  const a = originEnd(rule.alpha);
  const b = originEnd(rule.beta);
  if (a < 0 || b < 0 || a !== b) return null;
  for (let i = 0; i < a; i++) if (rule.alpha[i] !== rule.beta[i]) return null;
  return { alpha: ['^', ORIGIN, ...rule.alpha.slice(a)], beta: ['^', ORIGIN, ...rule.beta.slice(b)] };
}

/** A respelling of a valid rule proposed by a widening step; null for none. */
type Propose = (r: SubstringRule) => { alpha: string[]; beta: string[] } | null;

/**
 * Each valid substring rule respelled as `propose` says, in place, when the respelling has more
 * instances in the list than the rule and Fig. 3 validates it on the test list (its support, samples
 * and reason then become the rule's).
 */
function widen(
  rules: readonly Rule[],
  detection: readonly DustUrl[],
  testList: readonly DustUrl[],
  fetch: FetchFn,
  params: DustParams,
  propose: Propose,
  salt: number,
  why: string,
): void {
  const sites = groupBySite(detection, params.site);
  const tests = groupBySite(testList, params.site);
  const indexes = new Map<string, [UrlIndex, UrlIndex]>();
  const tried = new Set<string>();
  for (const r of rules) {
    if (r.kind !== 'substring' || r.status !== 'valid') continue;
    const wide = propose(r);
    if (!wide) continue;
    const key = `${r.site} ${wide.alpha.join('')} ${wide.beta.join('')}`;
    if (tried.has(key)) continue;
    tried.add(key);
    let ix = indexes.get(r.site);
    if (!ix) {
      ix = [new UrlIndex(sites.get(r.site) ?? []), new UrlIndex(tests.get(r.site) ?? [])];
      indexes.set(r.site, ix);
    }
    const copy: SubstringRule = { ...r, ...wide, support: 0, likelySimilarSupport: 0, redundancySupport: 0 };
    countSupport(copy, ix[0], params.likelySimilarJaccard);
    if (copy.support <= r.support) continue;
    const o = validateRule(copy, ix[1], fetch, params, seededRandom(params.seed ^ (salt + r.id)));
    if (o.verdict !== 'valid') continue;
    r.alpha = copy.alpha;
    r.beta = copy.beta;
    r.support = copy.support;
    r.likelySimilarSupport = copy.likelySimilarSupport;
    r.positives = o.positives;
    r.negatives = o.negatives;
    r.negativeSamples = o.negativeSamples.length > 0 ? o.negativeSamples : undefined;
    r.reason += `; ${why} (${copy.likelySimilarSupport} likely-similar instances), ${o.reason}`;
  }
}

/** A widening step: widen() with its respelling, its sampling salt and its words. */
type Widening = (
  rules: readonly Rule[],
  detection: readonly DustUrl[],
  testList: readonly DustUrl[],
  fetch: FetchFn,
  params: DustParams,
) => void;

function widening(propose: Propose, salt: number, why: string): Widening {
  return (rules, detection, testList, fetch, params) =>
    widen(rules, detection, testList, fetch, params, propose, salt, why);
}

/** Valid substring rules respelled with {o} where that holds on the site (in place). */
export const widenOrigins = widening(withAnyOrigin, 0x2545f491, 'holds on every origin of the site ({o})');

/** The rule without the common tail of its sides that starts after a '/' on both; null when none. */
export function shorterContext(r: SubstringRule): { alpha: string[]; beta: string[] } | null {
  const a = r.alpha;
  const b = r.beta;
  if (a[a.length - 1] === '$' || b[b.length - 1] === '$') return null;
  let q = 0;
  while (q < a.length - 1 && q < b.length - 1 && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  let cut = 0;
  for (let t = q; t >= 1 && cut === 0; t--)
    if (a[a.length - 1 - t] === '/' && b[b.length - 1 - t] === '/') cut = t;
  if (cut === 0) return null;
  const alpha = a.slice(0, a.length - cut);
  const beta = b.slice(0, b.length - cut);
  return alpha.length === 0 || beta.length === 0 || alpha.join('') === beta.join('') ? null : { alpha, beta };
}

/**
 * A valid rule's context cut back to what it needs: ^{o}/old/howto/ → ^{o}/howto/ carries the
 * directory "howto/" on both sides, and the mirror it found is ^{o}/old/ → ^{o}/ (one prefix rule per
 * mirror, not one per directory). Not in the paper, whose Fig. 2 keeps the longer context when the
 * supports are equal; here the shorter one is kept when it has more instances and Fig. 3 validates it
 * on the test list. The common tail is cut at a '/' so that path segments stay whole.
 */
export const widenContexts = widening(
  shorterContext,
  0x68e31da4,
  'holds without the directory both sides share',
);

/** Where a side's path starts: after ^ and its origin ({o} or spelled); -1 without them. */
function pathStart(side: readonly string[]): number {
  if (side[0] !== '^') return -1;
  if (side[1] === ORIGIN) return 2;
  return originEnd(side);
}

/** Whether side[i] is a whole path segment: a word between '/' and '/' (or '/' and the end frame). */
function segmentAt(side: readonly string[], i: number): boolean {
  return side[i - 1] === '/' && (side[i + 1] === '/' || side[i + 1] === '$');
}

/**
 * The rule with the directories both sides keep in place as wildcards, and each carried one-word
 * wildcard as a slug: ^{o}/news/cable/{x}/$ → ^{o}/news/cable/{x}$ becomes ^{o}/{x2}/{x3}/{s}/$ →
 * ^{o}/{x2}/{x3}/{s}$. Null when nothing changes. Only rules that start at the origin (a rule that
 * does not has no depth), only the head the sides share, and only whole path segments before the
 * query: the rule's depth and its other words stay as found.
 */
export function anyDirectory(r: SubstringRule): { alpha: string[]; beta: string[] } | null {
  const a = r.alpha;
  const b = r.beta;
  // The paths are compared, each after its origin: a rule may move the origin as well.
  const pa = pathStart(a);
  const pb = pathStart(b);
  if (pa < 0 || pb < 0) return null;
  let head = 0;
  while (
    pa + head < a.length &&
    pb + head < b.length &&
    a[pa + head] === b[pb + head] &&
    a[pa + head] !== '?'
  )
    head++;
  const names = [...a, ...b].filter(isWildcard);
  let k = 1;
  const fresh = (letter: string): string => {
    for (;;) {
      const name = `{${letter}${++k}}`;
      if (!names.includes(name)) return (names.push(name), name);
    }
  };
  const alpha = [...a];
  const beta = [...b];
  let changed = false;
  for (let t = 1; t < head; t++) {
    if (!isWordToken(a[pa + t]) || !segmentAt(a, pa + t) || !segmentAt(b, pb + t)) continue;
    alpha[pa + t] = beta[pb + t] = fresh('x');
    changed = true;
  }
  // A carried one-word wildcard standing for a whole segment: any slug there.
  for (let i = 0; i < a.length; i++) {
    if (wildcardKind(a[i]) !== 'x' || !segmentAt(a, i)) continue;
    const j = b.indexOf(a[i]);
    if (j < 0 || !segmentAt(b, j)) continue;
    alpha[i] = beta[j] = fresh('s');
    changed = true;
  }
  return changed ? { alpha, beta } : null;
}

/**
 * A valid rule found in a few directories said once for every directory at its depth: the same
 * trailing slash dropped under /news/cable/ and /reference/reef/ (each directory a rule, and none of
 * them ≥ minValues directories for generalise.ts to generalise) is ^{o}/{x2}/{x3}/{s}/$ → …. Not in the
 * paper. Kept, as the other widenings, when it has more instances and Fig. 3 validates it on the
 * test list; the narrower rules are then folded under it (markRedundantValid).
 */
export const widenDirectories = widening(anyDirectory, 0x3c6ef372, 'holds in every directory at its depth');

/** Rules breakOriginCycles left out: never put back by markRedundantValid's settling pass. */
const cycleBreakers = new WeakSet<Rule>();

/** Whether breakOriginCycles left this rule out (the folding passes never put it back). */
export function isCycleBreaker(r: Rule): boolean {
  return cycleBreakers.has(r);
}

/**
 * Valid rules that move origins in a cycle (^https://www.s/ → ^http://www.s/ → ^https://s/ →
 * ^https://www.s/, when two were validated the way the site redirects, §5.3's growing direction):
 * canonisation would go round until its iteration cap. The least supported rule of each cycle is not
 * applied (coveredBy: the others of the cycle, which still join its origins).
 */
export function breakOriginCycles(rules: readonly Rule[]): void {
  for (let guard = 0; guard < 100; guard++) {
    const moves = rules
      .filter((r) => r.status === 'valid' && !r.coveredBy)
      .map((r) => ({ r, m: originMove(r) }))
      .filter((x): x is { r: Rule; m: [string, string] } => x.m !== null);
    const cycle = findCycle(moves);
    if (!cycle) return;
    const weakest = cycle.reduce((a, b) =>
      b.likelySimilarSupport < a.likelySimilarSupport ||
      (b.likelySimilarSupport === a.likelySimilarSupport && b.id > a.id)
        ? b
        : a,
    );
    weakest.coveredBy = cycle.filter((x) => x !== weakest).map((x) => x.id);
    cycleBreakers.add(weakest);
    weakest.reason += `; closes a cycle of origin rules with ${weakest.coveredBy.map((id) => `#${id}`).join(', ')}: not applied`;
  }
}

/** A cycle of origin moves within one site, as its rules; null when there is none. */
function findCycle(moves: readonly { r: Rule; m: [string, string] }[]): Rule[] | null {
  const out = new Map<string, { r: Rule; to: string }[]>();
  for (const { r, m } of moves) {
    const key = `${r.site} ${m[0]}`;
    out.set(key, [...(out.get(key) ?? []), { r, to: `${r.site} ${m[1]}` }]);
  }
  const state = new Map<string, 1 | 2>();
  const path: Rule[] = [];
  const nodes: string[] = [];
  const visit = (n: string): Rule[] | null => {
    state.set(n, 1);
    nodes.push(n);
    for (const e of out.get(n) ?? []) {
      if (state.get(e.to) === 1) return [...path.slice(nodes.indexOf(e.to)), e.r];
      if (state.get(e.to) === 2) continue;
      path.push(e.r);
      const c = visit(e.to);
      if (c) return c;
      path.pop();
    }
    state.set(n, 2);
    nodes.pop();
    return null;
  };
  for (const n of out.keys()) {
    if (state.has(n)) continue;
    const c = visit(n);
    if (c) return c;
  }
  return null;
}
