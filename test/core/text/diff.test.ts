import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random';
import { DEL, diffWords, editScript, INS, SAME } from '../../../src/core/text/diff';

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

  it('gives a shortest edit script: n + m − 2·LCS edits on seeded random token arrays (seed 24)', () => {
    const rng = seededRandom(24);
    for (let c = 0; c < 200; c++) {
      // A small alphabet: many repeated words, many equally short scripts.
      const tokens = (n: number) => Array.from({ length: n }, () => `${'abcde'[Math.floor(rng() * 5)]} `);
      const a = tokens(Math.floor(rng() * 40));
      const b = tokens(Math.floor(rng() * 40));
      const L = Array.from({ length: a.length + 1 }, () => new Int32Array(b.length + 1));
      for (let i = a.length - 1; i >= 0; i--)
        for (let j = b.length - 1; j >= 0; j--)
          L[i][j] = a[i] === b[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
      const script = editScript(a, b)!;
      const edits = script.filter((op) => op !== SAME).length;
      expect(edits, `case ${c}`).toBe(a.length + b.length - 2 * L[0][0]);
      // The script replays a into b.
      const out: string[] = [];
      let i = 0;
      let j = 0;
      for (const op of script) {
        if (op === SAME) expect(a[i++]).toBe(b[j++]);
        else if (op === DEL) i++;
        else if (op === INS) out.push(b[j++]);
        if (op === SAME) out.push(a[i - 1]);
      }
      expect(out.join('')).toBe(b.join(''));
      expect([i, j]).toEqual([a.length, b.length]);
    }
  });

  it('sets the common beginning and end aside: one edit in 200,000 words is quick', () => {
    const a = Array.from({ length: 200_000 }, (_, i) => `w${i} `);
    const b = [...a];
    b[123_456] = 'changed ';
    const t = performance.now();
    const script = editScript(a, b, 10)!;
    expect(performance.now() - t).toBeLessThan(2000);
    expect(script.filter((op) => op !== SAME)).toEqual(new Uint8Array([DEL, INS]));
  });
});
