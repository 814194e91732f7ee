import { describe, expect, it } from 'vitest';
import { acceptMask, DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import { guardedComponents } from '../../../src/core/clusters/clusters';
import { inspectCluster } from '../../../src/core/clusters/inspect';
import { findPair, pairsWithin } from '../../../src/core/candidates/pair-index';
import { buildClusters, CHAIN_FLOOR } from '../../../src/core/clusters/view';
import { pairTable, randomPairTable } from './pair-table';

const minhash = (p: ReturnType<typeof pairTable>) => acceptMask(p, 'minhash', DEFAULT_THRESHOLDS).mask;

describe('pair index', () => {
  it('finds every pair both ways and only those; pairsWithin equals a brute-force scan', () => {
    const p = randomPairTable(40, 200, 5);
    const have = new Set<string>();
    for (let k = 0; k < p.count; k++) {
      have.add(`${p.a[k]},${p.b[k]}`);
      expect(findPair(p, p.a[k], p.b[k])).toBe(k);
      expect(findPair(p, p.b[k], p.a[k])).toBe(k);
    }
    for (let i = 0; i < 40; i++)
      for (let j = i + 1; j < 40; j++) expect(findPair(p, i, j) !== null).toBe(have.has(`${i},${j}`));
    const members = [1, 4, 9, 16, 25, 36];
    const set = new Set(members);
    const brute = [];
    for (let k = 0; k < p.count; k++) if (set.has(p.a[k]) && set.has(p.b[k])) brute.push(k);
    expect(pairsWithin(p, members)).toEqual(brute);
  });
});

describe('what holds a cluster together', () => {
  // Two tight groups {0,1,2} and {3,4} joined by one accepted pair 2–3 (a mirror page between a story
  // and a docs page): components chain them.
  const chain = pairTable([
    [0, 1, 0.95],
    [0, 2, 0.9],
    [1, 2, 0.92],
    [2, 3, 0.81],
    [3, 4, 0.97],
    [0, 3, 0.1],
  ]);

  it('components chain them; the inspection opens on the most similar pair and names the weakest link', () => {
    const mask = minhash(chain);
    const [c] = buildClusters(5, chain, mask, 'components');
    expect(c.members).toEqual([0, 1, 2, 3, 4]);
    const r = inspectCluster(chain, c, mask);
    expect([r.strongest?.i, r.strongest?.j]).toEqual([3, 4]);
    expect(r.weakestEdge).toMatchObject({ i: 2, j: 3, bound: false });
    expect(r.weakestEdge!.jaccard).toBeCloseTo(0.81, 5);
    expect(r.chained).toBe(true);
    // By hand: 0–3 is a candidate at 0.1 (a gap). Never proposed: 1–3 ≥ 0.92 + 0.81 − 1 = 0.73 and
    // 2–4 ≥ 0.81 + 0.97 − 1 = 0.78 through a shared member (not gaps); 0–4 ≥ 0.1 + 0.97 − 1 = 0.07 and
    // 1–4 (no member links both) stay below the floor (gaps).
    expect(r.gapCount).toBe(3);
    expect(r.gaps.map((g) => [g.i, g.j])).toEqual([
      [1, 4],
      [0, 4],
      [0, 3],
    ]);
    expect(r.weakestPair).toMatchObject({ i: 1, j: 4, k: null, bound: true, jaccard: 0 });
    expect(r.edges).toHaveLength(5);
  });

  it('the chain guard keeps the groups apart, every member pair ≥ the floor', () => {
    const mask = minhash(chain);
    const clusters = buildClusters(5, chain, mask, 'guarded');
    expect(clusters.map((c) => c.members)).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
    for (const c of clusters) expect(inspectCluster(chain, c, mask).chained).toBe(false);
  });

  it('a star cluster at J ≥ 0.8 is not chained: leaves the generators missed are bounded through the centre', () => {
    // Centre 0; leaves 1, 2, 3; only 1–2 is a candidate among the leaves.
    const star = pairTable([
      [0, 1, 0.9],
      [0, 2, 0.85],
      [0, 3, 0.8],
      [1, 2, 0.7],
    ]);
    const mask = minhash(star);
    const [c] = buildClusters(4, star, mask, 'star');
    expect(c.centre).toBe(0);
    const r = inspectCluster(star, c, mask);
    expect(r.chained).toBe(false);
    // 2–3: ≥ 0.85 + 0.8 − 1 through the centre (J distance is a metric).
    expect(r.weakestPair).toMatchObject({ i: 2, j: 3, k: null, bound: true });
    expect(r.weakestPair!.jaccard).toBeCloseTo(0.65, 5);
    expect(r.weakestPair!.jaccard).toBeGreaterThanOrEqual(2 * 0.8 - 1 - 1e-6);
  });

  it('guarded clusters on random tables: every member pair is a candidate with J ≥ floor (brute force)', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const p = randomPairTable(30, 250, seed);
      const mask = acceptMask(p, 'minhash', { ...DEFAULT_THRESHOLDS, jaccard: 0.4 }).mask;
      const clusters = guardedComponents(
        30,
        p.a,
        p.b,
        (k) => mask[k] === 1,
        p.jaccard,
        CHAIN_FLOOR,
        (i, j) => findPair(p, i, j),
      );
      const seen = new Set<number>();
      for (const c of clusters)
        for (let x = 0; x < c.members.length; x++) {
          expect(seen.has(c.members[x])).toBe(false);
          seen.add(c.members[x]);
          for (let y = x + 1; y < c.members.length; y++) {
            const k = findPair(p, c.members[x], c.members[y]);
            expect(k).not.toBeNull();
            expect(p.jaccard[k!]).toBeGreaterThanOrEqual(CHAIN_FLOOR);
          }
        }
      expect(clusters.length).toBeGreaterThan(0);
    }
  });
});
