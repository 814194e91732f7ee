/**
 * URL canonization (§5.4): "it repeatedly applies to u all the rules in R, until there is an
 * iteration in which u is unchanged, or until a predetermined maximum number of iterations has been
 * reached." Rules are applied in the list's order, each once per iteration, at the leftmost
 * occurrence. Hitting the cap means the rules keep rewriting u: a cycle ("rules that can be applied
 * an infinite number of times because they cancel out each others' changes", §5.3) or a rule that
 * grows u without end; the URL is then reported.
 */
import { applySubstring, applyRule } from './rules';
import { isWildcard, ORIGIN } from './wildcards';
import { groupBySite, tokenizeUrl, untokenize } from './url-list';
import type { DustParams, DustUrl, Rule } from './types';
import { movesOrigin, originEnd, originMove, originTargets, respelled, urlOrigin } from './origin-moves';
import { inScope } from './sections';

export interface Canonization {
  url: string;
  /** Iterations that changed the URL. */
  iterations: number;
  /** The cap was reached while the URL was still changing. */
  cycle: boolean;
}

/**
 * A literal a URL must contain for the rule to apply: its longest literal word of α (or the
 * parameter's name); '' when α has none (separators and wildcards only). One native includes() then
 * skips most rules for most URLs (canonisation tries every rule on every URL, each iteration).
 */
const needles = new WeakMap<readonly string[], string>();
function needleOf(rule: Rule): string {
  if (rule.kind !== 'substring') return rule.param;
  // Keyed by α itself: validation swaps α and β of a growing rule, origins.ts respells α.
  let n = needles.get(rule.alpha);
  if (n === undefined) {
    const side = rule.alpha;
    n = '';
    for (let i = 0; i < side.length; i++) {
      const t = side[i];
      if ((i === 0 && t === '^') || (i === side.length - 1 && t === '$') || isWildcard(t)) continue;
      if (t.length > n.length) n = t;
    }
    needles.set(rule.alpha, n);
  }
  return n;
}

export function canonize(
  url: string,
  rules: readonly Rule[],
  maxIterations: number,
  tokens: readonly string[] = tokenizeUrl(url),
  /** Collects the ids of the rules that changed the URL. */
  applied?: Set<number>,
): Canonization {
  let current = url;
  for (let it = 0; it < maxIterations; it++) {
    const before = current;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      const needle = needleOf(rule);
      if (needle !== '' && !current.includes(needle)) continue;
      // A rule with a scope (scope.ts) rewrites only in the sections of its site where it held.
      if (rule.scope !== undefined && !inScope(rule, current)) continue;
      if (rule.kind === 'substring') {
        const t = applySubstring(tokens, rule.alpha, rule.beta);
        if (t && !deferred(rules, i, tokens, current)) {
          tokens = t;
          current = untokenize(t);
          applied?.add(rule.id);
        }
      } else {
        const next = applyRule(rule, current);
        if (next !== null) {
          current = next;
          tokens = tokenizeUrl(next);
          applied?.add(rule.id);
        }
      }
    }
    if (current === before) return { url: current, iterations: it, cycle: false };
  }
  return { url: current, iterations: maxIterations, cycle: true };
}

const alphaKeys = new WeakMap<readonly string[], string>();
function alphaKey(alpha: readonly string[]): string {
  let k = alphaKeys.get(alpha);
  if (k === undefined) alphaKeys.set(alpha, (k = `\u0000${alpha.join('\u0000')}\u0000`));
  return k;
}

/**
 * Whether rule i waits for the next iteration: a rule before it whose α holds its α (specificFirst's
 * order) now applies to the URL, within its scope (scope.ts). That rule was tried before an earlier rewrite of this iteration made
 * the URL it applies to (a date permalink rewritten to /items/N.html, which /items/{x}.html$ → /?p={x}$
 * rewrites and .html → would take apart): canonisation then gives one answer whatever the order in
 * which rules of one iteration happened to produce the URL.
 */
