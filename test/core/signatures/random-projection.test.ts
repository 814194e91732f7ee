import { describe, expect, it } from 'vitest';
import { bagOfWords } from '../../../src/core/signatures/bag-of-words';
import {
  normaliseRp,
  piEntry,
  projectBag,
  RP_DEFAULTS,
} from '../../../src/core/signatures/random-projection';

describe('random projection (Di Iorio et al. §2.1)', () => {
  it('normalises by the per-dimension minimum and the global maximum, by hand', () => {
    // Three pages, K = 2: R̂ = (1, 4), (3, 2), (5, 3). Minimum (1, 2); shifted (0, 2), (2, 0), (4, 1);
    // largest shifted component 4, so R = (0, .5), (.5, 0), (1, .25).
    const raw = Float64Array.from([1, 4, 3, 2, 5, 3]);
    expect(Array.from(normaliseRp(raw, 3, 2))).toEqual([0, 0.5, 0.5, 0, 1, 0.25]);
  });

  it('gives all zeros when every page projects to the same point', () => {
    expect(Array.from(normaliseRp(Float64Array.from([2, 2, 2, 2]), 2, 2))).toEqual([0, 0, 0, 0]);
  });

  it('draws Π entries uniform in [−1, 1], deterministic for a seed, different across seeds and rows', () => {
    const xs = Array.from({ length: 20_000 }, (_, w) => piEntry(1, 0, w * 2654435761));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...xs)).toBeLessThanOrEqual(1);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(Math.abs(mean)).toBeLessThan(0.02);
    // Uniform on [−1, 1] has variance 1/3.
    const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length;
    expect(variance).toBeGreaterThan(0.31);
    expect(variance).toBeLessThan(0.35);
    expect(piEntry(1, 0, 42)).toBe(piEntry(1, 0, 42));
    expect(piEntry(2, 0, 42)).not.toBe(piEntry(1, 0, 42));
    expect(piEntry(1, 1, 42)).not.toBe(piEntry(1, 0, 42));
  });

  it('projects a bag linearly: R̂ of a doubled text is twice R̂ (tf), the same (unit)', () => {
    const one = bagOfWords('the cat sat on the mat'.split(' '));
    const two = bagOfWords('the cat sat on the mat the cat sat on the mat'.split(' '));
    const K = RP_DEFAULTS.K;
    const a = new Float64Array(K);
    const b = new Float64Array(K);
    const tf = { ...RP_DEFAULTS, weighting: 'tf' as const };
    projectBag(one, tf, a, 0);
    projectBag(two, tf, b, 0);
    for (let j = 0; j < K; j++) expect(b[j]).toBeCloseTo(2 * a[j], 9);
    const unit = { ...RP_DEFAULTS, weighting: 'unit' as const };
    projectBag(one, unit, a, 0);
    projectBag(two, unit, b, 0);
    for (let j = 0; j < K; j++) expect(b[j]).toBeCloseTo(a[j], 9);
  });
});
