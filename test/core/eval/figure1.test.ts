import { describe, expect, it } from 'vitest';
import { accepts, DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import type { PairTable } from '../../../src/core/candidates/pairs';
import { figure1, oracleTruth } from '../../../src/core/eval/figure1';
import { seededRandom } from '../../../src/core/random';

function table(n: number, seed: number): PairTable {
  const rnd = seededRandom(seed);
  const z = () => new Float32Array(n);
  const t: PairTable = {
    count: n,
    a: new Uint32Array(n),
    b: new Uint32Array(n),
    dR: z(),
    dX: z(),
    cosine: z(),
    jaccardEst: z(),
    jaccard: z(),
    fcMatch: new Uint8Array(n),
    lengthRatio: z(),
    simhash: new Uint8Array(n),
    exact: new Uint8Array(n),
    sources: new Uint8Array(n),
  };
  for (let k = 0; k < n; k++) {
    t.dR[k] = rnd() * 0.1;
    t.dX[k] = rnd() * 0.5;
    t.cosine[k] = Math.max(0, 1 - t.dR[k] * 5 - t.dX[k] * 0.5 + (rnd() - 0.5) * 0.2);
  }
  return t;
}

describe('Figure 1 curves', () => {
  it('precision and recall at (C, D) equal a direct count over the pairs', () => {
    const p = table(2000, 9);
    const truth = oracleTruth(p, 'cosine', 0.8);
    const f = figure1(p, truth, [0.02, 0.04, 0.06], 0.1);
    const total = truth.dup.reduce((a, b) => a + b, 0);
    for (const [C, D] of [
      [1, 0.03],
      [0.2, 0.04],
      [0.05, 0.06],
      [0.3, 0.02],
    ]) {
      let tp = 0;
      let n = 0;
      for (let k = 0; k < p.count; k++) {
        if (!accepts(p, 'rp-hm', { ...DEFAULT_THRESHOLDS, C, D }, k)) continue;
        n++;
        tp += truth.dup[k];
      }
      const at = f.at(C, D);
      expect(at.precision).toBeCloseTo(n ? tp / n : 1, 9);
      expect(at.recall).toBeCloseTo(tp / total, 9);
    }
  });

  it('draws three C curves at fixed D and the RP-only curve, each with a break-even point', () => {
    const p = table(1000, 4);
    const f = figure1(p, oracleTruth(p, 'cosine', 0.8), [0.02, 0.04, 0.06], 0.1, 50);
    expect(f.curves.map((c) => [c.vary, c.fixed])).toEqual([
      ['C', 0.02],
      ['C', 0.04],
      ['C', 0.06],
      ['D', 1],
    ]);
    for (const c of f.curves) {
      expect(c.points.length).toBe(50);
      expect(c.breakEven?.value).toBeGreaterThan(0);
      // Recall never falls as the varying threshold grows.
      for (let i = 1; i < c.points.length; i++)
        expect(c.points[i].recall).toBeGreaterThanOrEqual(c.points[i - 1].recall);
    }
  });
});

describe('method comparison curves', () => {
  it('draws one curve per method whose points match a direct count', async () => {
    const { comparisonCurves } = await import('../../../src/core/eval/figure1');
    const p = table(800, 21);
    for (let k = 0; k < p.count; k++) {
      p.jaccard[k] = p.cosine[k] * 0.9;
      p.simhash[k] = Math.round(p.dR[k] * 40);
      p.fcMatch[k] = k % 3 === 0 ? 1 : 0;
      p.lengthRatio[k] = 1 + p.dX[k];
      // LSH's pairs every other one, SimHash's every third (its own generator's pairs only count).
      p.sources[k] = (k % 2 === 0 ? 8 : 1) | (k % 3 === 0 ? 16 : 0);
    }
    const truth = oracleTruth(p, 'cosine', 0.8);
    const curves = comparisonCurves(p, truth, 0.04, 0.1, 20);
    expect(curves.map((c) => c.label)).toEqual([
      'RP (C = 1), D varies',
      'RP + HM at D = 0.040, C varies',
      'feature code + length, a varies',
      'MinHash (LSH), Jaccard varies',
      'SimHash, Hamming varies',
    ]);
    const total = truth.dup.reduce((s, x) => s + x, 0);
    // SimHash at threshold 3.5 accepts Hamming ≤ 3: compare with accepts().
    const sim = curves[4].points.find((x) => Math.abs(x.threshold - 3.5) < 1e-9)!;
    let tp = 0;
    for (let k = 0; k < p.count; k++)
      if (accepts(p, 'simhash', { ...DEFAULT_THRESHOLDS, hamming: 3 }, k)) tp += truth.dup[k];
    expect(sim.recall).toBeCloseTo(tp / total, 9);
  });
});
