import { describe, expect, it } from 'vitest';
import { acceptMask, RANGES, type MethodId, type Thresholds } from '../../../src/core/candidates/methods';
import { activeRange, deadTravel, type SliderKey } from '../../../src/core/candidates/slider-range';
import { seededRandom } from '../../../src/core/random';
import { randomPairTable } from '../clusters/pair-table';

const KEYS: [MethodId, SliderKey][] = [
  ['rp-hm', 'C'],
  ['rp-hm', 'D'],
  ['feature-code', 'a'],
  ['minhash', 'jaccard'],
  ['simhash', 'hamming'],
];

/**
 * Against brute force: the accepted count at many slider positions (acceptMask, the rule the clusters
 * use). Over a dead stretch it is constant — every pair the others let through, or none — and it
 * changes somewhere between the range's ends.
 */
describe('where a slider acts (slider-range.ts)', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`dead stretches change nothing and the active range changes the count, seed ${seed}`, () => {
      const rnd = seededRandom(seed * 7907);
      const p = randomPairTable(40 + Math.floor(rnd() * 80), 100 + Math.floor(rnd() * 500), seed);
      const t: Thresholds = {
        C: rnd() < 0.2 ? 1 : rnd(),
        D: rnd() * 0.1,
        a: 1 + rnd() * 0.5,
        fcLengthCheck: true,
        jaccard: 0.3 + rnd() * 0.7,
        hamming: Math.floor(rnd() * 5),
      };
      for (const [m, key] of KEYS) {
        const r = activeRange(p, m, key, t);
        const [min, max] = RANGES[key];
        const count = (v: number) => acceptMask(p, m, { ...t, [key]: v }).accepted;
        if (!r) {
          // No pair passes the other thresholds: the slider can accept nothing anywhere.
          for (let i = 0; i <= 20; i++)
            expect(count(min + ((max - min) * i) / 20), `seed ${seed} ${key}`).toBe(0);
          continue;
        }
        for (const d of deadTravel(r, min, max, 0)) {
          const want = d.all ? r.pairs : 0;
          for (let i = 1; i < 20; i++) {
            const v = d.from + ((d.to - d.from) * i) / 20;
            // C = 1 is "RP only" (every pair within D), which is also what "all" means.
            expect(count(v), `seed ${seed} ${key} at ${v} in [${d.from}, ${d.to}]`).toBe(want);
          }
        }
        const below = count(Math.max(min, r.lo - 1e-3));
        const above = count(Math.min(max, r.hi + 1e-3));
        if (r.hi - r.lo > 2e-3 && r.lo > min && r.hi < max)
          expect(below, `seed ${seed} ${key}: changes within [${r.lo}, ${r.hi}]`).not.toBe(above);
      }
    });
  }

  it('says nothing for a slider that acts over its whole travel', () => {
    expect(deadTravel({ lo: 0.01, hi: 0.99, pairs: 5, upper: true }, 0, 1)).toEqual([]);
    expect(deadTravel({ lo: 0.01, hi: 0.15, pairs: 5, upper: true }, 0, 1)).toEqual([
      { from: 0.15, to: 1, all: true },
    ]);
    expect(deadTravel({ lo: 0.3, hi: 0.6, pairs: 5, upper: false }, 0.3, 1)).toEqual([
      { from: 0.6, to: 1, all: false },
    ]);
  });
});
