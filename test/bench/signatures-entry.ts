/**
 * What `npm run bench:signatures` runs, in Node and (bundled by esbuild) in Chromium: signatures +
 * candidates over a corpus, and (C, D) candidate generation by grid against all pairs.
 */
import { SignatureEngine } from '../../src/core/candidates/engine';
import { linfPairs, linfPairsBrute } from '../../src/core/candidates/grid';
import { DEFAULT_THRESHOLDS, RANGES } from '../../src/core/candidates/methods';
import { bandsForMinimum, chooseBands, lshCandidates, lshFloor } from '../../src/core/signatures/lsh';
import { minhashSignature } from '../../src/core/signatures/minhash';
import { jaccard, shingleSet } from '../../src/core/signatures/shingles';
import { tokenize } from '../../src/core/text/tokens';
import { makeCorpus, type CorpusPage } from './corpus';

export interface SignatureRun {
  pages: number;
  totalMs: number;
  addMs: number;
  finishMs: number;
  pairs: number;
  timings: Record<string, number>;
  candidates: Record<string, number>;
}

export function runEngine(pages: CorpusPage[]): SignatureRun {
  const t0 = performance.now();
  const e = new SignatureEngine();
  for (const p of pages) e.add(p);
  const t1 = performance.now();
  const r = e.finish();
  const t2 = performance.now();
  return {
    pages: pages.length,
    totalMs: t2 - t0,
    addMs: t1 - t0,
    finishMs: t2 - t1,
    pairs: r.pairs.count,
    timings: r.timings,
    candidates: r.candidates,
  };
}

/**
 * The baseline a signatures run is compared with: one tokenising pass over the same texts (what any
 * bag-of-words method costs at least), in ms. The words are counted so the pass is not optimised away.
 */
export function tokensOnly(pages: CorpusPage[]): { ms: number; words: number } {
  const t0 = performance.now();
  let words = 0;
  for (const p of pages) words += tokenize(p.text).length;
  return { ms: performance.now() - t0, words };
}

export function runGenerated(n: number): SignatureRun {
  return runEngine(makeCorpus(n));
}

/** Grid vs all pairs on the RP signatures of the first n corpus pages, at the default D. */
export function gridVsAllPairs(n: number): {
  n: number;
  gridMs: number;
  bruteMs: number;
  pairs: number;
  same: boolean;
} {
  const e = new SignatureEngine();
  for (const p of makeCorpus(n, 7)) e.add(p);
  const r = e.finish();
  const D = DEFAULT_THRESHOLDS.D;
  // Best of 3 runs each, so both are measured warm (JIT-compiled).
  const best = (f: () => Uint32Array): [number, Uint32Array] => {
    let ms = Infinity;
    let out = new Uint32Array(0);
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      out = f() as Uint32Array<ArrayBuffer>;
      ms = Math.min(ms, performance.now() - t);
    }
    return [ms, out];
  };
  const [gridMs, g] = best(() => linfPairs(r.R, r.n, r.K, D));
  const [bruteMs, b] = best(() => linfPairsBrute(r.R, r.n, r.K, D));
  const key = (f: Uint32Array) => {
    const s: string[] = [];
    for (let k = 0; k < f.length; k += 2) s.push(`${f[k]},${f[k + 1]}`);
    return s.sort().join(';');
  };
  return { n, gridMs, bruteMs, pairs: b.length / 2, same: key(g) === key(b) };
}

export interface LshCost {
  banding: string;
  bands: number;
  rows: number;
  /** Lowest Jaccard proposed with probability ≥ 0.99 (lshFloor). */
  floor: number;
  /** LSH, then exact Jaccard of every candidate (what the engine does with them). */
  lshMs: number;
  jaccardMs: number;
  candidates: number;
  /** Candidates with exact Jaccard ≥ the slider's minimum, and ≥ the default 0.8. */
  atMinimum: number;
  atDefault: number;
}

/**
 * The Jaccard slider's candidate range: today's banding (chooseBands for 0.8, datasketch's rule) beside
 * bandsForMinimum for the slider's minimum, on the same signatures in the same run.
 */
export function lshRangeCost(pages: { text: string }[], permutations = 128): LshCost[] {
  const n = pages.length;
  const sets = pages.map((p) => shingleSet(p.text));
  const sigs = new Uint32Array(n * permutations);
  sets.forEach((s, i) => minhashSignature(s, { permutations, seed: 1 }, sigs, i * permutations));
  const lo = RANGES.jaccard[0];
  const settings: [string, { bands: number; rows: number }][] = [
    ['before: chooseBands(0.8)', chooseBands(permutations, 0.8)],
    [`now: bandsForMinimum(${lo})`, bandsForMinimum(permutations, lo)],
  ];
  return settings.map(([banding, { bands, rows }]) => {
    let t = performance.now();
    const { pairs } = lshCandidates(sigs, n, permutations, bands, rows);
    const lshMs = performance.now() - t;
    t = performance.now();
    let atMinimum = 0;
    let atDefault = 0;
    for (let k = 0; k < pairs.length; k += 2) {
      const j = jaccard(sets[pairs[k]], sets[pairs[k + 1]]);
      if (j >= lo) atMinimum++;
      if (j >= DEFAULT_THRESHOLDS.jaccard) atDefault++;
    }
    const jaccardMs = performance.now() - t;
    const floor = lshFloor(bands, rows);
    return {
      banding,
      bands,
      rows,
      floor,
      lshMs,
      jaccardMs,
      candidates: pairs.length / 2,
      atMinimum,
      atDefault,
    };
  });
}
