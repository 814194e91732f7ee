/**
 * `npm run bench:dust`: DustBuster detection (all phases) time and peak memory for 20k and 100k
 * generated unique URLs and for ../shared's apache_logs, docsite access.log and crawl.warc.gz, in
 * Node and in headless Chromium. Goals: 20k URLs < 5 s, 100k < 30 s in Chromium, under 1 GB.
 */
import { dustRecordOf } from '../../src/core/dust/from-page';
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { DustRecord } from '../../src/core/dust';
import { ingest } from '../../src/core/ingest/pipeline';
import { launch } from '../e2e/harness';
import { runGenerated, runOn } from './dust-entry';

const SHARED = resolve(import.meta.dirname, '../../../shared/datasets');
const real = ['real/apache_logs', 'docsite/access.log', 'docsite/crawl.warc.gz']
  .map((f) => join(SHARED, f))
  .filter(existsSync);

async function records(file: string): Promise<DustRecord[]> {
  const out: DustRecord[] = [];
  await ingest(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    { fileName: file, totalBytes: statSync(file).size },
    async (b) => {
      for (const { page, content } of b) out.push(dustRecordOf(page, content.text, content.headers));
    },
  );
  return out;
}

const line = (name: string, r: ReturnType<typeof runOn>, extra = '') =>
  console.log(
    `  ${name.padEnd(22)} ${(r.ms / 1000).toFixed(2).padStart(6)} s  ${String(r.urls).padStart(7)} URLs  rules ${r.detected} detected, ${r.valid} valid, ${r.likely} likely${extra}`,
  );

const realRecords = new Map<string, DustRecord[]>();
for (const f of real) realRecords.set(f, await records(f));

console.log('Node');
for (const n of [20_000, 100_000]) {
  const before = process.memoryUsage().rss;
  line(
    `generated ${n / 1000}k`,
    runGenerated(n),
    `  RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB (before ${(before / 1e6).toFixed(0)} MB)`,
  );
}
for (const [f, recs] of realRecords) line(f.split('/').slice(-1)[0], runOn(recs));

console.log('Chromium');
const bundle = await build({
  entryPoints: [join(import.meta.dirname, 'dust-entry.ts')],
  bundle: true,
  format: 'esm',
  write: false,
  outdir: '/tmp/dw-bench-dust',
});
const b = await launch();
try {
  await b.page.setContent('<!doctype html><title>bench</title>');
  await b.page.addScriptTag({
    type: 'module',
    content: `${bundle.outputFiles[0].text.replace(/export\s*\{[^}]*\};?\s*$/, '')}\nwindow.__dust = { runGenerated, runOn };`,
  });
  await b.page.waitForFunction(() => '__dust' in window);
  type Api = {
    runGenerated(n: number): ReturnType<typeof runOn>;
    runOn(r: DustRecord[]): ReturnType<typeof runOn>;
  };
  const rss = () =>
    Number(
      String(
        spawnSync('bash', ['-c', "ps -C chromium -o rss= | awk '{s+=$1} END {print s*1024}'"]).stdout,
      ).trim(),
    ) / 1e6;
  // Peak resident memory (VmHWM) of the renderer processes: the one running DustBuster is the largest.
  const rendererPeak = () =>
    Number(
      String(
        spawnSync('bash', [
          '-c',
          "for p in $(pgrep -f 'chromium.*--type=renderer'); do grep VmHWM /proc/$p/status; done | awk '$2>m {m=$2} END {print m*1024}'",
        ]).stdout,
      ).trim(),
    ) / 1e6;
  for (const n of [20_000, 100_000]) {
    const r = await b.page.evaluate((k) => (window as unknown as { __dust: Api }).__dust.runGenerated(k), n);
    const goal = n === 20_000 ? 5_000 : 30_000;
    const peak = rendererPeak();
    line(
      `generated ${n / 1000}k`,
      r,
      `  goal < ${goal / 1000} s: ${r.ms < goal ? 'met' : 'NOT met'}; renderer peak ${peak.toFixed(0)} MB (goal < 1 GB: ${peak < 1000 ? 'met' : 'NOT met'}); all Chromium processes ${rss().toFixed(0)} MB`,
    );
  }
  for (const [f, recs] of realRecords) {
    // Sketches cross into the page as plain arrays and back to typed arrays there.
    const plain = recs.map((r) => ({ ...r, sketch: r.sketch ? Array.from(r.sketch) : null }));
    const r = await b.page.evaluate((rs) => {
      const typed = rs.map((x) => ({ ...x, sketch: x.sketch ? Uint32Array.from(x.sketch) : null }));
      return (window as unknown as { __dust: Api }).__dust.runOn(typed);
    }, plain);
    line(f.split('/').slice(-1)[0], r);
  }
} finally {
  await b.close();
}
