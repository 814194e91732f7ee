import { describe, expect, it } from 'vitest';
import { accepts, DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import { pairMeasures, shingleHighlights } from '../../../src/core/eval/evidence';
import { seededRandom } from '../../../src/core/random';
import { jaccard, shingleSet } from '../../../src/core/signatures/shingles';
import { randomPairTable } from '../clusters/pair-table';

const VOCAB = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike'.split(' ');

describe('the evidence for a pair', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`shared and own shingles agree with the engine's Jaccard and mark every word, seed ${seed}`, () => {
      const rnd = seededRandom(seed * 7727);
      const words = Array.from(
        { length: 5 + Math.floor(rnd() * 80) },
        () => VOCAB[Math.floor(rnd() * VOCAB.length)] + Math.floor(rnd() * 9),
      );
      const edited = words.map((x) => (rnd() < 0.1 ? `${x}q` : x));
      if (rnd() < 0.3) edited.splice(Math.floor(rnd() * edited.length), 0, 'Inserted', 'words.');
      const a = words.join(rnd() < 0.5 ? ' ' : ', ');
      const b = edited.join(' ');
      const w = 1 + Math.floor(rnd() * 6);
      const h = shingleHighlights(a, b, w);
      const want = jaccard(shingleSet(a, { w }), shingleSet(b, { w }));
      expect(h.shared / (h.shared + h.onlyA + h.onlyB), `seed ${seed}`).toBeCloseTo(want, 10);
      // The segments are the texts, whole and in order.
      expect(h.a.map((s) => s.text).join(''), `seed ${seed}`).toBe(a);
      expect(h.b.map((s) => s.text).join(''), `seed ${seed}`).toBe(b);
      // Identical texts: every word shared; a text against an unrelated one: none.
      if (seed % 5 === 0) {
        const same = shingleHighlights(a, a, w);
        expect(
          same.a.every((s) => s.shared !== false),
          `seed ${seed}`,
        ).toBe(true);
        expect(same.onlyA + same.onlyB).toBe(0);
        const apart = shingleHighlights(a, 'zzz yyy xxx www vvv uuu', w);
        expect(
          apart.a.every((s) => s.shared !== true),
          `seed ${seed}`,
        ).toBe(true);
      }
    });
  }

  it('each method passes exactly where the clusters accept the pair', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const p = randomPairTable(40, 120, seed);
      const rnd = seededRandom(seed);
      const t = {
        ...DEFAULT_THRESHOLDS,
        jaccard: 0.3 + 0.6 * rnd(),
        C: rnd() < 0.3 ? 1 : rnd(),
        D: 0.1 * rnd(),
        hamming: Math.floor(5 * rnd()),
        fcLengthCheck: rnd() < 0.5,
      };
      for (let k = 0; k < p.count; k++)
        for (const row of pairMeasures(p, k, t))
          expect(row.passes, `seed ${seed} pair ${k} ${row.method}`).toBe(accepts(p, row.method, t, k));
    }
  });
});
