/**
 * The analyst's decisions over a clustering (issue "The analyst's decisions persist"): a must-link (these
 * two pages are the same page) and a cannot-link (these two are not duplicates). Whatever the clustering
 * (star, components, chain guard), a cannot-link is never crossed, not even through a chain, and a
 * must-link always joins its two pages — unless it would cross a cannot-link, which wins and is reported
 * as a conflict. Clusters no decision touches stay exactly as the clustering made them.
 *
 * The steps, the same in the workbench, `npm run analyze` and the batch (src/cli/batch-cluster.ts; the
 * PySpark driver has them in Python):
 *   1. the clustering runs over the accepted pairs as it would without decisions (so every cluster no
 *      decision touches stays as it was), a cannot-linked pair then counted as not accepted;
 *   2. clusters holding the two pages of a must-link are merged (a star may have given them to two
 *      centres), a page without a cluster joining its partner's;
 *   3. a cluster holding both pages of a cannot-link is split by constrained agglomeration over its
 *      own pairs: must-links first, then its pairs by similarity, most similar first (ties by pair
 *      order), two groups joined unless a cannot-link runs between them. Groups of one page drop out.
 */
import { UnionFind } from '../union-find';
import type { Cluster } from './clusters';

/** Decisions over page indexes (the engine's) or ids (the batch's, numbered locally first). */
export interface Links {
  must: readonly (readonly [number, number])[];
  cannot: readonly (readonly [number, number])[];
}

export const NO_LINKS: Links = { must: [], cannot: [] };

/** A pair the clustering saw: its pages and its similarity (exact Jaccard, or 1 for a must-link). */
export interface LinkPair {
  a: number;
  b: number;
  similarity: number;
}

export interface OverrideResult {
  clusters: Cluster[];
  /** Must-links refused because a cannot-link runs between their groups (the cannot-link wins). */
  conflicts: [number, number][];
  /** Clusters the decisions changed (merged or split). */
  changed: number;
}

const key = (x: number, y: number) => (x < y ? `${x} ${y}` : `${y} ${x}`);

/** The cannot-linked pairs as a set of keys, for step 1's filter. */
export function cannotSet(links: Links): Set<string> {
  return new Set(links.cannot.map(([x, y]) => key(x, y)));
}

/**
 * Steps 2 and 3 over the clustering's result. `pairs(members)` gives the pairs among a cluster's members
 * the clustering saw (accepted, not cannot-linked), in pair order; `centre(members, pairs)` names a
 * changed cluster's centre (star clustering: the member with most pairs in it) or -1.
 */
