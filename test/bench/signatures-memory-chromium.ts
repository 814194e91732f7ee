/**
 * The signature engine in a dedicated Web Worker of headless Chromium, as the app's signatures worker
 * runs it: n generated pages streamed into it (test/bench/corpus.ts streamCorpus, nothing of earlier
 * pages kept), then finish(). Its cost is the renderer's peak resident memory (VmHWM of the renderer
 * processes this bench started: a dedicated worker lives in its page's renderer), beside a worker in a
 * fresh browser that streams and tokenises the same pages only. Goal (issue "Signatures at the speed of
 * the page"): 200k pages under 1.5 GB.
 */
import { build } from 'esbuild';
import { launch } from '../e2e/harness';
import { rendererPeakMB } from './renderer-memory';

export interface ChromiumMemoryRow {
  n: number;
  seconds: number;
  peakMB: number;
  pairs: number;
}

const ENTRY = `
import { SignatureEngine } from '../../src/core/candidates/engine';
import { tokenize } from '../../src/core/text/tokens';
import { streamCorpus } from './corpus';
self.onmessage = (e) => {
  const { mode, n } = e.data;
  const t0 = performance.now();
  let pairs = 0;
  if (mode === 'engine') {
    const engine = new SignatureEngine();
    for (const p of streamCorpus(n)) engine.add(p);
    pairs = engine.finish().pairs.count;
  } else for (const p of streamCorpus(n)) pairs += tokenize(p.text).length > 0 ? 0 : 1;
  self.postMessage({ seconds: (performance.now() - t0) / 1000, pairs });
};
`;

export async function chromiumMemory(mode: 'engine' | 'baseline', n: number): Promise<ChromiumMemoryRow> {
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: import.meta.dirname, loader: 'ts' },
    bundle: true,
    format: 'iife',
    write: false,
  });
  const b = await launch();
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rendererPeakMB())), 200);
  try {
    await b.page.setContent('<!doctype html><title>memory</title>');
    const r = await b.page.evaluate(
      ({ code, mode, n }) =>
        new Promise<{ seconds: number; pairs: number }>((resolve, reject) => {
          const w = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
          w.onmessage = (e) => resolve(e.data as { seconds: number; pairs: number });
          w.onerror = (e) => reject(new Error(e.message));
          w.postMessage({ mode, n });
        }),
      { code: bundle.outputFiles[0].text, mode, n },
    );
    peak = Math.max(peak, rendererPeakMB());
    return { n, seconds: r.seconds, peakMB: peak, pairs: r.pairs };
  } finally {
    clearInterval(timer);
    await b.close();
  }
}
