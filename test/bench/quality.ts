/**
 * `npm run bench:quality [-- DIR]`: pair precision and recall of every method at its defaults on the
 * docsite crawl (../shared/datasets/docsite, truth in truth.json), and the break-even points of RP
 * alone (C = 1, D varying) and of RP + HM (D fixed at several values, C varying), as in Figure 1 of
 * Di Iorio et al.
 */
import { dustRecordOf } from '../../src/core/dust/from-page';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ENGINE_DEFAULTS, SignatureEngine } from '../../src/core/candidates/engine';
import {
  accepts,
  DEFAULT_THRESHOLDS,
  METHOD_LABELS,
  type MethodId,
  type Thresholds,
} from '../../src/core/candidates/methods';
import { ingest } from '../../src/core/ingest/pipeline';
import { type DustRecord } from '../../src/core/dust';
import { reportDustTruth } from './dust-docsite';
import { normaliseUrl } from '../../src/core/url/normalize';
import { shingleSet } from '../../src/core/signatures/shingles';

const dir = resolve(process.argv[2] ?? join(import.meta.dirname, '../../../shared/datasets/docsite'));
if (!existsSync(join(dir, 'truth.json'))) {
  console.error(`no truth.json in ${dir}`);
  process.exit(1);
}
interface Truth {
  dust_rules: { id: string; kind: string; instances: number }[];
  duplicate_groups: { id: number; urls: string[]; equivalence: string }[];
  not_duplicate_pairs: { original: string; repost: string; type: string }[];
  urls: {
    url: string;
    status: number;
    content_type: string;
    html?: boolean;
    variants: string[];
    group?: number;
    canonical: string;
  }[];
}
const truth = JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')) as Truth;
const norm = (u: string) => normaliseUrl(u).href;
const htmlUrls = new Set(truth.urls.filter((u) => u.status === 200 && u.html).map((u) => norm(u.url)));
const groupOf = new Map<string, number>();
for (const g of truth.duplicate_groups) for (const u of g.urls) groupOf.set(norm(u), g.id);

