import { describe, expect, it } from 'vitest';
import { kthSmallest } from '../../../src/core/candidates/select';
import { seededRandom } from '../../../src/core/random';

describe('kthSmallest', () => {
  const seed = Number(process.env.SELECT_SEED ?? Math.floor(Math.random() * 1e9));
  it(`gives sort()[k] on random arrays: distinct, repeated, sorted, reversed, constant (seed ${seed}; SELECT_SEED=… to replay)`, () => {
    const rnd = seededRandom(seed);
    for (let trial = 0; trial < 400; trial++) {
      const n = 1 + Math.floor(rnd() * (trial < 300 ? 50 : 5000));
      const kind = trial % 5;
      const levels = 1 + Math.floor(rnd() * 8);
      const a = new Float32Array(n);
      for (let i = 0; i < n; i++)
        a[i] =
          kind === 0
            ? rnd()
            : kind === 1
              ? Math.floor(rnd() * levels) / levels
              : kind === 2
                ? i
                : kind === 3
                  ? n - i
                  : 0.25;
      const sorted = a.slice().sort();
      const k = Math.floor(rnd() * n);
      expect(kthSmallest(a.slice(), k), `seed ${seed} trial ${trial} n ${n} k ${k}`).toBe(sorted[k]);
      expect(kthSmallest(a.slice(), 0)).toBe(sorted[0]);
      expect(kthSmallest(a.slice(), n - 1)).toBe(sorted[n - 1]);
    }
  });
  it('refuses k outside the array', () => {
    expect(() => kthSmallest(new Float32Array(3), 3)).toThrow(RangeError);
    expect(() => kthSmallest(new Float32Array(0), 0)).toThrow(RangeError);
  });
});
