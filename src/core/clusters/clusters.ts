import { sortedBy } from '../candidates/methods';
import { scratchInt32, scratchUint8 } from './scratch';
import { UnionFind } from '../union-find';

/** A duplicate cluster: member page indices (ascending); `centre` set for star clusters. */
export interface Cluster {
  members: number[];
  centre: number;
}

/*
 * Each clustering has two entry points: one over a predicate on pair indices (readable, for tests and
 * benches), one over the accepted pair indices themselves (`edges`), which a slider move calls with the
 * prefix of a sorted order (candidates/methods.ts acceptedPairs). The work is typed arrays sized by the
 * pages and the accepted pairs, no per-page arrays: at 1M candidate pairs a move re-clusters in a few
 * ms instead of hundreds (npm run bench:interaction).
 */

/** The pair indices k < count with accepted(k), ascending. */
export function acceptedList(count: number, accepted: (k: number) => boolean): Uint32Array {
  const out = new Uint32Array(count);
  let n = 0;
  for (let k = 0; k < count; k++) if (accepted(k)) out[n++] = k;
  return out.subarray(0, n);
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
  return componentsOf(n, a, b, acceptedList(a.length, accepted));
}

/** Connected components over the pairs `edges` (any order); clusters by their smallest member. */
export function componentsOf(
  n: number,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  edges: ArrayLike<number>,
): Cluster[] {
  const uf = new UnionFind(n);
  const touched = new Uint8Array(n);
  for (let e = 0; e < edges.length; e++) {
    const k = edges[e];
    uf.union(a[k], b[k]);
    touched[a[k]] = 1;
    touched[b[k]] = 1;
  }
  // Only pages with an accepted pair can be in a cluster: count, then fill, those.
  const size = new Int32Array(n);
  for (let i = 0; i < n; i++) if (touched[i]) size[uf.find(i)]++;
  const slot = new Int32Array(n).fill(-1);
  const out: Cluster[] = [];
  for (let i = 0; i < n; i++) {
    if (!touched[i]) continue;
    const r = uf.find(i);
    if (size[r] < 2) continue;
    if (slot[r] < 0) {
      slot[r] = out.length;
      out.push({ members: [], centre: -1 });
    }
    out[slot[r]].members.push(i);
  }
  return out;
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
  return starsOf(n, a, b, acceptedList(a.length, accepted));
}

/**
 * Star clusters over the pairs `edges` (any order: the result does not depend on it). Centres are
 * taken by accepted degree (descending, then page index), members are the centre's neighbours not yet
 * taken. Adjacency is CSR (offsets + one neighbour array), the centre order a counting sort by degree.
 */
export function starsOf(
  n: number,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  edges: ArrayLike<number>,
): Cluster[] {
  const deg = scratchInt32('star.deg', n);
  for (let e = 0; e < edges.length; e++) {
    deg[a[edges[e]]]++;
    deg[b[edges[e]]]++;
  }
  const start = scratchInt32('star.start', n + 1);
  let maxDeg = 0;
  for (let i = 0; i < n; i++) {
    start[i + 1] = start[i] + deg[i];
    if (deg[i] > maxDeg) maxDeg = deg[i];
  }
  const nbr = scratchInt32('star.nbr', start[n], false);
  const fill = scratchInt32('star.fill', n, false);
  fill.set(start.subarray(0, n));
  for (let e = 0; e < edges.length; e++) {
    const x = a[edges[e]];
    const y = b[edges[e]];
    nbr[fill[x]++] = y;
    nbr[fill[y]++] = x;
  }
  // Pages with a neighbour, by degree descending, ties by index (a stable counting sort).
  const firstOf = scratchInt32('star.firstOf', maxDeg + 2);
  for (let i = 0; i < n; i++) if (deg[i] > 0) firstOf[deg[i]]++;
  let pos = 0;
  for (let d = maxDeg; d >= 1; d--) {
    const c = firstOf[d];
    firstOf[d] = pos;
    pos += c;
  }
  const order = scratchInt32('star.order', pos, false);
  for (let i = 0; i < n; i++) if (deg[i] > 0) order[firstOf[deg[i]]++] = i;
  const assigned = scratchUint8('star.assigned', n);
  const out: Cluster[] = [];
  const free = scratchInt32('star.free', maxDeg, false);
  for (let o = 0; o < order.length; o++) {
    const c = order[o];
    if (assigned[c]) continue;
    // The centre's neighbours not yet taken. With edges in pair order (the table is sorted by (a, b))
    // each neighbour list is ascending, so members come out sorted with the centre merged in.
    let len = 0;
    let ascending = true;
    for (let j = start[c]; j < start[c + 1]; j++) {
      const m = nbr[j];
      if (assigned[m]) continue;
      if (len > 0 && m < free[len - 1]) ascending = false;
      free[len++] = m;
    }
    if (len === 0) continue;
    assigned[c] = 1;
    const members = new Array<number>(len + 1);
    let w = 0;
    for (let x = 0; x < len; x++) {
      const m = free[x];
      assigned[m] = 1;
      if (w === x && m > c) members[w++] = c;
      members[w++] = m;
    }
    if (w === len) members[w] = c;
    if (!ascending) members.sort((x, y) => x - y);
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
  const order = sortedBy(similarity, acceptedList(a.length, accepted), true);
  return guardedOf(n, a, b, order, similarity, floor, lookup);
}

/** Guarded components over `ordered`: the accepted pairs by similarity descending, ties by index. */
export function guardedOf(
  n: number,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  ordered: ArrayLike<number>,
  similarity: ArrayLike<number>,
  floor: number,
  lookup: (i: number, j: number) => number | null,
): Cluster[] {
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
  for (let o = 0; o < ordered.length; o++) {
    const k = ordered[o];
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

/**
 * Largest first, ties by lowest first member. Clusters of one clustering are disjoint, so the first
 * member names a cluster: a counting sort by size over the clusters taken in first-member order, no
 * comparisons (a slider move at 1M pairs can give 50k clusters; a comparator sort of them, or even a
 * numeric sort of keys, cost more than the clustering). Overlapping input falls back to a sort.
 */
export function sortBySize(clusters: Cluster[]): Cluster[] {
  let base = 1;
  let maxSize = 0;
  for (const c of clusters) {
    if (c.members[0] + 1 > base) base = c.members[0] + 1;
    if (c.members.length > maxSize) maxSize = c.members.length;
  }
  const byFirst = scratchInt32('sort.byFirst', base, false).fill(-1);
  const at = scratchInt32('sort.at', maxSize + 1);
  for (let i = 0; i < clusters.length; i++) {
    const c = clusters[i];
    if (byFirst[c.members[0]] >= 0)
      return clusters.sort((x, y) => y.members.length - x.members.length || x.members[0] - y.members[0]);
    byFirst[c.members[0]] = i;
    at[c.members.length]++;
  }
  let pos = 0;
  for (let size = maxSize; size >= 1; size--) {
    const count = at[size];
    at[size] = pos;
    pos += count;
  }
  const out = new Array<Cluster>(clusters.length);
  for (let f = 0; f < base; f++) {
    if (byFirst[f] < 0) continue;
    const c = clusters[byFirst[f]];
    out[at[c.members.length]++] = c;
  }
  return out;
}
