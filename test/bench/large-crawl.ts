/**
 * `npm run bench:large-crawl [-- --gb 20] [--sample 20000] [--seed 1] [--reps 20] [--dir DIR] [--no-browser]`
 *
 * A sample of a crawl too large to read whole (issue "A sample of any crawl"):
 * 1. Generates (or reuses, DIR/manifest.json) a multi-file crawl of --gb GB with sites, mirrors, DUST
 *    aliases, exact and near copies planted, its CDXJ and the truth (large-crawl-gen.ts; never committed,
 *    by default in .bench/large-crawl).
 * 2. Estimates: --reps designs of --sample pages (seeds seed…seed+reps−1) drawn from the index; in each,
 *    the near-duplicate merges of the chosen units come from the planted truth (standing in for the
 *    engine, so that twenty repetitions need no bytes read), and the whole-crawl duplicate rate's 95%
 *    interval is checked against the truth. Printed: each repetition and the coverage.
 * 3. The workbench in headless Chromium (the app of `npm start`): the sample of seed --seed opened
 *    through "Open a large crawl…" with the WARC files and the CDXJ, timed from the files chosen to the
 *    dataset ready, beside `zcat` over the sampled records' bytes (gathered in one file first) and the
 *    renderer's peak memory (VmHWM); then signatures computed and the workbench's own estimate (the
 *    real engine) printed beside the planted truth. Reading the whole crawl is given as `zcat` over all
 *    of it, projected from the sample's bytes.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, createReadStream, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CrawlIndexReader } from '../../src/core/sample/crawl-index';
import { IndexPagesBuilder } from '../../src/core/sample/index-pages';
import { planSample } from '../../src/core/sample/sample-plan';
import {
  duplicateEstimate,
  duplicatesAmong,
  exactDuplicates,
  unitMerges,
} from '../../src/core/eval/whole-crawl';
import { launch, serve } from '../e2e/harness';
import { generateLargeCrawl } from './large-crawl-gen';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    gb: { type: 'string', default: '20' },
    sample: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '1' },
    reps: { type: 'string', default: '20' },
    dir: { type: 'string' },
    'no-browser': { type: 'boolean', default: false },
  },
});
const gb = Number(values.gb);
const budget = Number(values.sample);
const seed = Number(values.seed);
const reps = Number(values.reps);
const dir = values.dir ?? join(ROOT, '.bench', `large-crawl-${gb}gb`);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const t0 = performance.now();
const crawl = await generateLargeCrawl(dir, {
  seed: 20261128,
  targetBytes: gb * 1e9,
  files: Math.max(2, Math.round(gb)),
  log: (l) => process.stderr.write(l + '\r'),
});
console.log(
  `crawl: ${crawl.files.length} WARC.gz files, ${(crawl.bytes / 1e9).toFixed(2)} GB, ${crawl.records.toLocaleString('en-US')} records (${dir}; ready in ${s(performance.now() - t0)})`,
);

// The index, read as the worker reads it (one entry at a time into columns), and the truth beside it.
const t1 = performance.now();
const pages = new IndexPagesBuilder();
const reader = new CrawlIndexReader((e) => pages.add(e));
const decoder = new TextDecoder();
for await (const chunk of createReadStream(crawl.index, { highWaterMark: 1 << 20 }))
  reader.push(decoder.decode(chunk as Buffer, { stream: true }));
reader.finish();
const index = pages.finish();
console.log(
  `index: ${reader.count.toLocaleString('en-US')} lines read into columns in ${s(performance.now() - t1)} (Node), ${reader.bad} bad`,
);
const groups: string[] = [];
const digests: string[] = [];
{
  let rest = '';
  for await (const chunk of createReadStream(crawl.truth, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const l of lines) {
      const [, digest, group] = l.split('\t');
      digests.push(digest);
      groups.push(group);
    }
  }
}
if (groups.length !== index.design.length)
  throw new Error(`truth ${groups.length} lines, index ${index.design.length} pages`);

const truth =
  duplicatesAmong(digests.map((digest, i) => ({ digest, cluster: groupNumber(groups[i]) }))) /
  index.design.length;
const exact = exactDuplicates(index.design);
console.log(
  `truth: ${(100 * truth).toFixed(2)}% of ${index.design.length.toLocaleString('en-US')} HTML pages are duplicates (exact by digest: ${((100 * exact) / index.design.length).toFixed(2)}%)`,
);

// 2. Repetitions.
const names = crawl.files.map((f) => f.slice(f.lastIndexOf('/') + 1));
let covered = 0;
for (let k = 0; k < reps; k++) {
  const plan = planSample(index, budget, seed + k, names, {
    index: 'crawl.cdxj',
    lines: reader.lines,
    badLines: reader.bad,
  });
  const byUnit = new Map<number, { digest: string; cluster: string }[]>();
  const chosen = new Set(plan.info.chosen);
  for (let i = 0; i < index.design.length; i++) {
    const u = plan.design.unitOfPage[i];
    if (!chosen.has(u)) continue;
    let list = byUnit.get(u);
    if (!list) byUnit.set(u, (list = []));
    list.push({ digest: digests[i], cluster: groups[i] });
  }
  let certain = 0;
  const drawn: { x: number; y: number }[] = [];
  let sampled = 0;
  for (const u of plan.info.chosen) {
    const list = byUnit.get(u) ?? [];
    sampled += list.length;
    const y = unitMerges(list.map((r) => ({ digest: r.digest, cluster: groupNumber(r.cluster) })));
    if (plan.info.certain.includes(u)) certain += y;
    else drawn.push({ x: plan.info.unitPages[u], y });
  }
  const est = duplicateEstimate(exact, certain, drawn, plan.info.rest, index.design.length);
  const ok = truth >= est.rate.lo && truth <= est.rate.hi;
  if (ok) covered++;
  console.log(
    `  seed ${seed + k}: ${sampled.toLocaleString('en-US')} pages in ${plan.info.chosen.length} units (${plan.info.certain.length} certain) — ${(100 * est.rate.value).toFixed(2)}% [${(100 * est.rate.lo).toFixed(2)}, ${(100 * est.rate.hi).toFixed(2)}] ${ok ? 'covers' : 'MISSES'} the truth`,
  );
}
console.log(`coverage: ${covered} of ${reps} intervals hold the whole-crawl truth (goal ≥ 90%)`);

/** "site:page" as one number (a site has at most 20,000 pages). */
function groupNumber(g: string): number {
  const [site, page] = g.split(':');
  return Number(site) * 20_001 + Number(page);
}