export function applyLinks(
  base: readonly Cluster[],
  links: Links,
  pairs: (members: readonly number[]) => LinkPair[],
  star: boolean,
): OverrideResult {
  if (links.must.length === 0 && links.cannot.length === 0)
    return { clusters: [...base], conflicts: [], changed: 0 };
  // Step 2: clusters joined by must-links.
  const clusterOf = new Map<number, number>();
  base.forEach((c, i) => c.members.forEach((m) => clusterOf.set(m, i)));
  const groups: { members: number[]; centre: number; touched: boolean }[] = base.map((c) => ({
    members: [...c.members],
    centre: c.centre,
    touched: false,
  }));
  const uf = new UnionFind(groups.length + 2 * links.must.length);
  let extra = groups.length;
  const loose = new Map<number, number>();
  const slotOf = (page: number) => {
    const c = clusterOf.get(page);
    if (c !== undefined) return c;
    let s = loose.get(page);
    if (s === undefined) loose.set(page, (s = extra++));
    return s;
  };
  for (const [x, y] of links.must) uf.union(slotOf(x), slotOf(y));
  const merged = new Map<number, { members: Set<number>; parts: number[] }>();
  const collect = (slot: number, pages: readonly number[]) => {
    const r = uf.find(slot);
    let g = merged.get(r);
    if (!g) merged.set(r, (g = { members: new Set(), parts: [] }));
    g.parts.push(slot);
    for (const p of pages) g.members.add(p);
  };
  groups.forEach((g, i) => collect(i, g.members));
  for (const [page, slot] of loose) collect(slot, [page]);
  const cannot = cannotSet(links);
  const cannotOf = new Map<number, number[]>();
  for (const [x, y] of links.cannot) {
    cannotOf.set(x, [...(cannotOf.get(x) ?? []), y]);
    cannotOf.set(y, [...(cannotOf.get(y) ?? []), x]);
  }
  const mustIn = (members: Set<number>) =>
    links.must.filter(([x, y]) => members.has(x) && members.has(y) && x !== y);
  const out: Cluster[] = [];
  const conflicts: [number, number][] = [];
  let changed = 0;
  for (const g of merged.values()) {
    const members = [...g.members].sort((x, y) => x - y);
    const violated = members.some((m) => (cannotOf.get(m) ?? []).some((o) => g.members.has(o)));
    if (g.parts.length === 1 && g.parts[0] < groups.length && !violated) {
      out.push(base[g.parts[0]]);
      continue;
    }
    if (members.length < 2) continue;
    changed++;
    // Step 3 (also for a merged group: its must-links first, its pairs after).
    const inside = pairs(members);
    const local = new Map(members.map((m, i) => [m, i]));
    const lu = new UnionFind(members.length);
    const sets = new Map<number, Set<number>>(members.map((m, k) => [k, new Set([m])]));
    const join = (x: number, y: number): boolean => {
      const rx = lu.find(local.get(x)!);
      const ry = lu.find(local.get(y)!);
      if (rx === ry) return true;
      const sx = sets.get(rx)!;
      const sy = sets.get(ry)!;
      const [small, big] = sx.size < sy.size ? [sx, sy] : [sy, sx];
      for (const p of small) for (const o of cannotOf.get(p) ?? []) if (big.has(o)) return false;
      lu.union(rx, ry);
      for (const p of small) big.add(p);
      sets.delete(rx);
      sets.delete(ry);
      sets.set(lu.find(rx), big);
      return true;
    };
    for (const [x, y] of mustIn(g.members)) if (!join(x, y)) conflicts.push([Math.min(x, y), Math.max(x, y)]);
    const usable = inside.filter((p) => !cannot.has(key(p.a, p.b)));
    if (star) {
      out.push(...starSplit(members, usable, (m) => lu.find(local.get(m)!), cannotOf));
      continue;
    }
    const ordered = usable
      .map((p, i) => ({ p, i }))
      .sort((u, v) => v.p.similarity - u.p.similarity || u.i - v.i);
    for (const { p } of ordered) join(p.a, p.b);
    for (const part of partsBy(members, (m) => lu.find(local.get(m)!)))
      if (part.length >= 2) out.push({ members: part, centre: -1 });
  }
  return { clusters: out, conflicts, changed };
}

/** Members grouped by a key, each group ascending (members come ascending). */
function partsBy(members: readonly number[], keyOf: (m: number) => number): number[][] {
  const by = new Map<number, number[]>();
  for (const m of members) {
    const k = keyOf(m);
    const g = by.get(k);
    if (g) g.push(m);
    else by.set(k, [m]);
  }
  return [...by.values()];
}

/**
 * Step 3 for star clusters: the star rule kept — centres by their pairs in the group (most first, ties
 * by index), each taking its neighbours not yet taken — with two additions: a page comes with the pages
 * must-linked to it (its unit), and a unit joins a star only when no cannot-link runs between them.
 * Every member is then a direct duplicate of its centre or must-linked to one that is.
 */
function starSplit(
  members: readonly number[],
  pairs: readonly LinkPair[],
  unitOf: (m: number) => number,
  cannotOf: ReadonlyMap<number, readonly number[]>,
): Cluster[] {
  const units = new Map<number, number[]>();
  for (const part of partsBy(members, unitOf)) units.set(unitOf(part[0]), part);
  const nbr = new Map<number, number[]>(members.map((m) => [m, []]));
  for (const p of pairs) {
    nbr.get(p.a)!.push(p.b);
    nbr.get(p.b)!.push(p.a);
  }
  const order = [...members].sort((x, y) => nbr.get(y)!.length - nbr.get(x)!.length || x - y);
  const taken = new Set<number>();
  const out: Cluster[] = [];
  const clash = (unit: readonly number[], star: ReadonlySet<number>) =>
    unit.some((p) => (cannotOf.get(p) ?? []).some((o) => star.has(o)));
  for (const c of order) {
    if (taken.has(c)) continue;
    const star = new Set(units.get(unitOf(c))!);
    for (const m of [...nbr.get(c)!].sort((x, y) => x - y)) {
      if (taken.has(m) || star.has(m)) continue;
      const unit = units.get(unitOf(m))!;
      if (unit.some((u) => taken.has(u)) || clash(unit, star)) continue;
      for (const u of unit) star.add(u);
    }
    for (const s of star) taken.add(s);
    if (star.size >= 2) out.push({ members: [...star].sort((x, y) => x - y), centre: c });
  }
  return out;
}
