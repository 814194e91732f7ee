import { UnionFind } from './union-find';

/** A duplicate cluster: member page indices (ascending); `centre` set for star clusters. */
export interface Cluster {
  members: number[];
  centre: number;
}

/**
 * Connected components of the accepted pairs: near-duplication taken as transitive ("not transitive,
 * though sometimes used transitively" — lecture). Singletons are left out.
 */
export function connectedComponents(
  n: number,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  accepted: (k: number) => boolean,
): Cluster[] {
  const uf = new UnionFind(n);
  const touched = new Uint8Array(n);
  for (let k = 0; k < a.length; k++) {
    if (!accepted(k)) continue;
    uf.union(a[k], b[k]);
    touched[a[k]] = 1;
    touched[b[k]] = 1;
  }
  // Only pages with an accepted pair can be in a cluster: group those.
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    if (!touched[i]) continue;
    const r = uf.find(i);
    let g = groups.get(r);
    if (!g) groups.set(r, (g = []));
    g.push(i);
  }
  return [...groups.values()].filter((g) => g.length > 1).map((members) => ({ members, centre: -1 }));
}

/**
 * Star (centre) clustering, which does not assume transitivity: repeatedly take the unassigned page
 * with the most accepted neighbours still unassigned as a centre, and give it those neighbours. Every
 * member is then a direct duplicate of its centre.
 */
export function starClusters(
  n: number,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  accepted: (k: number) => boolean,
): Cluster[] {
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (let k = 0; k < a.length; k++) {
    if (!accepted(k)) continue;
    adj[a[k]].push(b[k]);
    adj[b[k]].push(a[k]);
  }
  const order = Array.from({ length: n }, (_, i) => i).filter((i) => adj[i].length > 0);
  order.sort((x, y) => adj[y].length - adj[x].length || x - y);
  const assigned = new Uint8Array(n);
  const out: Cluster[] = [];
  for (const c of order) {
    if (assigned[c]) continue;
    const members = [c, ...adj[c].filter((m) => !assigned[m])];
    if (members.length < 2) continue;
    for (const m of members) assigned[m] = 1;
    members.sort((x, y) => x - y);
    out.push({ members, centre: c });
  }
  return out;
}

/**
 * Components with a chain guard (complete linkage over the accepted pairs): accepted pairs are taken
 * from the most similar down, and two groups are joined only when every pair across them is a
 * candidate with similarity ≥ `floor`. A news story and a docs page then never share a cluster just
 * because a mirror page sits between them; every member pair of a cluster has similarity ≥ floor.
 */
export function guardedComponents(
  n: number,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  accepted: (k: number) => boolean,
  similarity: ArrayLike<number>,
  floor: number,
  lookup: (i: number, j: number) => number | null,
): Cluster[] {
  const order: number[] = [];
  for (let k = 0; k < a.length; k++) if (accepted(k)) order.push(k);
  order.sort((x, y) => similarity[y] - similarity[x] || x - y);
  const uf = new UnionFind(n);
  const groups = new Map<number, number[]>();
  const group = (i: number) => {
    const r = uf.find(i);
    let g = groups.get(r);
    if (!g) groups.set(r, (g = [i]));
    return g;
  };
  const close = (i: number, j: number) => {
    const k = lookup(i, j);
    return k !== null && similarity[k] >= floor;
  };
  for (const k of order) {
    const ga = group(a[k]);
    const gb = group(b[k]);
    if (ga === gb) continue;
    // Early exit on the first cross pair below the floor: failed joins cost little.
    let ok = true;
    for (let x = 0; x < ga.length && ok; x++)
      for (let y = 0; y < gb.length && ok; y++) ok = close(ga[x], gb[y]);
    if (!ok) continue;
    groups.delete(uf.find(a[k]));
    groups.delete(uf.find(b[k]));
    uf.union(a[k], b[k]);
    groups.set(uf.find(a[k]), ga.concat(gb));
  }
  return [...groups.values()]
    .filter((g) => g.length > 1)
    .map((g) => ({ members: g.sort((x, y) => x - y), centre: -1 }));
}
