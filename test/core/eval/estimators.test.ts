import { describe, expect, it } from 'vitest';
import { breakEven, bestF1 } from '../../../src/core/eval/curves';
import { randomCurve } from './random-curve';
import { precisionRecall, weightedProportion, wilson } from '../../../src/core/eval/estimators';

describe('estimators', () => {
  it('Wilson interval by hand: 8 of 10 → [0.490, 0.943]', () => {
    // centre = (0.8 + 1.96²/20) / (1 + 1.96²/10) = 0.7167; half = 1.96/1.3841 · √(0.016 + 0.009604) = 0.2266
    const { lo, hi } = wilson(0.8, 10);
    expect(lo).toBeCloseTo(0.4902, 3);
    expect(hi).toBeCloseTo(0.9433, 3);
    // Width shrinks with n: 80 of 100.
    const w100 = wilson(0.8, 100);
    expect(w100.hi - w100.lo).toBeLessThan(hi - lo);
    // half = 1.96/1.038416 · √(0.0016 + 0.00009604) = 0.07773 → width 0.1555
    expect(w100.hi - w100.lo).toBeCloseTo(0.1555, 3);
  });

  it('unweighted precision and recall from labels by hand', () => {
    // 4 accepted: 3 dup, 1 not → precision 3/4; duplicates: 3 accepted + 2 missed → recall 3/5; unsure ignored.
    const L = (label: 'dup' | 'not' | 'unsure', predicted: boolean) => ({ label, predicted, pi: 1 });
    const r = precisionRecall([
      L('dup', true),
      L('dup', true),
      L('dup', true),
      L('not', true),
      L('dup', false),
      L('dup', false),
      L('not', false),
      L('unsure', true),
    ]);
    expect(r.precision.value).toBeCloseTo(0.75, 12);
    expect(r.recall.value).toBeCloseTo(0.6, 12);
    expect(r.precision.n).toBe(4);
  });

  it('a weighted stratified case by hand (Horvitz–Thompson)', () => {
    // Stratum A (high similarity): 2 of 10 pairs labelled (π = 0.2), both dup, both accepted.
    // Stratum B (low similarity): 4 of 100 labelled (π = 0.04): 1 dup accepted, 1 not accepted, 2 not rejected.
    // Precision: accepted weights dup 5+5+25 = 35, not 25 → 35/60 = 0.5833.
    // Recall: dup weights 5+5+25 = 35, all accepted → 1.
    const labels = [
      { label: 'dup' as const, pi: 0.2, predicted: true },
      { label: 'dup' as const, pi: 0.2, predicted: true },
      { label: 'dup' as const, pi: 0.04, predicted: true },
      { label: 'not' as const, pi: 0.04, predicted: true },
      { label: 'not' as const, pi: 0.04, predicted: false },
      { label: 'not' as const, pi: 0.04, predicted: false },
    ];
    const r = precisionRecall(labels);
    expect(r.precision.value).toBeCloseTo(35 / 60, 12);
    expect(r.recall.value).toBe(1);
    // Kish: (5+5+25+25)² / (25+25+625+625) = 3600/1300 = 2.769 effective labels, not 4.
    expect(r.precision.n).toBeCloseTo(3600 / 1300, 9);
    const plain = weightedProportion([1, 1, 1, 0].map((h) => ({ w: 1, hit: h === 1 })));
    expect(r.precision.hi - r.precision.lo).toBeGreaterThan(plain.hi - plain.lo - 0.2);
  });

  it('curves from sorted prefix sums equal a rescan, and find break-even and best F1', () => {
    const n = 500;
    const { score, isDup, curve } = randomCurve(3, n, 7);
    for (const t of [0, 0.1, 0.37, 0.5, 0.99, 1.01]) {
      let tp = 0;
      let fp = 0;
      for (let i = 0; i < n; i++) {
        if (score[i] >= t) continue;
        if (isDup[i]) tp++;
        else fp++;
      }
      const total = isDup.reduce<number>((a, b) => a + b, 0) + 7;
      const p = curve.at(t);
      expect(p.precision).toBeCloseTo(tp + fp ? tp / (tp + fp) : 1, 12);
      expect(p.recall).toBeCloseTo(tp / total, 12);
    }
    const pts = curve.sample(0, 1, 100);
    const be = breakEven(pts);
    expect(be).not.toBeNull();
    expect(Math.abs(be!.precision - be!.recall)).toBeLessThan(1e-12);
    // At the break-even F1 = precision = recall, so the best F1 on the sampled points is close to it or above.
    const f = bestF1(pts);
    expect(f.f1).toBeGreaterThanOrEqual(be!.value - 0.05);
  });
});
