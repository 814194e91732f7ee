/**
 * Signatures signed in other workers and folded in (signed-fold.ts) give the one-thread engine's
 * result to the bit, whatever the batch sizes, the number of signers and the order their answers
 * arrive in. Random generated crawls (a fresh seed each run, printed; FOLD_SEED=… repeats one).
 */
import { describe, expect, it } from 'vitest';
import { ENGINE_DEFAULTS } from '../../../src/core/candidates/engine-params';
import { SignatureEngine } from '../../../src/core/candidates/engine';
import type { EnginePage } from '../../../src/core/candidates/analyse-pages';
import { signPages, signedBuffers } from '../../../src/core/candidates/page-signature';
import { heavyMeasuresOf, cutRuns } from '../../../src/core/candidates/heavy-measures';
import {
  measureInParallel,
  OWN_WEIGHT,
  SignedFold,
  type PageSigner,
} from '../../../src/core/candidates/signed-fold';
import { seededRandom } from '../../../src/core/random';
import { makeCorpus } from '../../bench/corpus';

const seed = Number(process.env.FOLD_SEED ?? Math.floor(Math.random() * 1e9));

/** A signer answering after a random delay, with its arrays copied as a transfer would hand them over. */
function signer(rnd: () => number, calls: { n: number; measured: number }): PageSigner {
  return {
    sign: (texts, params) =>
      new Promise((resolve) => {
        calls.n++;
        const s = signPages(texts, structuredClone(params));
        setTimeout(() => resolve(structuredClone(s, { transfer: signedBuffers(s) })), rnd() * 5);
      }),
    measure: (rows, a, b, est) =>
      new Promise((resolve) => {
        calls.measured++;
        const v = heavyMeasuresOf(structuredClone(rows), a.slice(), b.slice(), est.slice());
        setTimeout(() => resolve(v), rnd() * 5);
      }),
    terminate: () => undefined,
  };
}

function result(e: SignatureEngine) {
  const r = e.finish();
  return { ...r, timings: undefined };
}

describe(`signing in other workers (seed ${seed}; FOLD_SEED=${seed} repeats it)`, () => {
  for (let t = 0; t < 4; t++)
    it(`gives the one-thread result to the bit (case ${t})`, async () => {
      const s = seed + t;
      const rnd = seededRandom(s);
      const pages: EnginePage[] = makeCorpus(200 + Math.floor(rnd() * 300), s, 80, 0.3);
      const one = new SignatureEngine(ENGINE_DEFAULTS);
      for (const p of pages) one.add(p);
      const want = result(one);

      const calls = { n: 0, measured: 0 };
      const signers = Array.from({ length: 1 + (t % 3) }, () => signer(rnd, calls));
      const many = new SignatureEngine(ENGINE_DEFAULTS);
      const fold = new SignedFold(many, signers);
      for (let at = 0; at < pages.length;) {
        const size = 1 + Math.floor(rnd() * 120);
        await fold.add(pages.slice(at, at + size));
        at += size;
      }
      await fold.flush();
      // The measures in this thread and in the signers too (finishWith), or here alone (finish).
      const got =
        t % 2 === 0
          ? {
              ...(await many.finishWith((rows, a, b, est) => measureInParallel(signers, rows, a, b, est))),
              timings: undefined,
            }
          : result(many);
      if (t % 2 === 0) expect(calls.measured, `seed ${s}`).toBe(signers.length);
      expect(calls.n, `seed ${s}`).toBeGreaterThan(0);
      expect(got, `seed ${s}, ${signers.length} signers`).toEqual(want);
      expect(many.timings.tokens, `seed ${s}`).toBeGreaterThan(0);
    });

  it('fails the way the signer failed, and folds nothing after it', async () => {
    const bad: PageSigner = {
      sign: () => Promise.reject(new Error('signer crashed')),
      measure: () => Promise.reject(new Error('signer crashed')),
      terminate: () => undefined,
    };
    const e = new SignatureEngine(ENGINE_DEFAULTS);
    const fold = new SignedFold(e, [bad]);
    const pages = makeCorpus(40, seed, 50);
    await fold.add(pages.slice(0, 20));
    await expect(fold.add(pages.slice(20))).rejects.toThrow('signer crashed');
    expect(e.count).toBe(Math.round((20 * OWN_WEIGHT) / (OWN_WEIGHT + 1)));
  });
});

describe(`cutting pairs into ranges (seed ${seed})`, () => {
  it("cuts only where a first page's run starts, ranges in order covering every pair", () => {
    const rnd = seededRandom(seed);
    for (let t = 0; t < 300; t++) {
      const m = Math.floor(rnd() * 200);
      const a = new Uint32Array(m);
      for (let k = 1; k < m; k++) a[k] = a[k - 1] + (rnd() < 0.3 ? 1 : 0);
      const weights = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => 0.2 + rnd());
      const costs = Float64Array.from({ length: m }, () => (rnd() < 0.5 ? 1 : 1 + rnd() * 100));
      const ends = t % 2 ? cutRuns(a, weights) : cutRuns(a, weights, (k) => costs[k]);
      const where = `seed ${seed}, case ${t}`;
      expect(ends.length, where).toBe(weights.length);
      expect(ends.at(-1), where).toBe(m);
      for (let p = 0; p < ends.length; p++) {
        expect(ends[p], where).toBeGreaterThanOrEqual(p === 0 ? 0 : ends[p - 1]);
        if (ends[p] > 0 && ends[p] < m) expect(a[ends[p]], where).not.toBe(a[ends[p] - 1]);
      }
    }
  });
});
