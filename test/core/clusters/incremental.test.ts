import { describe, expect, it } from 'vitest';
import {
  acceptMask,
  METHOD_LABELS,
  type MethodId,
  type Thresholds,
} from '../../../src/core/candidates/methods';
import type { PairTable } from '../../../src/core/candidates/pairs';
import type { Cluster } from '../../../src/core/clusters/clusters';
import { findPair } from '../../../src/core/candidates/pair-index';
import {
  buildClusters,
  CHAIN_FLOOR,
  CLUSTER_MODE_LABELS,
  clusterView,
  newClusterIndex,
  type ClusterMode,
} from '../../../src/core/clusters/view';
import { seededRandom } from '../../../src/core/random';
import { randomPairTable } from './pair-table';

/*
 * A slider move reads the accepted pairs from a per-method sorted order and clusters only those, with
 * typed arrays (src/core/clusters/view.ts clusterView). Here it must give what a fresh computation
 * gives — acceptMask over every pair, then the clustering written the plain way (per-page arrays,
 * comparator sorts: the implementation before the fast one) — for every method and mode, over many
 * moves sharing one index, on random pair tables with many tied measures.
 */

function reference(p: PairTable, n: number, mask: Uint8Array, mode: ClusterMode): Cluster[] {
  const ok = (k: number) => mask[k] === 1;
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (let k = 0; k < p.count; k++)
    if (ok(k)) {
      adj[p.a[k]].push(p.b[k]);
      adj[p.b[k]].push(p.a[k]);
    }
  let out: Cluster[] = [];
  if (mode === 'star') {
    const order = Array.from({ length: n }, (_, i) => i).filter((i) => adj[i].length > 0);
    order.sort((x, y) => adj[y].length - adj[x].length || x - y);
    const assigned = new Uint8Array(n);
    for (const c of order) {
      if (assigned[c]) continue;
      const members = [c, ...adj[c].filter((m) => !assigned[m])];
      if (members.length < 2) continue;
      for (const m of members) assigned[m] = 1;
      out.push({ members: members.sort((x, y) => x - y), centre: c });
    }
  } else if (mode === 'components') {
    const seen = new Uint8Array(n);
    for (let s = 0; s < n; s++) {
      if (seen[s] || adj[s].length === 0) continue;
      const members: number[] = [];
      const stack = [s];
      seen[s] = 1;
      while (stack.length) {
        const x = stack.pop()!;
        members.push(x);
        for (const y of adj[x])
          if (!seen[y]) {
            seen[y] = 1;
            stack.push(y);
          }
      }
      out.push({ members: members.sort((x, y) => x - y), centre: -1 });
    }
  } else {
    // Complete linkage from the most similar accepted pair down, groups as plain arrays.
    const order = Array.from({ length: p.count }, (_, k) => k).filter(ok);
    order.sort((x, y) => p.jaccard[y] - p.jaccard[x] || x - y);
    const groupOf = Array.from({ length: n }, (_, i) => [i]);
    const close = (i: number, j: number) => {
      const k = findPair(p, i, j);
      return k !== null && p.jaccard[k] >= CHAIN_FLOOR;
    };
    for (const k of order) {
      const ga = groupOf[p.a[k]];
      const gb = groupOf[p.b[k]];
      if (ga === gb || !ga.every((x) => gb.every((y) => close(x, y)))) continue;
      const g = ga.concat(gb);
      for (const m of g) groupOf[m] = g;
    }
    out = [...new Set(groupOf)]
      .filter((g) => g.length > 1)
      .map((g) => ({ members: [...g].sort((x, y) => x - y), centre: -1 }));
  }
  return out.sort((x, y) => y.members.length - x.members.length || x.members[0] - y.members[0]);
}

const METHODS = Object.keys(METHOD_LABELS) as MethodId[];
const MODES = Object.keys(CLUSTER_MODE_LABELS) as ClusterMode[];

/** Thresholds for a move: often a value some pair has exactly (the comparison's edge), else random. */
function move(p: PairTable, rnd: () => number): Thresholds {
  const stored = (col: ArrayLike<number>, lo: number, hi: number) =>
    rnd() < 0.5 ? col[Math.floor(rnd() * p.count)] : lo + rnd() * (hi - lo);
  return {
    C: rnd() < 0.25 ? 1 : stored(p.dX, 0, 1),
    D: stored(p.dR, 0, 0.1),
    a: stored(p.lengthRatio, 1, 1.5),
    fcLengthCheck: rnd() < 0.7,
    jaccard: stored(p.jaccard, 0.3, 1),
    hamming: Math.floor(rnd() * 6),
  };
}

describe('slider moves (sorted order, typed arrays) equal a fresh computation', () => {
  it('every method and mode, 25 moves per table sharing one index, 5 random tables', () => {
    const rnd = seededRandom(11);
    let nonTrivial = 0;
    for (let seed = 1; seed <= 5; seed++) {
      const n = 40 + seed * 5;
      const p = randomPairTable(n, 300 + seed * 40, seed);
      const a = { n, pairs: p };
      const index = newClusterIndex();
      for (let i = 0; i < 25; i++) {
        const t = move(p, rnd);
        for (const method of METHODS) {
          const fresh = acceptMask(p, method, t);
          for (const mode of MODES) {
            const view = clusterView(a, method, t, mode, index);
            const what = `seed ${seed} move ${i} ${method} ${mode}`;
            expect(view.mask, what).toEqual(fresh.mask);
            expect(view.accepted, what).toBe(fresh.accepted);
            const want = reference(p, n, fresh.mask, mode);
            expect(view.clusters, what).toEqual(want);
            expect(buildClusters(n, p, fresh.mask, mode), what).toEqual(want);
            expect(view.pages).toBe(want.reduce((s, c) => s + c.members.length, 0));
            if (want.length > 1) nonTrivial++;
          }
        }
      }
    }
    // The comparison above is over real clusterings, not empty ones.
    expect(nonTrivial).toBeGreaterThan(200);
  });

  it('pairs with a NaN or infinite measure never pass, as acceptMask says', () => {
    const p = randomPairTable(50, 400, 5);
    for (let k = 0; k < p.count; k += 7) {
      p.jaccard[k] = NaN;
      p.dR[k] = NaN;
      p.lengthRatio[k] = NaN;
    }
    for (let k = 3; k < p.count; k += 11) p.dX[k] = Infinity;
    const rnd = seededRandom(3);
    const index = newClusterIndex();
    for (let i = 0; i < 30; i++) {
      const t = { ...move(p, rnd), C: i % 2 ? 1 : rnd(), fcLengthCheck: i % 3 !== 0 };
      for (const method of METHODS) {
        const view = clusterView({ n: 50, pairs: p }, method, t, 'star', index);
        expect(view.mask, `${method} move ${i}`).toEqual(acceptMask(p, method, t).mask);
      }
    }
  });
});
