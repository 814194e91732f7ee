import { describe, expect, it } from 'vitest';
import { buildLinkGraph, hyperlinkMap } from '../../../src/core/signatures/hyperlink-map';

describe('Hyperlink Map (Di Iorio et al. §2.2, equation 1)', () => {
  it('one iteration by hand, then division by the global maximum', () => {
    // K = 1; pages 0 → 1, 0 → 2, 1 → 2; r = (0.5, 1, 0.25); γ = 0.5.
    // x(1)_0 = 0.5 + 0.5·(x_1·r_1 + x_2·r_2) = 0.5 + 0.5·(1·1 + 0.25·0.25) = 1.03125
    // x(1)_1 = 1 + 0.5·(0.25·0.25) = 1.03125;  x(1)_2 = 0.25 (no children)
    // x_M = 1.03125 → X = (1, 1, 0.2424…)
    const g = buildLinkGraph(['a', 'b', 'c'], [['b', 'c'], ['c'], []]);
    const X = hyperlinkMap(Float32Array.from([0.5, 1, 0.25]), 3, 1, g, { gamma: 0.5, iterations: 1 });
    expect(X[0]).toBeCloseTo(1, 6);
    expect(X[1]).toBeCloseTo(1, 6);
    expect(X[2]).toBeCloseTo(0.25 / 1.03125, 6);
  });

  it('two iterations use x(1) of the children', () => {
    // Chain 0 → 1 → 2, r = 1 everywhere, γ = 1: x(1) = (2, 2, 1); x(2) = (1 + 2, 1 + 1, 1) = (3, 2, 1).
    const g = buildLinkGraph(['a', 'b', 'c'], [['b'], ['c'], []]);
    const X = hyperlinkMap(Float32Array.from([1, 1, 1]), 3, 1, g, { gamma: 1, iterations: 2 });
    expect(Array.from(X).map((v) => +v.toFixed(6))).toEqual([1, +(2 / 3).toFixed(6), +(1 / 3).toFixed(6)]);
  });

  it('resolves children by normalised URL inside the dataset, once each, without self-links', () => {
    const g = buildLinkGraph(
      ['http://a/', 'http://b/'],
      [['http://b/', 'http://b/', 'http://a/', 'http://elsewhere/'], []],
    );
    expect(Array.from(g.offsets)).toEqual([0, 1, 1]);
    expect(Array.from(g.targets)).toEqual([1]);
  });
});
