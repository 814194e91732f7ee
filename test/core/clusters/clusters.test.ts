import { describe, expect, it } from 'vitest';
import { connectedComponents, starClusters } from '../../../src/core/clusters/clusters';

describe('clusters', () => {
  // A chain 0–1–2–3 plus a pair 5–6; 4 alone.
  const a = [0, 1, 2, 5];
  const b = [1, 2, 3, 6];
  const all = () => true;

  it('connected components join a chain transitively', () => {
    expect(connectedComponents(7, a, b, all).map((c) => c.members)).toEqual([
      [0, 1, 2, 3],
      [5, 6],
    ]);
  });

  it('star clusters do not: every member is a direct duplicate of its centre', () => {
    const stars = starClusters(7, a, b, all);
    for (const s of stars)
      for (const m of s.members)
        if (m !== s.centre)
          expect(a.some((x, k) => (x === s.centre && b[k] === m) || (b[k] === s.centre && x === m))).toBe(
            true,
          );
    // 1 has the most neighbours: it takes 0 and 2; 3's only duplicate (2) is taken and 3 is not a
    // duplicate of 1, so 3 stays alone instead of joining by transitivity.
    expect(stars.map((s) => [s.centre, s.members])).toEqual([
      [1, [0, 1, 2]],
      [5, [5, 6]],
    ]);
  });

  it('honours the acceptance predicate', () => {
    expect(connectedComponents(7, a, b, (k) => k !== 1).map((c) => c.members)).toEqual([
      [0, 1],
      [2, 3],
      [5, 6],
    ]);
  });
});