const file = join(dir, 'crawl.warc.gz');
const engine = new SignatureEngine();
const urls: string[] = [];
const seen = new Set<string>();
const dustRecords: DustRecord[] = [];
const docShingles: Uint32Array[] = [];
const t0 = performance.now();
await ingest(
  createReadStream(file) as AsyncIterable<Uint8Array>,
  { fileName: 'crawl.warc.gz', totalBytes: statSync(file).size },
  async (batch) => {
    for (const { page, content } of batch)
      dustRecords.push(dustRecordOf(page, content.text, content.headers));
    for (const { page, content } of batch) {
      // One page per URL (wget re-fetches redirect targets), HTML 200 pages only: what the truth covers.
      if (seen.has(page.normUrl) || !htmlUrls.has(page.normUrl) || !content.text) continue;
      seen.add(page.normUrl);
      urls.push(page.normUrl);
      docShingles.push(shingleSet(content.text));
      engine.add({
        text: content.text,
        normUrl: page.normUrl,
        outlinks: content.outlinks,
        fingerprint: page.fingerprint,
      });
    }
  },
);
const result = engine.finish();
const p = result.pairs;
console.log(
  `docsite: ${urls.length} HTML pages, ${p.count.toLocaleString('en-US')} candidate pairs, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

// Positives: every pair of pages in one duplicate group.
const sizes = new Map<number, number>();
for (const u of urls) {
  const g = groupOf.get(u);
  if (g !== undefined) sizes.set(g, (sizes.get(g) ?? 0) + 1);
}
let positives = 0;
for (const s of sizes.values()) positives += (s * (s - 1)) / 2;
const same = new Uint8Array(p.count);
for (let k = 0; k < p.count; k++) {
  const g = groupOf.get(urls[p.a[k]]);
  same[k] = g !== undefined && g === groupOf.get(urls[p.b[k]]) ? 1 : 0;
}
// Positive pairs that no generator proposed can never be found: recall counts them as misses.
const pr = (m: MethodId, t: Thresholds) => {
  let tp = 0;
  let n = 0;
  for (let k = 0; k < p.count; k++) {
    if (!accepts(p, m, t, k)) continue;
    n++;
    tp += same[k];
  }
  return { precision: n ? tp / n : 1, recall: tp / positives, predicted: n, tp };
};
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log(`truth: ${sizes.size} duplicate groups among these pages, ${positives} duplicate pairs\n`);
console.log('method at its defaults                     precision   recall   pairs');
for (const m of Object.keys(METHOD_LABELS) as MethodId[]) {
  const r = pr(m, DEFAULT_THRESHOLDS);
  console.log(
    `  ${METHOD_LABELS[m].padEnd(40)} ${pct(r.precision).padStart(8)} ${pct(r.recall).padStart(8)} ${String(r.predicted).padStart(7)}`,
  );
}
const fcAlone = pr('feature-code', { ...DEFAULT_THRESHOLDS, fcLengthCheck: false });
console.log(
  `  ${'Feature code alone (no length check)'.padEnd(40)} ${pct(fcAlone.precision).padStart(8)} ${pct(fcAlone.recall).padStart(8)} ${String(fcAlone.predicted).padStart(7)}`,
);

// Not-duplicate pairs (reposts truncated/appended/reordered) accepted by each method.
const idx = new Map(urls.map((u, i) => [u, i]));
const find = (i: number, j: number) => {
  const [x, y] = i < j ? [i, j] : [j, i];
  for (let k = 0; k < p.count; k++) if (p.a[k] === x && p.b[k] === y) return k;
  return -1;
};
const nd = truth.not_duplicate_pairs.map((q) =>
  find(idx.get(norm(q.original)) ?? -1, idx.get(norm(q.repost)) ?? -1),
);
console.log(`\nreposts that are different pages (${nd.length} pairs): wrongly accepted as duplicates`);
for (const m of Object.keys(METHOD_LABELS) as MethodId[]) {
  const wrong = nd.filter((k) => k >= 0 && accepts(p, m, DEFAULT_THRESHOLDS, k)).length;
  console.log(`  ${METHOD_LABELS[m].padEnd(40)} ${wrong}`);
}

/** Break-even: the point on a threshold sweep where precision and recall are closest (their mean there). */
function breakEven(points: { x: number; precision: number; recall: number }[]) {
  let best = points[0];
  for (const q of points)
    if (Math.abs(q.precision - q.recall) < Math.abs(best.precision - best.recall)) best = q;
  return { ...best, value: (best.precision + best.recall) / 2 };
}
const steps = (lo: number, hi: number, n: number) =>
  Array.from({ length: n + 1 }, (_, i) => lo + ((hi - lo) * i) / n);
const rpOnly = steps(0.001, ENGINE_DEFAULTS.maxD, 200).map((D) => ({
  x: D,
  ...pr('rp-hm', { ...DEFAULT_THRESHOLDS, C: 1, D }),
}));
const be = breakEven(rpOnly);
console.log(
  `\nRP only (C = 1): break-even ${pct(be.value)} at D = ${be.x.toFixed(3)} (precision ${pct(be.precision)}, recall ${pct(be.recall)})`,
);
let bestHm = { value: 0, D: 0, C: 0, precision: 0, recall: 0 };
for (const D of steps(0.005, ENGINE_DEFAULTS.maxD, 39)) {
  const curve = steps(0.001, 0.5, 250).map((C) => ({
    x: C,
    ...pr('rp-hm', { ...DEFAULT_THRESHOLDS, C, D }),
  }));
  const b = breakEven(curve);
  if (b.value > bestHm.value)
    bestHm = { value: b.value, D, C: b.x, precision: b.precision, recall: b.recall };
}
console.log(
  `RP + HM: best break-even ${pct(bestHm.value)} at D = ${bestHm.D.toFixed(3)}, C = ${bestHm.C.toFixed(3)} (precision ${pct(bestHm.precision)}, recall ${pct(bestHm.recall)})`,
);
console.log(`(paper, on its 300,000-page crawl: 90% RP only, 93% RP + HM)`);
console.log(
  `\ncandidates by generator: ${JSON.stringify(result.candidates)}; LSH bands ${result.bands.bands}×${result.bands.rows}`,
);

// DUST rules (DustBuster) on the crawl: are the rules truth.json lists found and validated?
const allFound = reportDustTruth(dustRecords, truth, 'sites by registrable domain (the default)').allFound;
reportDustTruth(dustRecords, truth, 'sites by host (name and port)', { site: 'host' });
reportDustTruth(
  dustRecords,
  truth,
  'the paper alone (sites by host, list split 50/50, no rules from pairs)',
  {
    site: 'host',
    splitMinUrls: 0,
    pairRules: false,
  },
);
console.log(
  allFound
    ? '\nevery DUST rule of truth.json is found and validated at the defaults'
    : '\nsome DUST rules of truth.json are NOT found at the defaults',
);

// Clusters: each candidate operating point on docsite (the pages above) and on the sample crawl.
{
  const { reportClusters, sampleCorpus } = await import('./cluster-quality');
  reportClusters({
    name: 'docsite',
    result,
    urls,
    shingles: docShingles,
    group: urls.map((u) => groupOf.get(u)),
  });
  // `npm run bench:quality -- DOCSITE_DIR SAMPLE.warc.gz [TRUTH.json]` measures another sample (before/after).
  const sample = resolve(process.argv[3] ?? join(import.meta.dirname, '../../sample/sample.warc.gz'));
  const sampleTruth = resolve(process.argv[4] ?? join(dirname(sample), 'truth.json'));
  reportClusters(await sampleCorpus(sample, sampleTruth));
}
