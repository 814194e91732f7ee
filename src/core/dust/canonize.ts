/**
 * URL canonization (§5.4): "it repeatedly applies to u all the rules in R, until there is an
 * iteration in which u is unchanged, or until a predetermined maximum number of iterations has been
 * reached." Rules are applied in the list's order, each once per iteration, at the leftmost
 * occurrence. Hitting the cap means the rules keep rewriting u: a cycle ("rules that can be applied
 * an infinite number of times because they cancel out each others' changes", §5.3) or a rule that
 * grows u without end; the URL is then reported.
 */
import { applySubstring, applyRule } from './rules';
import { groupBySite, tokenizeUrl, untokenize } from './url-list';
import type { DustParams, DustUrl, Rule } from './types';

export interface Canonization {
  url: string;
  /** Iterations that changed the URL. */
  iterations: number;
  /** The cap was reached while the URL was still changing. */
  cycle: boolean;
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
    for (const rule of rules) {
      if (rule.kind === 'substring') {
        const t = applySubstring(tokens, rule.alpha, rule.beta);
        if (t) {
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

/** Whether a substring rule rewrites the scheme, host or port (its sides start at ^ and differ there). */
export function movesOrigin(rule: Rule): boolean {
  if (rule.kind !== 'substring' || rule.alpha[0] !== '^') return false;
  const end = (side: readonly string[]) => {
    // The authority ends at the first '/' after '//' (or at the side's end).
    let slashes = 0;
    for (let i = 1; i < side.length; i++) if (side[i] === '/' && ++slashes === 3) return i;
    return side.length;
  };
  const a = rule.alpha.slice(0, end(rule.alpha)).join('');
  const b = rule.beta.slice(0, end(rule.beta)).join('');
  return a !== b;
}

/**
 * The order rules are applied in: parameter rules first (they read the query, which a substring rule
 * such as "story?id=" → "story_" may take apart), then substring rules that keep the origin, then
 * those that move it (www.s/ → s/, http → https, a mirror host): a rule found on the site's pages is
 * spelled with the host they were crawled on (^http://www.s/mirror/ → ^http://www.s/), and would no
 * longer match once the host had moved. Otherwise in the order given.
 */
export function canonizationOrder<R extends Rule>(rules: readonly R[]): R[] {
  const substring = rules.filter((r) => r.kind === 'substring');
  return [
    ...rules.filter((r) => r.kind !== 'substring'),
    ...substring.filter((r) => !movesOrigin(r)),
    ...substring.filter((r) => movesOrigin(r)),
  ];
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
  for (const r of canonizationOrder(rules)) {
    // A valid rule the others make redundant (redundancy.ts markRedundantValid) is not applied.
    if (r.status !== 'valid' || r.coveredBy) continue;
    const list = bySite.get(r.site);
    if (list) list.push(r);
    else bySite.set(r.site, [r]);
  }
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