function deferred(rules: readonly Rule[], i: number, tokens: readonly string[], url: string): boolean {
  const g = rules[i];
  if (g.kind !== 'substring') return false;
  const inner = alphaKey(g.alpha);
  for (let j = 0; j < i; j++) {
    const s = rules[j];
    if (s.kind !== 'substring' || s.alpha.length <= g.alpha.length) continue;
    const outer = alphaKey(s.alpha);
    if (
      outer !== inner &&
      outer.includes(inner) &&
      inScope(s, url) &&
      applySubstring(tokens, s.alpha, s.beta)
    )
      return true;
  }
  return false;
}

/**
 * The order rules are applied in: parameter rules first (they read the query, which a substring rule
 * such as "story?id=" → "story_" may take apart), then the rules that only move the origin
 * (www.s/ → s/, http → https, a mirror host), then the others in the order given — those that keep
 * the origin before those that move it. A rule found on the site's pages is spelled with the origin
 * they were crawled on (^http://www.s/mirror/ → ^http://www.s/); once the origin moves have run, that
 * origin is where they lead, so such a rule is applied respelled with it: which origin a URL came in
 * on no longer decides which rules reach it (canonisation stays one answer per page).
 */
export function canonizationOrder<R extends Rule>(rules: readonly R[]): R[] {
  // Validation and redundancy ask for the same lists again and again: the order and the respelled
  // copies are kept per list (its rules and their current spellings), a few at a time.
  const key = rules.map(orderKey).join(',');
  const hit = orders.get(key);
  if (hit) return hit.slice() as R[];
  const out = orderOf(rules);
  if (orders.size >= 256) orders.clear();
  orders.set(key, out);
  return out.slice();
}

const orders = new Map<string, Rule[]>();

/** Forgets the orders kept: scope.ts gives rules a scope, which the respelled copies must carry. */
export function clearOrderCache(): void {
  orders.clear();
}
const sideIds = new WeakMap<object, number>();
let nextSide = 1;
/** A rule in a cache key: its identity and its sides' (respelled or swapped sides are new arrays). */
function orderKey(r: Rule): string {
  let o = sideIds.get(r);
  if (o === undefined) sideIds.set(r, (o = nextSide++));
  if (r.kind !== 'substring') return `${o}`;
  let a = sideIds.get(r.alpha);
  if (a === undefined) sideIds.set(r.alpha, (a = nextSide++));
  let b = sideIds.get(r.beta);
  if (b === undefined) sideIds.set(r.beta, (b = nextSide++));
  return `${o}:${a}:${b}`;
}

function orderOf<R extends Rule>(rules: readonly R[]): R[] {
  const params = rules.filter((r) => r.kind !== 'substring');
  const moves = rules.filter((r) => originMove(r) !== null);
  const targets = originTargets(moves.map((r) => originMove(r)!));
  const rest = specificFirst(
    rules.filter((r) => r.kind === 'substring' && originMove(r) === null).map((r) => respelled(r, targets)),
  );
  return [...params, ...moves, ...rest.filter((r) => !movesOrigin(r)), ...rest.filter((r) => movesOrigin(r))];
}

/**
 * The list with each rule moved before the first rule whose α is a proper part of its own: the more
 * specific rule is applied first (".html/ → .html" before ".html → "), else the general rule,
 * applied at the leftmost occurrence, takes the specific one's α apart ("/x.html/" → "/x/", which
 * names no page) and the specific rule never applies. Otherwise the order given is kept.
 */
function specificFirst<R extends Rule>(rules: readonly R[]): R[] {
  const out: R[] = [];
  const alphas: string[] = [];
  for (const r of rules) {
    // Token-aligned: "\0.\0html\0" is part of "\0.\0html\0/\0", not of "\0.\0htm\0".
    const a = r.kind === 'substring' ? `\u0000${r.alpha.join('\u0000')}\u0000` : '';
    let at = out.length;
    if (a !== '')
      for (let i = 0; i < out.length; i++)
        if (alphas[i] !== '' && alphas[i] !== a && a.includes(alphas[i])) {
          at = i;
          break;
        }
    out.splice(at, 0, r);
    alphas.splice(at, 0, a);
  }
  return out;
}

export interface CanonizationResult {
  /** Every URL of the list → its canonical form (itself when no rule applies). */
  canonical: Map<string, string>;
  /** URLs whose canonization hit the iteration cap. */
  cycles: string[];
}

