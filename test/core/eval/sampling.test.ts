import { describe, expect, it } from 'vitest';
import { buildQueue } from '../../../src/core/eval/sampling';

describe('labelling queues', () => {
  const score = Array.from({ length: 1000 }, (_, i) => (i < 900 ? (i % 90) / 450 : 0.8 + (i % 100) / 500)); // 900 low, 100 high

  it('stratified: the same number per non-empty bin, π = drawn / bin size', () => {
    const q = buildQueue(score, 'stratified', 50, { bins: 5, seed: 3 });
    const bin = (s: number) => Math.min(4, Math.floor(s * 5));
    const perBin = new Map<number, number>();
    for (const it of q) perBin.set(bin(score[it.pair]), (perBin.get(bin(score[it.pair])) ?? 0) + 1);
    const sizes = new Map<number, number>();
    for (const s of score) sizes.set(bin(s), (sizes.get(bin(s)) ?? 0) + 1);
    for (const it of q)
      expect(it.pi).toBeCloseTo(perBin.get(bin(score[it.pair]))! / sizes.get(bin(score[it.pair]))!, 12);
    expect(new Set(q.map((x) => x.pair)).size).toBe(q.length);
    // The high-similarity bin, 10% of the pairs, gets a fifth of the labels.
    expect(perBin.get(4)).toBe(10);
  });

  it('random: uniform π; near-threshold: the closest scores first, π undefined', () => {
    const r = buildQueue(score, 'random', 40, { seed: 9 });
    expect(r.every((x) => x.pi === 40 / 1000)).toBe(true);
    const t = buildQueue(score, 'near-threshold', 5, { threshold: 0.9 });
    const d = t.map((x) => Math.abs(score[x.pair] - 0.9));
    const all = score.map((s) => Math.abs(s - 0.9)).sort((a, b) => a - b);
    expect(d).toEqual(all.slice(0, 5));
    expect(t.every((x) => Number.isNaN(x.pi))).toBe(true);
  });

  it('is deterministic for a seed', () => {
    expect(buildQueue(score, 'stratified', 30, { seed: 5 })).toEqual(
      buildQueue(score, 'stratified', 30, { seed: 5 }),
    );
  });
});
