import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import type { Cluster } from '../../../src/core/clusters/clusters';
import { compareViews, lshProbability } from '../../../src/core/clusters/compare-views';
import { clusterView, type ClusterMode } from '../../../src/core/clusters/view';
import { seededRandom } from '../../../src/core/random';
import { randomPairTable } from './pair-table';

const MODES: ClusterMode[] = ['star', 'components', 'guarded'];

describe('what a threshold move changes, against brute force', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`gained, lost, merged, split and kept changes, seed ${seed}`, () => {
      const rnd = seededRandom(seed * 40503);
      const n = 20 + Math.floor(rnd() * 60);
      const p = randomPairTable(n, n * 2, seed);
      const mode = MODES[seed % 3];
      const ja = 0.3 + rnd() * 0.7;
      const jb = 0.3 + rnd() * 0.7;
      const A = clusterView({ n, pairs: p }, 'minhash', { ...DEFAULT_THRESHOLDS, jaccard: ja }, mode);
      const B = clusterView({ n, pairs: p }, 'minhash', { ...DEFAULT_THRESHOLDS, jaccard: jb }, mode);
      const keptOf = (c: Cluster) => Math.max(...c.members);
      const d = compareViews(n, A, B, keptOf);
      const msg = `seed ${seed} ${mode} ${ja.toFixed(3)} → ${jb.toFixed(3)}`;
      for (let k = 0; k < p.count; k++) {
        expect(d.gained.includes(k), `${msg} pair ${k}`).toBe(B.mask[k] === 1 && A.mask[k] === 0);
        expect(d.lost.includes(k), `${msg} pair ${k}`).toBe(A.mask[k] === 1 && B.mask[k] === 0);
      }
      const clusterOf = (v: typeof A, m: number) => v.clusters.find((c) => c.members.includes(m));
      for (const c of B.clusters) {
        const from = new Set(c.members.map((m) => clusterOf(A, m) ?? null));
        expect(d.merged.includes(c), `${msg} merged ${c.members}`).toBe(from.size > 1 || from.has(null));
      }
      for (const c of A.clusters) {
        const to = new Set(c.members.map((m) => clusterOf(B, m) ?? null));
        expect(d.split.includes(c), `${msg} split ${c.members}`).toBe(to.size > 1 || to.has(null));
      }
      for (let m = 0; m < n; m++) {
        const [ca, cb] = [clusterOf(A, m), clusterOf(B, m)];
        const changed = !!ca && !!cb && keptOf(ca) !== keptOf(cb);
        expect(
          d.keptChanged.some((x) => x.page === m),
          `${msg} page ${m}`,
        ).toBe(changed);
      }
      // Lowering the threshold only gains pairs; raising it only loses them.
      if (jb < ja) expect(d.lost, msg).toEqual([]);
      if (jb > ja) expect(d.gained, msg).toEqual([]);
    });
  }

  it('the S-curve: 0 at 0, 1 at 1, rising, ½ near (1/b)^(1/r)', () => {
    expect(lshProbability(0, 20, 5)).toBe(0);
    expect(lshProbability(1, 20, 5)).toBe(1);
    let last = -1;
    for (let s = 0; s <= 1; s += 0.05) {
      const v = lshProbability(s, 20, 5);
      expect(v).toBeGreaterThanOrEqual(last);
      last = v;
    }
    expect(Math.abs(lshProbability((1 / 20) ** (1 / 5), 20, 5) - 0.5)).toBeLessThan(0.15);
  });
});
