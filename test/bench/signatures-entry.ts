/**
 * What `npm run bench:signatures` runs, in Node and (bundled by esbuild) in Chromium: signatures +
 * candidates over a corpus, and (C, D) candidate generation by grid against all pairs.
 */
import { SignatureEngine } from '../../src/core/candidates/engine';
import { linfPairs, linfPairsBrute } from '../../src/core/candidates/grid';
import { DEFAULT_THRESHOLDS } from '../../src/core/candidates/methods';
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
