/**
 * `npm run bench:quality [-- DIR]`: pair precision and recall of every method at its defaults on the
 * docsite crawl (../shared/datasets/docsite, truth in truth.json), with the template text left out
 * (the default) and kept (the papers' whole page), on every page and on the Chinese pages alone, and
 * the break-even points of RP alone (C = 1, D varying) and of RP + HM (D fixed at several values, C
 * varying), as in Figure 1 of Di Iorio et al., and of feature code (a) and MinHash (J).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { analysePages } from '../../src/core/candidates/analyse-pages';
import { ENGINE_DEFAULTS } from '../../src/core/candidates/engine-params';
import type { EngineResult } from '../../src/core/candidates/engine-result';
import type { PairTable } from '../../src/core/candidates/pairs';
import { readCrawl } from './read-crawl';
import {
  accepts,
  DEFAULT_THRESHOLDS,
  METHOD_LABELS,
  type MethodId,
  type Thresholds,
} from '../../src/core/candidates/methods';
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

const seen = new Set<string>();
const crawl = await readCrawl(join(dir, 'crawl.warc.gz'), (page, content) => {
  // One page per URL (wget re-fetches redirect targets), HTML 200 pages only: what the truth covers.
  if (seen.has(page.normUrl) || !htmlUrls.has(page.normUrl) || !content.text) return false;
  seen.add(page.normUrl);
  return true;
});
const urls = crawl.pages.map((pg) => pg.normUrl);
const docShingles = crawl.pages.map((pg) => shingleSet(pg.text));
const dustRecords: DustRecord[] = crawl.dustRecords;
const group = urls.map((u) => groupOf.get(u));
// Chinese pages (text with 。): the feature code's own ground, Peng et al. §2.2.
const zh = crawl.pages.map((pg) => pg.text.includes('。'));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const modes = ['strip', 'keep'] as const;
const runs = Object.fromEntries(
  modes.map((mode) => {
    const t0 = performance.now();
    const { result } = analysePages(crawl.pages, {
      template: { ...ENGINE_DEFAULTS.template, strip: mode === 'strip' },
      // The ground truth names every record: captures of one URL stay pages of their own here.
      captures: 'each',
    });
    return [mode, { result, seconds: (performance.now() - t0) / 1000 }];
  }),
) as Record<(typeof modes)[number], { result: EngineResult; seconds: number }>;
const result = runs.strip.result;
console.log(
  `docsite: ${urls.length} HTML pages read in ${crawl.seconds.toFixed(1)} s; candidate pairs ${modes.map((m) => `${runs[m].result.pairs.count.toLocaleString('en-US')} (template ${m === 'strip' ? 'left out' : 'kept'}, ${runs[m].seconds.toFixed(1)} s)`).join(', ')}`,
);

const scorer = (p: PairTable, only?: (i: number) => boolean) => {
  // Positives: every pair of pages in one duplicate group (restricted to pages `only` keeps).
  const sizes = new Map<number, number>();
  group.forEach((g, i) => {
    if (g !== undefined && (!only || only(i))) sizes.set(g, (sizes.get(g) ?? 0) + 1);
  });
  let positives = 0;
  for (const s of sizes.values()) positives += (s * (s - 1)) / 2;
  const same = new Uint8Array(p.count);
  const inside = new Uint8Array(p.count);
  for (let k = 0; k < p.count; k++) {
    const g = group[p.a[k]];
    same[k] = g !== undefined && g === group[p.b[k]] ? 1 : 0;
    inside[k] = !only || (only(p.a[k]) && only(p.b[k])) ? 1 : 0;
  }
  // Positive pairs that no generator proposed can never be found: recall counts them as misses.
  const pr = (m: MethodId, t: Thresholds) => {
    let tp = 0;
    let n = 0;
    for (let k = 0; k < p.count; k++) {
      if (!inside[k] || !accepts(p, m, t, k)) continue;
      n++;
      tp += same[k];
    }
    return { precision: n ? tp / n : 1, recall: positives ? tp / positives : 1, predicted: n, tp };
  };
  return { pr, groups: sizes.size, positives };
};

const table = (
  label: string,
  only?: (i: number) => boolean,
  methods = Object.keys(METHOD_LABELS) as MethodId[],
) => {
  const sc = { strip: scorer(runs.strip.result.pairs, only), keep: scorer(runs.keep.result.pairs, only) };
  console.log(`\n${label}: ${sc.strip.groups} duplicate groups, ${sc.strip.positives} duplicate pairs`);
  console.log(
    'method at its defaults                    template left out (default)  |  template kept (whole page)',
  );
  console.log(
    '                                          precision  recall  pairs  |  precision  recall  pairs',
  );
  const row = (name: string, m: MethodId, t: Thresholds) => {
    const cells = modes.map((mode) => {
      const r = sc[mode].pr(m, t);
      return `${pct(r.precision).padStart(9)} ${pct(r.recall).padStart(7)} ${String(r.predicted).padStart(6)}`;
    });
    console.log(`  ${name.padEnd(40)}${cells.join('  |  ')}`);
  };
  for (const m of methods) row(METHOD_LABELS[m], m, DEFAULT_THRESHOLDS);
  if (methods.includes('feature-code'))
    row('Feature code alone (no length check)', 'feature-code', {
      ...DEFAULT_THRESHOLDS,
      fcLengthCheck: false,
    });
  return sc;
};
const all = table('docsite, every HTML page');
table('docsite, Chinese pages only (text with 。; pairs of two such pages)', (i) => zh[i], [
  'feature-code',
  'minhash',
]);

// Not-duplicate pairs (reposts truncated/appended/reordered) accepted by each method.
const idx = new Map(urls.map((u, i) => [u, i]));
const p = result.pairs;
const find = (i: number, j: number) => {
  const [x, y] = i < j ? [i, j] : [j, i];
  for (let k = 0; k < p.count; k++) if (p.a[k] === x && p.b[k] === y) return k;
  return -1;
};
const nd = truth.not_duplicate_pairs.map((q) =>
  find(idx.get(norm(q.original)) ?? -1, idx.get(norm(q.repost)) ?? -1),
);
console.log(
  `\nreposts that are different pages (${nd.length} pairs): wrongly accepted as duplicates (template left out)`,
);
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
for (const mode of modes) {
  const score = all[mode].pr;
  const rpOnly = steps(0.001, ENGINE_DEFAULTS.maxD, 200).map((D) => ({
    x: D,
    ...score('rp-hm', { ...DEFAULT_THRESHOLDS, C: 1, D }),
  }));
  const be = breakEven(rpOnly);
  console.log(
    `\ntemplate ${mode === 'strip' ? 'left out' : 'kept'}: RP only (C = 1): break-even ${pct(be.value)} at D = ${be.x.toFixed(3)} (precision ${pct(be.precision)}, recall ${pct(be.recall)})`,
  );
  let bestHm = { value: 0, D: 0, C: 0, precision: 0, recall: 0 };
  for (const D of steps(0.005, ENGINE_DEFAULTS.maxD, 39)) {
    const curve = steps(0.001, 0.5, 250).map((C) => ({
      x: C,
      ...score('rp-hm', { ...DEFAULT_THRESHOLDS, C, D }),
    }));
    const b = breakEven(curve);
    if (b.value > bestHm.value)
      bestHm = { value: b.value, D, C: b.x, precision: b.precision, recall: b.recall };
  }
  console.log(
    `  RP + HM: best break-even ${pct(bestHm.value)} at D = ${bestHm.D.toFixed(3)}, C = ${bestHm.C.toFixed(3)} (precision ${pct(bestHm.precision)}, recall ${pct(bestHm.recall)})`,
  );
  const fc = breakEven(
    steps(1, 1.5, 100).map((a) => ({ x: a, ...score('feature-code', { ...DEFAULT_THRESHOLDS, a }) })),
  );
  const mh = breakEven(
    steps(0.3, 1, 140).map((j) => ({ x: j, ...score('minhash', { ...DEFAULT_THRESHOLDS, jaccard: j }) })),
  );
  console.log(
    `  feature code + length: break-even ${pct(fc.value)} at a = ${fc.x.toFixed(3)}; MinHash: break-even ${pct(mh.value)} at J = ${mh.x.toFixed(3)}`,
  );
}
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
    group,
  });
  // `npm run bench:quality -- DOCSITE_DIR SAMPLE.warc.gz [TRUTH.json]` measures another sample (before/after).
  const sample = resolve(process.argv[3] ?? join(import.meta.dirname, '../../sample/sample.warc.gz'));
  const sampleTruth = resolve(process.argv[4] ?? join(dirname(sample), 'truth.json'));
  reportClusters(await sampleCorpus(sample, sampleTruth));
}
