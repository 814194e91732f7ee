import { describe, expect, it } from 'vitest';
import {
  acceptMask,
  accepts,
  DEFAULT_THRESHOLDS,
  METHOD_LABELS,
  type MethodId,
  type Thresholds,
} from '../../../src/core/candidates/methods';
import { seededRandom } from '../../../src/core/random';
import { randomPairTable } from '../clusters/pair-table';

describe('one accept rule per method', () => {
  it('accepts (one pair) and acceptMask (all pairs) agree on random pair tables for every method', () => {
    const rnd = seededRandom(7);
    for (let trial = 0; trial < 20; trial++) {
      const p = randomPairTable(60, 400, trial + 1);
      const t: Thresholds = {
        C: trial % 4 === 0 ? 1 : rnd(),
        D: rnd() * 0.1,
        a: 1 + rnd() * 0.5,
        fcLengthCheck: rnd() < 0.5,
        jaccard: 0.3 + rnd() * 0.7,
        hamming: Math.floor(rnd() * 5),
      };
      for (const m of Object.keys(METHOD_LABELS) as MethodId[]) {
        const { mask, accepted } = acceptMask(p, m, t);
        let count = 0;
        for (let k = 0; k < p.count; k++) {
          expect(mask[k] === 1, `${m} pair ${k}`).toBe(accepts(p, m, t, k));
          count += mask[k];
        }
        expect(accepted).toBe(count);
      }
    }
  });

  it('the masks are not trivial (both outcomes occur), so the agreement above means something', () => {
    const p = randomPairTable(60, 400, 3);
    for (const m of Object.keys(METHOD_LABELS) as MethodId[]) {
      const { accepted } = acceptMask(p, m, DEFAULT_THRESHOLDS);
      expect(accepted, m).toBeGreaterThan(0);
      expect(accepted, m).toBeLessThan(p.count);
    }
  });
});
