import { applyRule, type Rule } from '../core/dust';
import { normaliseUrl } from '../core/url/normalize';

/**
 * Links between the panes: which DUST rules relate members of a cluster (the cluster is then, at
 * least partly, URL aliases rather than content replicas), computed from URLs only.
 */
export function rulesExplaining(rules: readonly Rule[], memberUrls: readonly string[]): Rule[] {
  const set = new Set(memberUrls.map((u) => normaliseUrl(u).href));
  return rules.filter((r) => r.status !== 'refuted' && explains(r, set));
}

export function explains(rule: Rule, members: ReadonlySet<string>): boolean {
  for (const u of members) {
    const v = applyRule(rule, u);
    if (v !== null && v !== u && members.has(normaliseUrl(v).href)) return true;
  }
  return false;
}

/** 'aliases' when every member is on one host and the rules join them all; else 'replicas' (or 'mixed'). */
export function clusterKind(
  hosts: readonly string[],
  explainedByRules: boolean,
): 'aliases' | 'replicas' | 'mixed' {
  const oneHost = new Set(hosts).size === 1;
  if (oneHost && explainedByRules) return 'aliases';
  if (!oneHost && !explainedByRules) return 'replicas';
  return 'mixed';
}
