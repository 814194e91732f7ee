/**
 * Signatures signed in other workers and folded in (signed-fold.ts) give the one-thread engine's
 * result to the bit, whatever the batch sizes, the number of signers and the order their answers
 * arrive in. Random generated crawls (a fresh seed each run, printed; FOLD_SEED=… repeats one).
 */
import { describe, expect, it } from 'vitest';
import { ENGINE_DEFAULTS, SignatureEngine, type EnginePage } from '../../../src/core/candidates/engine';
import { signPages, signedBuffers } from '../../../src/core/candidates/page-signature';
import { SignedFold, type PageSigner } from '../../../src/core/candidates/signed-fold';
import { seededRandom } from '../../../src/core/random';
import { makeCorpus } from '../../bench/corpus';

const seed = Number(process.env.FOLD_SEED ?? Math.floor(Math.random() * 1e9));

/** A signer answering after a random delay, with its arrays copied as a transfer would hand them over. */
function signer(rnd: () => number, calls: { n: number }): PageSigner {
  return {
    sign: (texts, params) =>
      new Promise((resolve) => {
        calls.n++;
        const s = signPages(texts, structuredClone(params));
        setTimeout(() => resolve(structuredClone(s, { transfer: signedBuffers(s) })), rnd() * 5);
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

      const calls = { n: 0 };
      const signers = Array.from({ length: 1 + (t % 3) }, () => signer(rnd, calls));
      const many = new SignatureEngine(ENGINE_DEFAULTS);
      const fold = new SignedFold(many, signers);
      for (let at = 0; at < pages.length;) {
        const size = 1 + Math.floor(rnd() * 120);
        await fold.add(pages.slice(at, at + size));
        at += size;
      }
      await fold.flush();
      const got = result(many);
      expect(calls.n, `seed ${s}`).toBeGreaterThan(0);
      expect(got, `seed ${s}, ${signers.length} signers`).toEqual(want);
      expect(many.timings.tokens, `seed ${s}`).toBeGreaterThan(0);
    });

  it('fails the way the signer failed, and folds nothing after it', async () => {
    const bad: PageSigner = {
      sign: () => Promise.reject(new Error('signer crashed')),
      terminate: () => undefined,
    };
    const e = new SignatureEngine(ENGINE_DEFAULTS);
    const fold = new SignedFold(e, [bad]);
    const pages = makeCorpus(40, seed, 50);
    await fold.add(pages.slice(0, 20));
    await expect(fold.add(pages.slice(20))).rejects.toThrow('signer crashed');
    expect(e.count).toBe(10);
  });
});
