/**
 * `npm run bench:memory [-- --sizes 100000,400000,1000000]`: the signature engine's peak memory and time
 * in Node at growing sizes, each size in a process of its own (its peak RSS is the process's maxRSS).
 * Generated pages are streamed (test/bench/corpus.ts streamCorpus: nothing of earlier pages kept), so
 * the figure is what the engine keeps, not the corpus. Beside each row, in the same run and the same
 * kind of process: the pages streamed and tokenised only (the baseline every engine must pay), its
 * time and peak. Printed: peak RSS, bytes a page, time, the ratio to the baseline, and the growth
 * exponent of the peak between the smallest and the largest size.
 *
 * Goal (issue "Signatures at the speed of the page"): 1M generated pages within 4 GB RSS and under
 * 150 s. `--chromium N`: the same engine in a Web Worker of Chromium, its renderer's peak (goal: 200k
 * pages under 1.5 GB).
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { SignatureEngine } from '../../src/core/candidates/engine';
import { tokenize } from '../../src/core/text/tokens';
import { streamCorpus } from './corpus';
import { chromiumMemory } from './signatures-memory-chromium';

interface Row {
  n: number;
  seconds: number;
  maxRssGB: number;
  pairs: number;
  /** The engine's steps, ms (SignatureEngine timings). */
  timings?: Record<string, number>;
}

function child(mode: 'engine' | 'baseline', n: number): void {
  const t0 = performance.now();
  let pairs: number;
  let timings: Record<string, number> | undefined;
  if (mode === 'engine') {
    const e = new SignatureEngine();
    for (const p of streamCorpus(n)) e.add(p);
    const r = e.finish();
    pairs = r.pairs.count;
    timings = r.timings;
  } else {
    let tokens = 0;
    for (const p of streamCorpus(n)) tokens += tokenize(p.text).length;
    pairs = tokens > 0 ? 0 : -1;
  }
  const row: Row = {
    n,
    seconds: (performance.now() - t0) / 1000,
    maxRssGB: process.resourceUsage().maxRSS / 2 ** 20,
    pairs,
    timings,
  };
  console.log(JSON.stringify(row));
}

function run(mode: 'engine' | 'baseline', n: number): Row {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--child', mode, '--pages', String(n)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (r.status !== 0) throw new Error(`${mode} ${n}: exit ${r.status}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Row;
}

const { values } = parseArgs({
  options: {
    child: { type: 'string' },
    pages: { type: 'string' },
    sizes: { type: 'string', default: '100000,400000,1000000' },
    chromium: { type: 'string' },
  },
});

if (values.child) {
  child(values.child as 'engine' | 'baseline', Number(values.pages));
} else if (values.chromium) {
  // `--chromium 200000`: the engine in a Web Worker of Chromium (signatures-memory-chromium.ts).
  const n = Number(values.chromium);
  const base = await chromiumMemory('baseline', n);
  const e = await chromiumMemory('engine', n);
  console.log(
    `signature engine in a Chromium worker, ${n.toLocaleString('en-US')} generated pages streamed: renderer peak ${(e.peakMB / 1024).toFixed(2)} GB, ${e.seconds.toFixed(1)} s, ${e.pairs.toLocaleString('en-US')} candidate pairs; baseline (stream + tokenise only) ${(base.peakMB / 1024).toFixed(2)} GB, ${base.seconds.toFixed(1)} s`,
  );
  if (n === 200_000)
    console.log(
      `goal 200k pages under 1.5 GB: ${e.peakMB < 1.5 * 1024 ? 'met' : 'NOT met'} (${(e.peakMB / 1024).toFixed(2)} GB)`,
    );
} else {
  const sizes = values.sizes.split(',').map(Number);
  console.log('signature engine in Node, generated pages streamed (each size a process of its own)');
  const rows: Row[] = [];
  for (const n of sizes) {
    const base = run('baseline', n);
    const e = run('engine', n);
    rows.push(e);
    console.log(
      `  ${n.toLocaleString('en-US').padStart(9)} pages: peak RSS ${e.maxRssGB.toFixed(2)} GB (${Math.round(
        (e.maxRssGB * 2 ** 30) / n,
      ).toLocaleString(
        'en-US',
      )} bytes a page), ${e.seconds.toFixed(1)} s, ${e.pairs.toLocaleString('en-US')} candidate pairs; ` +
        `baseline (stream + tokenise only) ${base.seconds.toFixed(1)} s, ${base.maxRssGB.toFixed(2)} GB: ${(e.seconds / base.seconds).toFixed(2)}× its time`,
    );
    const steps = Object.entries(e.timings ?? {})
      .sort((x, y) => y[1] - x[1])
      .slice(0, 8)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`);
    console.log(`      steps: ${steps.join(', ')}`);
  }
  if (rows.length >= 2) {
    const [a, b] = [rows[0], rows[rows.length - 1]];
    const exp = Math.log(b.maxRssGB / a.maxRssGB) / Math.log(b.n / a.n);
    console.log(
      `  peak RSS grows as n^${exp.toFixed(2)} from ${a.n.toLocaleString('en-US')} to ${b.n.toLocaleString('en-US')} pages`,
    );
  }
  const million = rows.find((r) => r.n === 1_000_000);
  if (million)
    console.log(
      `goal 1M pages within 4 GB and under 150 s: ${million.maxRssGB <= 4 && million.seconds < 150 ? 'met' : 'NOT met'} (${million.maxRssGB.toFixed(2)} GB, ${million.seconds.toFixed(1)} s)`,
    );
}
