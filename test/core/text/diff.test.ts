import { describe, expect, it } from 'vitest';
import { diffWords } from '../../../src/core/text/diff';

const side = (runs: ReturnType<typeof diffWords>, keep: 'del' | 'ins') =>
  (runs ?? [])
    .filter((r) => r.op === 'same' || r.op === keep)
    .map((r) => (r.op === 'same' && keep === 'ins' ? r.textB : r.text))
    .join('');

describe('word diff', () => {
  it('marks an inserted and a deleted word, and both sides join back into their texts', () => {
    const a = 'a rose is a rose is a rose';
    const b = 'a rose is a red rose is a';
    const runs = diffWords(a, b)!;
    expect(side(runs, 'del')).toBe(a);
    expect(side(runs, 'ins')).toBe(b);
    expect(runs.filter((r) => r.op === 'ins').map((r) => r.text.trim())).toEqual(['red']);
    expect(runs.filter((r) => r.op === 'del').map((r) => r.text.trim())).toEqual(['rose']);
  });

  it('finds no change between equal texts and all change between disjoint ones', () => {
    expect(diffWords('x y z', 'x y z')).toEqual([{ op: 'same', text: 'x y z', textB: 'x y z' }]);
    const runs = diffWords('a b', 'c d')!;
    expect(runs.some((r) => r.op === 'same')).toBe(false);
  });

  it('gives up past the edit bound', () => {
    const a = Array.from({ length: 200 }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: 200 }, (_, i) => `b${i}`).join(' ');
    expect(diffWords(a, b, 50)).toBeNull();
  });
});
