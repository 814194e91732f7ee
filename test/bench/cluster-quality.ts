/**
 * Cluster quality for `npm run bench:quality`: for each candidate operating point (method × clustering
 * at its thresholds) the pair precision and recall of what the clusters claim (every pair of pages in
 * one cluster), its break-even over the method's threshold, and the smallest exact Jaccard between two
 * members of the 10 largest clusters — a chain of unrelated pages shows up there as a value near 0.
 */
import { analysePages } from '../../src/core/candidates/analyse-pages';
import type { EngineResult } from '../../src/core/candidates/engine-result';
import {
  acceptMask,
  DEFAULT_THRESHOLDS,
  type MethodId,
  type Thresholds,
} from '../../src/core/candidates/methods';
import { buildClusters, type ClusterMode } from '../../src/core/clusters/view';
import { jaccard, shingleSet } from '../../src/core/signatures/shingles';
import { readFileSync } from 'node:fs';
import { readCrawl } from './read-crawl';
import { normaliseUrl } from '../../src/core/url/normalize';

export interface Corpus {
  name: string;
  result: EngineResult;
  urls: string[];
  shingles: Uint32Array[];
  /** Truth: duplicate group per page (undefined: in no group). */
  group: (string | number | undefined)[];
}

export interface Candidate {
  label: string;
  method: MethodId;
  mode: ClusterMode;
  t: Thresholds;
  /** Threshold swept for the break-even, and its range. */
  sweep: { key: 'D' | 'jaccard'; lo: number; hi: number };
}

export interface ClusterScore {
  precision: number;
  recall: number;
  clusters: number;
  largest: number;
  /** Smallest exact Jaccard of a member pair inside the 10 (and 5) largest clusters. */
  minJ10: number;
  minJ5: number;
}

export function scoreClusters(
  c: Corpus,
  method: MethodId,
  mode: ClusterMode,
  t: Thresholds,
  withJaccard = true,
): ClusterScore {
  const p = c.result.pairs;
  const { mask } = acceptMask(p, method, t);
  const clusters = buildClusters(c.result.n, p, mask, mode);
  let positives = 0;
  const sizes = new Map<string | number, number>();
  for (const g of c.group) if (g !== undefined) sizes.set(g, (sizes.get(g) ?? 0) + 1);
  for (const s of sizes.values()) positives += (s * (s - 1)) / 2;
  let claimed = 0;
  let tp = 0;
  for (const cl of clusters) {
    const m = cl.members;
    claimed += (m.length * (m.length - 1)) / 2;
    const per = new Map<string | number, number>();
    for (const i of m) if (c.group[i] !== undefined) per.set(c.group[i]!, (per.get(c.group[i]!) ?? 0) + 1);
    for (const s of per.values()) tp += (s * (s - 1)) / 2;
  }
  const minJ = (top: number) => {
    let min = 1;
    for (const cl of clusters.slice(0, top))
      for (let x = 0; x < cl.members.length; x++)
        for (let y = x + 1; y < cl.members.length; y++)
          min = Math.min(min, jaccard(c.shingles[cl.members[x]], c.shingles[cl.members[y]]));
    return min;
  };
  return {
    precision: claimed ? tp / claimed : 1,
    recall: positives ? tp / positives : 1,
    clusters: clusters.length,
    largest: clusters[0]?.members.length ?? 0,
    minJ10: withJaccard ? minJ(10) : NaN,
    minJ5: withJaccard ? minJ(5) : NaN,
  };
}

/** Break-even of the cluster pairs over the swept threshold: where precision and recall meet. */
export function clusterBreakEven(c: Corpus, cand: Candidate): { x: number; value: number } {
  let best = { x: 0, gap: Infinity, value: 0 };
  const steps = 50;
  for (let i = 0; i <= steps; i++) {
    const x = cand.sweep.lo + ((cand.sweep.hi - cand.sweep.lo) * i) / steps;
    const s = scoreClusters(c, cand.method, cand.mode, { ...cand.t, [cand.sweep.key]: x }, false);
    const gap = Math.abs(s.precision - s.recall);
    if (gap < best.gap) best = { x, gap, value: (s.precision + s.recall) / 2 };
  }
  return best;
}

export const CANDIDATES: Candidate[] = [
  ...(['components', 'star', 'guarded'] as ClusterMode[]).flatMap((mode) => [
    {
      label: `RP + HM (C = 1, D = ${DEFAULT_THRESHOLDS.D}) / ${mode}`,
      method: 'rp-hm' as MethodId,
      mode,
      t: { ...DEFAULT_THRESHOLDS, C: 1 },
      sweep: { key: 'D' as const, lo: 0.002, hi: 0.1 },
    },
    {
      label: `MinHash (J ≥ 0.8) / ${mode}`,
      method: 'minhash' as MethodId,
      mode,
      t: { ...DEFAULT_THRESHOLDS, jaccard: 0.8 },
      sweep: { key: 'jaccard' as const, lo: 0.3, hi: 1 },
    },
  ]),
];

export function reportClusters(c: Corpus): void {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(
    `\nclusters on ${c.name} (${c.result.n} pages): pairs claimed by the clusters vs the truth's groups`,
  );
  console.log(
    '  operating point                                 precision  recall  clusters largest  min J top10  min J top5  break-even',
  );
  for (const cand of CANDIDATES) {
    const s = scoreClusters(c, cand.method, cand.mode, cand.t);
    const be = clusterBreakEven(c, cand);
    console.log(
      `  ${cand.label.padEnd(46)} ${pct(s.precision).padStart(9)} ${pct(s.recall).padStart(7)} ${String(s.clusters).padStart(9)} ${String(s.largest).padStart(7)} ${s.minJ10.toFixed(3).padStart(12)} ${s.minJ5.toFixed(3).padStart(11)}  ${pct(be.value)} at ${cand.sweep.key} = ${be.x.toFixed(3)}`,
    );
  }
}

/** The sample crawl as the app reads it: every comparable page; truth from sample/truth.json. */
export async function sampleCorpus(file: string, truthFile: string): Promise<Corpus> {
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as {
    pages: { url: string; group: string | null }[];
  };
  const norm = (u: string) => normaliseUrl(u).href;
  const groupOf = new Map<string, string>();
  for (const p of truth.pages) if (p.group) groupOf.set(norm(p.url), p.group);
  const crawl = await readCrawl(file);
  const urls = crawl.pages.map((pg) => pg.normUrl);
  const shingles = crawl.pages.map((pg) => shingleSet(pg.text));
  return {
    name: 'the sample',
    result: analysePages(crawl.pages, { captures: 'each' }).result,
    urls,
    shingles,
    group: urls.map((u) => groupOf.get(u)),
  };
}
