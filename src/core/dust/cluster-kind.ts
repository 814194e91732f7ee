import { applyRule } from './rules';
import type { Rule } from './types';
import { UnionFind } from '../union-find';
import { normaliseUrl } from '../url/normalize';

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

export type ClusterKind = 'not-mined' | 'aliases' | 'partly-aliases' | 'replicas';

export interface ClusterKindVerdict {
  kind: ClusterKind;
  /** Members related to another member by a rule. */
  related: number;
  /** Groups the rules join the members into (1: all aliases of one page). */
  groups: number;
  oneHost: boolean;
}

/**
 * Aliases only when mined rules relate the URLs: members are joined where a rule (not refuted) maps
 * one member's URL to another's; all joined is 'aliases', some 'partly-aliases', none 'replicas'.
 * Without a DUST run nothing is claimed ('not-mined'): one host is no evidence of aliasing (three
 * different pages of a docs site share one host).
 */
export function clusterKind(
  memberUrls: readonly string[],
  hosts: readonly string[],
  rules: readonly Rule[] | null,
): ClusterKindVerdict {
  const oneHost = new Set(hosts).size === 1;
  const n = memberUrls.length;
  if (rules === null) return { kind: 'not-mined', related: 0, groups: n, oneHost };
  const norm = memberUrls.map((u) => normaliseUrl(u).href);
  const index = new Map(norm.map((u, i) => [u, i]));
  const uf = new UnionFind(n);
  const related = new Uint8Array(n);
  for (const r of rules) {
    if (r.status === 'refuted') continue;
    norm.forEach((u, i) => {
      const v = applyRule(r, u);
      const j = v === null || v === u ? undefined : index.get(normaliseUrl(v).href);
      if (j === undefined || j === i) return;
      uf.union(i, j);
      related[i] = related[j] = 1;
    });
  }
  const roots = new Set(Array.from({ length: n }, (_, i) => uf.find(i)));
  const count = related.reduce((s, x) => s + x, 0);
  const kind: ClusterKind = roots.size === 1 && n > 1 ? 'aliases' : count > 0 ? 'partly-aliases' : 'replicas';
  return { kind, related: count, groups: roots.size, oneHost };
}
