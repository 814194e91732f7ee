import { describe, expect, it } from 'vitest';
import { linfPairs, linfPairsBrute } from '../../../src/core/candidates/grid';
import { seededRandom } from '../../../src/core/random';

function randomPoints(n: number, K: number, seed: number): Float32Array {
  const rnd = seededRandom(seed);
  const p = new Float32Array(n * K);
  for (let i = 0; i < n; i++) {
    // Clustered: a third of the points sit near an earlier point, as replicas do.
    const near = i > 0 && rnd() < 0.33 ? Math.floor(rnd() * i) : -1;
    for (let j = 0; j < K; j++)
      p[i * K + j] = near >= 0 ? Math.min(1, Math.max(0, p[near * K + j] + (rnd() - 0.5) * 0.04)) : rnd();
  }
  return p;
}

const key = (f: Uint32Array) => {
  const out: string[] = [];
  for (let k = 0; k < f.length; k += 2) out.push(`${f[k]},${f[k + 1]}`);
  return out.sort();
};

describe('(C, D) candidates by grid hashing', () => {
  for (const [n, K, side] of [
    [300, 5, 0.05],
    [500, 5, 0.2],
    [400, 3, 0.01],
    [200, 2, 0.5],
  ] as const) {
    it(`gives the same pairs as all pairs: n=${n}, K=${K}, side=${side}`, () => {
      const pts = randomPoints(n, K, n + K);
      const brute = key(linfPairsBrute(pts, n, K, side));
      expect(key(linfPairs(pts, n, K, side))).toEqual(brute);
      expect(brute.length).toBeGreaterThan(0);
    });
  }

  it('uses strict inequality, as the paper does (‖ΔR‖∞ < D)', () => {
    const pts = Float32Array.from([0, 0, 0.25, 0]);
    expect(key(linfPairs(pts, 2, 2, 0.25))).toEqual([]);
    expect(key(linfPairs(pts, 2, 2, 0.2501))).toEqual(['0,1']);
  });
});
