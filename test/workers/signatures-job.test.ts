/**
 * The signatures job gives one analysis whichever way it runs: in one thread, with signer workers
 * (signing and measuring in them), with the first pass's pages held for the second or read again.
 * Generated pages with template lines (a fresh seed each run, printed; JOB_SEED=… repeats one).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { heavyMeasuresOf } from '../../src/core/candidates/heavy-measures';
import { signPages, signedBuffers } from '../../src/core/candidates/page-signature';
import type { PageSigner } from '../../src/core/candidates/signed-fold';
import { seededRandom } from '../../src/core/random';
import { templateLineHash } from '../../src/core/text/template';
import { writeBatch } from '../../src/db/page-writes';
import { createDataset } from '../../src/db/queries';
import { db, type StoredAnalysis } from '../../src/db/schema';
import { runAnalysis } from '../../src/workers/signatures-job';
import { makeCorpus } from '../bench/corpus';
import { page } from '../db/fixtures';

const seed = Number(process.env.JOB_SEED ?? Math.floor(Math.random() * 1e9));

afterEach(async () => {
  await db().delete();
  await db().open();
});

/** n pages on 5 sites, each with its site's navigation lines around a generated text. */
async function dataset(n: number): Promise<number> {
  const id = await createDataset(db(), {
    name: 'd',
    fileName: 'd.warc',
    bytes: 1,
    format: 'warc',
    compressed: false,
  });
  const texts = makeCorpus(n, seed, 60, 0.3);
  const batch = texts.map((t, i) => {
    const host = `s${i % 5}.test`;
    const p = page(i, host);
    const nav = `Home of ${host}\nDocs\nAbout ${host}`;
    p.content.text = `${nav}\n${t.text}\n© ${host}`;
    p.content.outlinks = t.outlinks;
    p.page.fingerprint = `f${i}`;
    return p;
  });
  for (let s = 0; s < n; s += 500) await writeBatch(db(), id, batch.slice(s, s + 500));
  await db().datasets.update(id, { status: 'ready', pages: n });
  return id;
}

/** An in-process signer, its answers copied as a transfer would hand them over. */
function signer(): PageSigner {
  return {
    sign: async (texts, params) => {
      const s = signPages(texts, structuredClone(params));
      return structuredClone(s, { transfer: signedBuffers(s) });
    },
    measure: async (rows, a, b, est) =>
      heavyMeasuresOf(structuredClone(rows), a.slice(), b.slice(), est.slice()),
    terminate: () => undefined,
  };
}

async function analysis(id: number): Promise<Omit<StoredAnalysis, 'timings' | 'created' | 'elapsedMs'>> {
  const all = await db().analyses.toArray();
  const { timings, created, elapsedMs, ...rest } = all.at(-1)!;
  void timings;
  void created;
  void elapsedMs;
  await db().analyses.clear();
  expect(rest.datasetId).toBe(id);
  return rest;
}

describe(`the signatures job (seed ${seed}; JOB_SEED=${seed} repeats it)`, () => {
  it('gives the same analysis in one thread, with signers, and with its pages held or read again', async () => {
    const rnd = seededRandom(seed);
    const n = 1000 + Math.floor(rnd() * 300);
    const id = await dataset(n);
    const run = async (signers: number, holdChars?: number) => {
      let started = 0;
      const r = await runAnalysis(
        { datasetId: id, params: {} },
        () => undefined,
        () => false,
        signers ? () => Array.from({ length: (started = signers) }, signer) : undefined,
        holdChars,
        0, // signers whatever the text's size (the real threshold is measured in Chromium)
      );
      expect(r.kind, `seed ${seed}`).toBe('done');
      expect(started).toBe(signers);
      return analysis(id);
    };
    const one = await run(0);
    expect(one.n, `seed ${seed}`).toBe(n);
    expect(one.pairs.count, `seed ${seed}`).toBeGreaterThan(0);
    // The template model the texts were compared by is stored: every site's navigation lines.
    expect(one.template?.sites.map((x) => x.site).sort(), `seed ${seed}`).toEqual([
      's0.test',
      's1.test',
      's2.test',
      's3.test',
      's4.test',
    ]);
    const navLines = one.template!.sites.find((x) => x.site === 's0.test')!.lines;
    expect(navLines).toEqual(
      expect.arrayContaining([templateLineHash('Docs'), templateLineHash('Home of s0.test')]),
    );
    expect(await run(1), `seed ${seed}: one signer`).toEqual(one);
    expect(await run(3), `seed ${seed}: three signers`).toEqual(one);
    expect(await run(2, 1000), `seed ${seed}: pages read again`).toEqual(one);
    expect(await run(0, 0), `seed ${seed}: one thread, pages read again`).toEqual(one);
  });

  it('starts its signers before the first pass when the dataset stores bytes enough, and ends them if its text is too little', async () => {
    const id = await dataset(600);
    const stored = (await db().datasets.get(id))!.storedBytes!;
    const one = await (async () => {
      await runAnalysis(
        { datasetId: id, params: {} },
        () => undefined,
        () => false,
      );
      return analysis(id);
    })();
    const run = async (minChars: number) => {
      const seen: string[] = [];
      const events: string[] = [];
      let signs = 0;
      const r = await runAnalysis(
        { datasetId: id, params: {} },
        (p) => void seen.push(p.phase),
        () => false,
        () => {
          events.push(`start after ${seen.length} progress reports`);
          return [1, 2].map(() => {
            const s = signer();
            return {
              ...s,
              sign: (texts: string[], params: Parameters<PageSigner['sign']>[1]) => {
                signs++;
                return s.sign(texts, params);
              },
              terminate: () => void events.push('end'),
            };
          });
        },
        undefined,
        minChars,
      );
      expect(r.kind, `seed ${seed}`).toBe('done');
      return { events, signs, result: await analysis(id) };
    };
    // Bytes enough, text enough: started before the first pass, used, ended with the job.
    const early = await run(Math.floor(stored / 4));
    expect(early.events).toEqual(['start after 0 progress reports', 'end', 'end']);
    expect(early.signs).toBeGreaterThan(0);
    expect(early.result, `seed ${seed}`).toEqual(one);
    // Bytes enough, text too little (a character takes a byte or more: 600 pages' text is under their bytes):
    // started, ended once the first pass has counted the text, never used.
    const unused = await run(stored);
    expect(unused.events).toEqual(['start after 0 progress reports', 'end', 'end']);
    expect(unused.signs).toBe(0);
    expect(unused.result, `seed ${seed}`).toEqual(one);
    // Bytes too few: no signer at all.
    const none = await run(stored + 1);
    expect(none.events).toEqual([]);
    expect(none.result, `seed ${seed}`).toEqual(one);
  });
});
