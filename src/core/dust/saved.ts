import { applyRule } from './rules';
import type { Rule } from './types';

/**
 * Rules whose saved-URL count is computed by default (the workbench's table shows the rest as –):
 * applying a rule to every URL of the list costs a pass over the list per rule.
 */
export const SAVED_FOR = 200;

/**
 * URLs each rule saves: list URLs it rewrites to another URL that is in the list too, so a crawler
 * that knew the rule would not have fetched them (the per-rule view of §6's discovered redundancy).
 * Only the first `limit` rules (in the order given: rank) are counted; the others are absent.
 */
export function urlsSaved(
  rules: readonly Rule[],
  urls: readonly string[],
  limit = SAVED_FOR,
): Record<number, number> {
  const inList = new Set(urls);
  const saved: Record<number, number> = {};
  for (const rule of rules.slice(0, limit)) {
    let n = 0;
    for (const u of urls) {
      const v = applyRule(rule, u);
      if (v !== null && v !== u && inList.has(v)) n++;
    }
    saved[rule.id] = n;
  }
  return saved;
}
