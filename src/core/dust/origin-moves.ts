/**
 * Substring rules that move the origin (scheme, host, port) and what canonization (canonize.ts) does
 * with them: which rules move it, the origin moves a site's rules name and where they lead, and a
 * rule respelled on the origin the moves lead to.
 */
import { tokenizeUrl } from './url-list';
import { ORIGIN } from './wildcards';
import type { Rule } from './types';
/** Whether a substring rule rewrites the scheme, host or port (its sides start at ^ and differ there). */
export function movesOrigin(rule: Rule): boolean {
  if (rule.kind !== 'substring' || rule.alpha[0] !== '^') return false;
  // ^{o}/kb/ → ^{o}/Kb/ keeps whatever origin it matched.
  if (rule.alpha[1] === ORIGIN && rule.beta[1] === ORIGIN) return false;
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
 * A substitution that moves the origin and also rewrites the path (^https://m.s/nodes/{x}.html$ →
 * ^http://s/?p={x}$): an origin rule and a path rule in one, found where two aliases met.
 */
export function pathAcrossOrigins(r: Rule): boolean {
  return movesOrigin(r) && originMove(r) === null;
}

/** Where a side's origin ends: its third '/' (^ http : / / host / …), or -1. */
export function originEnd(side: readonly string[]): number {
  let slashes = 0;
  for (let i = 1; i < side.length; i++) if (side[i] === '/' && ++slashes === 3) return i;
  return -1;
}

/** A rule that only moves the origin (^http://www.s/ → ^https://s/): its two origins; else null. */
export function originMove(r: Rule): [string, string] | null {
  if (r.kind !== 'substring' || !movesOrigin(r)) return null;
  const a = originEnd(r.alpha);
  const b = originEnd(r.beta);
  if (a < 0 || b < 0 || r.alpha.length - a !== r.beta.length - b) return null;
  for (let i = a; i < r.alpha.length; i++) if (r.alpha[i] !== r.beta[i - a + b]) return null;
  return [r.alpha.slice(0, a).join(''), r.beta.slice(0, b).join('')];
}

/** Each origin the origin moves name → the origin they lead it to (followed to the end, capped). */
export function originTargets(moves: readonly [string, string][]): Map<string, string> {
  const step = new Map<string, string>();
  for (const [from, to] of moves) if (!step.has(from)) step.set(from, to);
  const out = new Map<string, string>();
  for (const from of step.keys()) {
    let at = from;
    for (let i = 0; i < 10 && step.has(at); i++) at = step.get(at)!;
    out.set(from, at);
  }
  return out;
}

/** A substring rule with the origin of each side put where the origin moves lead it (same id). */
export function respelled<R extends Rule>(r: R, targets: ReadonlyMap<string, string>): R {
  if (r.kind !== 'substring' || r.alpha[0] !== '^' || r.beta[0] !== '^') return r;
  const side = (t: readonly string[]): string[] | null => {
    const end = originEnd(t);
    if (end < 0) return null;
    const to = targets.get(t.slice(0, end).join(''));
    return to === undefined ? null : [...tokenizeUrl(to.slice(1)).slice(0, -1), ...t.slice(end)];
  };
  const alpha = side(r.alpha);
  const beta = side(r.beta);
  if (!alpha && !beta) return r;
  return { ...r, alpha: alpha ?? r.alpha, beta: beta ?? r.beta };
}

/** The origin of a URL's tokens (^scheme://host[:port]), as origin moves spell it; '' when none. */
export function urlOrigin(tokens: readonly string[]): string {
  const end = originEnd(tokens);
  return end < 0 ? '' : tokens.slice(0, end).join('');
}
