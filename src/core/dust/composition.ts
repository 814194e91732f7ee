/**
 * Compositions: whether the valid rules of a site already merge every instance of a rule (a special
 * case of one of them, or two applied one after the other). Validation (validation.ts), folding
 * (folding.ts, redundant-valid.ts) and transfer (transfer.ts) ask it.
 */
import { canonize, canonizationOrder } from './canonize';
import { instancesIn, type UrlIndex } from './rules';
import type { Rule } from './types';

/**
 * A rule may only restate a valid rule's special case (?sessionid=4015$ → $ once "drop sessionid" is
 * valid) or two valid rules applied one after the other (drop sessionid, then mirror/v1/ →
 * docs/git/). When canonization with the valid rules of the site already sends both URLs of every
 * instance in L to one URL, the rule adds nothing: returns the ids of the valid rules that rewrote
 * them, else null (also when L holds no instance).
 */
export function composedOf(
  rule: Rule,
  L: UrlIndex,
  valid: readonly Rule[],
  maxIterations: number,
  /** Instances looked at, at most (a sample, in list order); all by default. */
  limit = Infinity,
): number[] | null {
  const mine = valid.filter((v) => v.site === rule.site);
  if (mine.length === 0) return null;
  const ordered = canonizationOrder(mine);
  const used = new Set<number>();
  let instances = 0;
  for (const [u, w] of instancesIn(rule, L, limit)) {
    instances++;
    const a = canonize(u.url, ordered, maxIterations, u.tokens, used).url;
    const b = canonize(w.url, ordered, maxIterations, w.tokens, used).url;
    if (a !== b) return null;
  }
  return instances === 0 ? null : [...used].sort((x, y) => x - y);
}