// 3. The workbench.
const plan = planSample(index, budget, seed, names, {
  index: 'crawl.cdxj',
  lines: reader.lines,
  badLines: reader.bad,
});
const tmp = mkdtempSync(join(tmpdir(), 'dw-large-sample-'));
const gathered = join(tmp, 'sampled.warc.gz');
{
  const out = openSync(gathered, 'w');
  for (const f of plan.files) {
    const fd = openSync(join(dir, f.filename), 'r');
    for (const [a, b] of f.ranges) {
      const buf = Buffer.allocUnsafe(b - a);
      readSync(fd, buf, 0, b - a, a);
      writeSync(out, buf);
    }
    closeSync(fd);
  }
  closeSync(out);
}
const zcatTimes: number[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const r = spawnSync('bash', ['-c', `zcat "$0" > /dev/null`, gathered]);
  if (r.status !== 0) throw new Error('zcat failed');
  zcatTimes.push(performance.now() - t);
}
const zcat = Math.min(...zcatTimes);
rmSync(tmp, { recursive: true, force: true });
const sampleBytes = plan.info.bytesRead;
console.log(
  `sample of seed ${seed}: ${plan.info.chosen.length} units, ${(sampleBytes / 1e6).toFixed(0)} MB of records; zcat over those bytes ${s(zcat)}; the whole crawl at that rate ≈ ${s((zcat * crawl.bytes) / sampleBytes)}`,
);

if (!values['no-browser']) {
  const app = await serve();
  const b = await launch();
  try {
    await b.page.goto(app.url);
    await b.page.getByRole('button', { name: 'Open a large crawl…' }).click();
    await b.page.getByTestId('sample-budget').fill(String(budget));
    await b.page.getByTestId('sample-seed').fill(String(seed));
    const chooser = b.page.waitForEvent('filechooser');
    await b.page.getByRole('button', { name: 'Choose WARC files and index…' }).click();
    const t = performance.now();
    await (await chooser).setFiles([...crawl.files, crawl.index]);
    await b.page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 1_800_000 });
    const open = performance.now() - t;
    const peak = rendererPeak();
    const meta = await b.page.getByTestId('sample-of').textContent();
    console.log(
      `workbench: sample opened in ${s(open)} = ${(open / zcat).toFixed(1)}× zcat over its bytes (goal < 10×); renderer peak ${(peak / 1e9).toFixed(2)} GB (goal < 1 GB)`,
    );
    console.log(`           ${meta}`);
    await b.page.getByRole('button', { name: 'Compute signatures' }).click();
    await b.page.getByTestId('sample-estimates').waitFor({ timeout: 1_800_000 });
    const est = await b.page.getByTestId('sample-estimates').locator('p').first().textContent();
    console.log(`           the engine's estimate: ${est}`);
    console.log(`           planted truth: ${(100 * truth).toFixed(2)}%`);
  } finally {
    await b.close();
    await app.close();
  }
}

/** Peak resident memory (VmHWM) of the largest renderer process. */
function rendererPeak(): number {
  const r = spawnSync('bash', [
    '-c',
    "for p in $(pgrep -f 'chromium.*--type=renderer'); do grep VmHWM /proc/$p/status; done | awk '$2>m {m=$2} END {print m*1024}'",
  ]);
  return Number(String(r.stdout).trim()) || 0;
}
