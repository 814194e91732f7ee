import { describe, expect, it } from 'vitest';
import { pageLevel, pagesWithReplica } from '../../../src/core/eval/pages';

describe('page-level precision and recall (near-replica paper §3)', () => {
  it('by hand', () => {
    // Pairs (0,1) sim .95, (2,3) sim .5, (4,5) sim .9. Oracle τ = .9 → pages 0,1,4,5 have a replica.
    const has = pagesWithReplica(7, [0, 2, 4], [1, 3, 5], [0.95, 0.5, 0.9], 0.9);
    expect(Array.from(has)).toEqual([1, 1, 0, 0, 1, 1, 0]);
    // The method returns 0,1,2,3; reference pages {0, 4, 6}.
    const r = pageLevel(new Set([0, 1, 2, 3]), new Set([0, 4, 6]), (p) => has[p] === 1);
    expect(r.recall).toBeCloseTo(1 / 3, 12);
    expect(r.precision).toBeCloseTo(2 / 4, 12);
  });
});