/** Canonizes each URL with the valid rules of its site, in canonizationOrder. */
export function canonizeAll(
  urls: readonly DustUrl[],
  rules: readonly Rule[],
  params: Pick<DustParams, 'site' | 'maxIterations'>,
): CanonizationResult {
  const bySite = new Map<string, Rule[]>();
  // A valid rule the others make redundant (redundant-valid.ts markRedundantValid) is not applied.
  for (const r of rules) {
    if (r.status !== 'valid' || r.coveredBy) continue;
    const list = bySite.get(r.site);
    if (list) list.push(r);
    else bySite.set(r.site, [r]);
  }
  // Ordered per site: the origin moves of a site say where its rules' origins lead.
  for (const [site, list] of bySite) bySite.set(site, canonizationOrder(list));
  const canonical = new Map<string, string>();
  const cycles: string[] = [];
  for (const [site, list] of groupBySite(urls, params.site)) {
    const mine = bySite.get(site) ?? [];
    for (const u of list) {
      if (mine.length === 0) {
        canonical.set(u.url, u.url);
        continue;
      }
      const c = canonize(u.url, mine, params.maxIterations, u.tokens);
      canonical.set(u.url, c.url);
      if (c.cycle) cycles.push(u.url);
    }
  }
  return { canonical, cycles };
}

/**
 * Valid rules listed as canonisation applies them. A rule found on the pages of one origin and
 * leading to another (^https://www.s/node/{x}/$ → ^http://www.s/node/{x}$, found where the https copy
 * met the http redirect) is applied respelled once the origin moves have run (canonizationOrder).
 * When that leaves both sides on one origin, the rule is a same-origin rule, which is what a person
 * writes and what a crawler should be given: spelled ^{o}/node/{x}/$ → ^{o}/node/{x}$ when every
 * origin of the site in the list leads to that origin (then applying it on any origin, before or after
 * the moves, gives the same canonical URL), else with that origin. Its validation stands: the origin
 * moves that respell it are valid themselves. Returns the rules respelled.
 */
export function spellAsApplied(
  rules: readonly Rule[],
  urls: readonly DustUrl[],
  params: Pick<DustParams, 'site'>,
): Rule[] {
  const bySite = new Map<string, Rule[]>();
  for (const r of rules) {
    if (r.status !== 'valid' || r.coveredBy) continue;
    bySite.set(r.site, [...(bySite.get(r.site) ?? []), r]);
  }
  const changed: Rule[] = [];
  let lists: Map<string, DustUrl[]> | null = null;
  for (const [site, list] of bySite) {
    const targets = originTargets(list.map(originMove).filter((m): m is [string, string] => m !== null));
    if (targets.size === 0) continue;
    // Moves of a whole origin (^http://www.s/ → ^http://s/), not of one directory of it.
    const whole = originTargets(
      list
        .filter((r) => r.kind === 'substring' && r.alpha.length === originEnd(r.alpha) + 1)
        .map(originMove)
        .filter((m): m is [string, string] => m !== null),
    );
    let origins: Set<string> | null = null;
    for (const r of list) {
      if (r.kind !== 'substring' || originMove(r) !== null || !movesOrigin(r)) continue;
      const s = respelled(r, targets);
      if (s === r || movesOrigin(s)) continue;
      const end = originEnd(s.alpha);
      const to = s.alpha.slice(0, end).join('');
      if (!origins) {
        lists ??= groupBySite(urls, params.site);
        origins = new Set((lists.get(site) ?? []).map((u) => urlOrigin(u.tokens)));
      }
      const everyOrigin = [...origins].every((o) => o === to || whole.get(o) === to);
      const was = `${r.alpha.join('')} → ${r.beta.join('')}`;
      if (everyOrigin) {
        r.alpha = ['^', ORIGIN, ...s.alpha.slice(end)];
        r.beta = ['^', ORIGIN, ...s.beta.slice(originEnd(s.beta))];
      } else {
        r.alpha = s.alpha;
        r.beta = s.beta;
      }
      r.reason += `; validated as ${was}, listed as applied once the site's origin rules have run`;
      changed.push(r);
    }
  }
  return changed;
}
