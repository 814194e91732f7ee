/**
 * The RP pair budget (rp-budget.ts): past it the closest pairs are kept and D's range ends where
 * they end, so every pair below the new maxD is still a candidate, with the same measures. Random
 * generated crawls (a fresh seed each run, printed; RP_BUDGET_SEED=… repeats one).
 */
import { describe, expect, it } from 'vitest';
import { ENGINE_DEFAULTS } from '../../../src/core/candidates/engine-params';
import { SignatureEngine } from '../../../src/core/candidates/engine';
import { RP_PAIRS_FLOOR, rpBudget } from '../../../src/core/candidates/rp-budget';
import { SOURCE } from '../../../src/core/candidates/pairs';
import { makeCorpus } from '../../bench/corpus';

const seed = Number(process.env.RP_BUDGET_SEED ?? Math.floor(Math.random() * 1e9));

function analyse(n: number, s: number, maxRpPairs: number) {
  const e = new SignatureEngine({ ...ENGINE_DEFAULTS, maxRpPairs });
  for (const p of makeCorpus(n, s, 60, 0.3)) e.add(p);
  return e.finish();
}

describe(`the RP pair budget (seed ${seed}; RP_BUDGET_SEED=${seed} repeats it)`, () => {
  it('is maxRpPairsPerPage a page past the floor, never more than maxRpPairs', () => {
    const p = { maxRpPairs: 1_000_000, maxRpPairsPerPage: 40 };
    expect(rpBudget(p, 100)).toBe(RP_PAIRS_FLOOR);
    expect(rpBudget(p, 5000)).toBe(200_000);
    expect(rpBudget(p, 100_000)).toBe(1_000_000);
    expect(rpBudget({ maxRpPairs: 50, maxRpPairsPerPage: 40 }, 5000)).toBe(50);
  });

  for (let t = 0; t < 3; t++)
    it(`keeps exactly the pairs closer than the D where it cut, with the same measures (case ${t})`, () => {
      const s = seed + t;
      const n = 300 + (s % 200);
      const all = analyse(n, s, Number.MAX_SAFE_INTEGER);
      const budget = Math.max(1, Math.floor((all.candidates.rpGrid * (0.2 + 0.2 * t)) | 0));
      const cut = analyse(n, s, budget);
      const where = `seed ${s}, ${n} pages, budget ${budget} of ${all.candidates.rpGrid}`;
      expect(cut.candidates.rpGrid, where).toBeLessThanOrEqual(budget);
      expect(cut.maxD, where).toBeLessThan(all.maxD);
      const key = (r: typeof all, k: number) => `${r.pairs.a[k]},${r.pairs.b[k]}`;
      const inCut = new Map<string, number>();
      for (let k = 0; k < cut.pairs.count; k++) inCut.set(key(cut, k), k);
      let below = 0;
      for (let k = 0; k < all.pairs.count; k++) {
        const isRp = (all.pairs.sources[k] & SOURCE.rpGrid) !== 0;
        if (isRp && all.pairs.dR[k] >= cut.maxD) continue;
        below += isRp ? 1 : 0;
        // Every pair another generator proposed, and every RP pair below the cut, is still there.
        const c = inCut.get(key(all, k));
        expect(c, `${where}: pair ${key(all, k)}`).toBeDefined();
        for (const m of ['dR', 'cosine', 'jaccard', 'jaccardEst'] as const)
          expect(cut.pairs[m][c!], `${where}: ${m} of ${key(all, k)}`).toBe(all.pairs[m][k]);
      }
      expect(below, where).toBe(cut.candidates.rpGrid);
    });
});
