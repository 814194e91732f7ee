/**
 * The analyst's must-links and cannot-links over every clustering, against brute-force checks on random
 * pair tables and random decisions (the seed is in every message; OVERRIDES_SEED=… replays one).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, type MethodId } from '../../../src/core/candidates/methods';
import { findPair } from '../../../src/core/candidates/pair-index';
import type { Links } from '../../../src/core/clusters/overrides';
import { clusterView, type ClusterMode } from '../../../src/core/clusters/view';
import { seededRandom } from '../../../src/core/random';
import { randomPairTable } from './pair-table';

const MODES: ClusterMode[] = ['star', 'components', 'guarded'];
const METHODS: MethodId[] = ['minhash', 'rp-hm', 'simhash'];
const first = Number(process.env.OVERRIDES_SEED ?? 1);
const seeds = process.env.OVERRIDES_SEED ? [first] : Array.from({ length: 60 }, (_, i) => first + i);

describe('overrides over star, components and the chain guard', () => {
  for (const seed of seeds) {
    it(`never crosses a cannot-link, always joins a must-link, leaves the rest as it was (seed ${seed})`, () => {
      const rnd = seededRandom(seed * 2654435761);
      const n = 12 + Math.floor(rnd() * 50);
      const p = randomPairTable(n, Math.floor(n * (1 + rnd() * 3)), seed);
      const mode = MODES[seed % 3];
      const method = METHODS[Math.floor(seed / 3) % 3];
      const t = {
        ...DEFAULT_THRESHOLDS,
        jaccard: 0.3 + rnd() * 0.4,
        C: 1,
        D: 0.05 + rnd() * 0.05,
        hamming: 4,
      };
      const base = clusterView({ n, pairs: p }, method, t, mode);
      // Decisions as an analyst makes them: mostly on pairs inside clusters, some anywhere.
      const inCluster = () => {
        const c = base.clusters[Math.floor(rnd() * base.clusters.length)];
        if (!c || c.members.length < 2) return null;
        const x = c.members[Math.floor(rnd() * c.members.length)];
        const y = c.members[Math.floor(rnd() * c.members.length)];
        return x === y ? null : ([x, y] as [number, number]);
      };
      const anywhere = () => {
        const x = Math.floor(rnd() * n);
        const y = Math.floor(rnd() * n);
        return x === y ? null : ([x, y] as [number, number]);
      };
      const pick = () => (rnd() < 0.7 ? inCluster() : anywhere());
      const must = Array.from({ length: Math.floor(rnd() * 4) }, pick).filter((x) => x !== null);
      const cannot = Array.from({ length: 1 + Math.floor(rnd() * 4) }, pick).filter((x) => x !== null);
      const links: Links = { must, cannot };
      const view = clusterView({ n, pairs: p }, method, t, mode, undefined, links);
      const msg = `seed ${seed} ${mode} ${method}: must ${JSON.stringify(must)} cannot ${JSON.stringify(cannot)}`;
      const where = new Map<number, number>();
      view.clusters.forEach((c, i) =>
        c.members.forEach((m) => {
          expect(where.has(m), `${msg}: page ${m} in two clusters`).toBe(false);
          where.set(m, i);
        }),
      );
      // 1. No cluster holds both pages of a cannot-link.
      for (const [x, y] of cannot)
        if (where.has(x))
          expect(where.get(x), `${msg}: ${x} and ${y} cannot be linked`).not.toBe(where.get(y));
      // 2. A must-link's pages share a cluster, or the must-link is a conflict: a chain of must-links
      // would put a cannot-linked pair together.
      const conflicts = new Set((view.links?.conflicts ?? []).map(([x, y]) => `${x} ${y}`));
      for (const [x, y] of must) {
        const k = `${Math.min(x, y)} ${Math.max(x, y)}`;
        if (conflicts.has(k)) continue;
        expect(where.get(x), `${msg}: ${x} and ${y} must be linked`).toBeDefined();
        expect(where.get(x), `${msg}: ${x} and ${y} must be linked`).toBe(where.get(y));
      }
      for (const k of conflicts) {
        const [x, y] = k.split(' ').map(Number);
        expect(
          must.some(([u, v]) => Math.min(u, v) === x && Math.max(u, v) === y),
          `${msg}: conflict ${k}`,
        ).toBe(true);
        // Brute force: joining the two would put some cannot-linked pair in one cluster.
        const joined = new Set([
          ...(view.clusters[where.get(x) ?? -1]?.members ?? [x]),
          ...(view.clusters[where.get(y) ?? -1]?.members ?? [y]),
        ]);
        expect(
          cannot.some(([u, v]) => joined.has(u) && joined.has(v)),
          `${msg}: conflict ${k} is real`,
        ).toBe(true);
      }
      // 3. A cluster no decision touches is the clustering's own.
      const touched = new Set([...must, ...cannot].flat());
      const baseKeys = new Set(base.clusters.map((c) => c.members.join(',')));
      for (const c of base.clusters)
        if (!c.members.some((m) => touched.has(m)))
          expect(
            view.clusters.some((d) => d.members.join(',') === c.members.join(',')),
            `${msg}: ${c.members} kept`,
          ).toBe(true);
      // 4. Every cluster the decisions made holds together by accepted pairs and must-links, none of
      // them cannot-linked.
      for (const c of view.clusters) {
        if (baseKeys.has(c.members.join(','))) continue;
        const set = new Set(c.members);
        const reach = new Set([c.members[0]]);
        const edges: [number, number][] = [];
        for (let i = 0; i < c.members.length; i++)
          for (let j = i + 1; j < c.members.length; j++) {
            const [x, y] = [c.members[i], c.members[j]];
            const k = findPair(p, Math.min(x, y), Math.max(x, y));
            if (k !== null && view.mask[k] === 1) edges.push([x, y]);
          }
        for (const [x, y] of must) if (set.has(x) && set.has(y)) edges.push([x, y]);
        for (let grew = true; grew;) {
          grew = false;
          for (const [x, y] of edges)
            if (reach.has(x) !== reach.has(y)) {
              reach.add(x);
              reach.add(y);
              grew = true;
            }
        }
        expect(reach.size, `${msg}: cluster ${c.members} holds together`).toBe(c.members.length);
        if (mode === 'star') {
          // The star rule kept: each member the centre, its direct duplicate, or must-linked (through
          // must-links inside the cluster) to one of those.
          expect(c.members.includes(c.centre), `${msg}: centre in its star`).toBe(true);
          const near = new Set([c.centre]);
          for (const [x, y] of edges)
            if (!must.some(([u, v]) => (u === x && v === y) || (u === y && v === x))) {
              if (x === c.centre) near.add(y);
              if (y === c.centre) near.add(x);
            }
          for (let grew = true; grew;) {
            grew = false;
            for (const [x, y] of must)
              if (set.has(x) && set.has(y) && near.has(x) !== near.has(y)) {
                near.add(x);
                near.add(y);
                grew = true;
              }
          }
          expect(near.size, `${msg}: star ${c.members} around ${c.centre}`).toBe(c.members.length);
        }
      }
    });
  }

  it('without decisions, the clustering is untouched', () => {
    const p = randomPairTable(40, 90, 7);
    for (const mode of MODES) {
      const a = clusterView({ n: 40, pairs: p }, 'minhash', DEFAULT_THRESHOLDS, mode);
      const b = clusterView({ n: 40, pairs: p }, 'minhash', DEFAULT_THRESHOLDS, mode, undefined, {
        must: [],
        cannot: [],
      });
      expect(b.clusters).toEqual(a.clusters);
    }
  });
});
