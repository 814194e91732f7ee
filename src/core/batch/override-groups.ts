/**
 * The analyst's decisions in the batch join (clusters/overrides.ts, the same steps as the workbench):
 * the clusters the decisions touch, with their members' accepted pairs, regrouped by applyLinks. Pages
 * are numbered in id order and pairs kept in (a, b) order, as the engine numbers pages and pairs when it
 * reads the shards in id order, so ties of similarity fall the same way (as guarded.ts does). The batch
 * join runs it once over all touched clusters (src/cli/batch-join.ts; spark/dedup_join.py has the same
 * steps in Python).
 */
import { applyLinks, type LinkPair } from '../clusters/overrides';

export interface LabelledPage {
  page: bigint;
  label: bigint;
}

export interface IdPair {
  a: bigint;
  b: bigint;
  /** Exact Jaccard as stored (a double from SQL), compared as the Float32 the workbench keeps. */
  similarity: number;
}

/**
 * The new groups of the touched clusters: `members` are the pages of every cluster a decision touches
 * (page, label), `pairs` the accepted pairs among them, `must`/`cannot` the decisions placed on page ids
 * (a page in no cluster may appear: a must-link brings it in). Returns the groups of 2 pages or more as
 * ascending ids (a group is labelled by its first), and the must-links refused as conflicts.
 */
export function overrideGroups(
  members: readonly LabelledPage[],
  pairs: readonly IdPair[],
  must: readonly (readonly [bigint, bigint])[],
  cannot: readonly (readonly [bigint, bigint])[],
  star: boolean,
): { groups: bigint[][]; conflicts: [bigint, bigint][] } {
  const cmp = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);
  const ids = [...new Set([...members.map((m) => m.page), ...must.flat(), ...cannot.flat()])].sort(cmp);
  const local = new Map(ids.map((id, i) => [id, i]));
  const byLabel = new Map<bigint, number[]>();
  for (const m of [...members].sort((x, y) => cmp(x.page, y.page))) {
    const g = byLabel.get(m.label);
    if (g) g.push(local.get(m.page)!);
    else byLabel.set(m.label, [local.get(m.page)!]);
  }
  // The clusters as the engine lists them before its decisions: by size, then by first member (the
  // order only matters for ties nowhere: applyLinks keys its groups by page).
  const base = [...byLabel.values()].map((g) => ({ members: g, centre: -1 }));
  const rows: LinkPair[] = pairs
    .map((p) => {
      const [x, y] = [local.get(p.a)!, local.get(p.b)!];
      return { a: Math.min(x, y), b: Math.max(x, y), similarity: Math.fround(p.similarity) };
    })
    .sort((p, q) => p.a - q.a || p.b - q.b);
  const toLocal = (l: readonly (readonly [bigint, bigint])[]) =>
    l.map(([x, y]) => [local.get(x)!, local.get(y)!] as [number, number]);
  const r = applyLinks(
    base,
    { must: toLocal(must), cannot: toLocal(cannot) },
    (ms) => {
      const set = new Set(ms);
      return rows.filter((p) => set.has(p.a) && set.has(p.b));
    },
    star,
  );
  return {
    groups: r.clusters.map((c) => c.members.map((i) => ids[i]).sort(cmp)),
    conflicts: r.conflicts.map(([x, y]) => [ids[x], ids[y]] as [bigint, bigint]),
  };
}
