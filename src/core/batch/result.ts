/**
 * Reading a batch result folder (the join step's clusters.parquet, pairs.parquet, summary.parquet) for
 * the workbench's "Batch result" view: the cluster-size histogram, a random sample of clusters with
 * their URLs, and a simple random sample of verified pairs to label, so precision at scale is an
 * estimate with a Wilson interval (src/core/eval/estimators.ts) instead of a guess.
 *
 * Pure: files come in as hyparquet AsyncBuffers (a File's slices in the browser, a Buffer in tests).
 */
import { parquetReadObjects, type AsyncBuffer } from 'hyparquet';
import { precisionRecall, type Estimate, type LabelValue } from '../eval/estimators';
import { seededRandom } from '../random';

export const RESULT_FILES = ['clusters.parquet', 'pairs.parquet', 'summary.parquet'] as const;

export interface BatchSummaryRow {
  /** null: the whole crawl. */
  host: string | null;
  pages: number;
  pagesInClusters: number;
  clusters: number;
  duplicatesRemoved: number;
}

export interface SampledCluster {
  cluster: string;
  size: number;
  /** Up to MAX_URLS member URLs, in page order. */
  urls: string[];
}

export interface SampledPair {
  a: string;
  b: string;
  urlA: string;
  urlB: string;
  similarity: number;
}

export interface BatchResultView {
  summary: BatchSummaryRow[];
  /** Clusters per size; the last bucket holds every size ≥ HISTOGRAM_CAP. */
  histogram: { x: number; count: number }[];
  clusters: number;
  sampledClusters: SampledCluster[];
  /** Verified pairs in the result, and a simple random sample of them (inclusion probability π each). */
  pairs: number;
  sampledPairs: SampledPair[];
  pi: number;
}

export const HISTOGRAM_CAP = 30;
const MAX_URLS = 20;

const num = (v: unknown) => (typeof v === 'bigint' ? Number(v) : (v as number));

/** k distinct indices of 0 … n−1, uniformly (Floyd's algorithm), ascending. */
export function sampleIndices(n: number, k: number, seed: number): number[] {
  const rnd = seededRandom(seed);
  const chosen = new Set<number>();
  for (let j = n - Math.min(k, n); j < n; j++) {
    const t = Math.floor(rnd() * (j + 1));
    chosen.add(chosen.has(t) ? j : t);
  }
  return [...chosen].sort((x, y) => x - y);
}

export async function readBatchResult(
  files: Partial<Record<(typeof RESULT_FILES)[number], AsyncBuffer>>,
  opts: { clusters?: number; pairs?: number; seed?: number } = {},
): Promise<BatchResultView> {
  const clustersFile = files['clusters.parquet'];
  if (!clustersFile)
    throw new Error('clusters.parquet is missing: pick the result folder or its Parquet files');
  const seed = opts.seed ?? 1;

  const rows = await parquetReadObjects({ file: clustersFile, columns: ['cluster', 'cluster_size'] });
  const ids: string[] = [];
  const sizeOf = new Map<string, number>();
  for (const r of rows) {
    const c = String(r.cluster);
    if (!sizeOf.has(c)) {
      sizeOf.set(c, num(r.cluster_size));
      ids.push(c);
    }
  }
  const counts = new Map<number, number>();
  for (const s of sizeOf.values()) {
    const x = Math.min(s, HISTOGRAM_CAP);
    counts.set(x, (counts.get(x) ?? 0) + 1);
  }
  const histogram = [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([x, count]) => ({ x, count }));

  const picked = sampleIndices(ids.length, opts.clusters ?? 20, seed).map((i) => ids[i]);
  const members = new Map<string, string[]>(picked.map((c) => [c, []]));
  const urls = await parquetReadObjects({ file: clustersFile, columns: ['cluster', 'page', 'url'] });
  urls.sort((x, y) => (x.page < y.page ? -1 : x.page > y.page ? 1 : 0));
  for (const r of urls) {
    const list = members.get(String(r.cluster));
    if (list && list.length < MAX_URLS) list.push(String(r.url));
  }
  const sampledClusters = picked.map((c) => ({ cluster: c, size: sizeOf.get(c)!, urls: members.get(c)! }));

  let pairs = 0;
  let sampledPairs: SampledPair[] = [];
  let pi = 1;
  const pairsFile = files['pairs.parquet'];
  if (pairsFile) {
    const all = await parquetReadObjects({
      file: pairsFile,
      columns: ['a', 'b', 'similarity', 'url_a', 'url_b'],
    });
    pairs = all.length;
    const k = Math.min(opts.pairs ?? 100, pairs);
    pi = pairs ? k / pairs : 1;
    sampledPairs = sampleIndices(pairs, k, seed + 1).map((i) => {
      const r = all[i];
      return {
        a: String(r.a),
        b: String(r.b),
        urlA: String(r.url_a),
        urlB: String(r.url_b),
        similarity: num(r.similarity),
      };
    });
  }

  let summary: BatchSummaryRow[] = [];
  const summaryFile = files['summary.parquet'];
  if (summaryFile) {
    const s = await parquetReadObjects({ file: summaryFile });
    summary = s
      .map((r) => ({
        host: r.host === null || r.host === undefined ? null : String(r.host),
        pages: num(r.pages),
        pagesInClusters: num(r.pages_in_clusters),
        clusters: num(r.clusters),
        duplicatesRemoved: num(r.duplicates_removed),
      }))
      .sort((x, y) =>
        x.host === null ? -1 : y.host === null ? 1 : y.duplicatesRemoved - x.duplicatesRemoved,
      );
  }
  return { summary, histogram, clusters: ids.length, sampledClusters, pairs, sampledPairs, pi };
}

/**
 * Precision of the batch's verified pairs from labels on the simple random sample: every sampled pair
 * is one the method accepted, drawn with the same π, so this is the share of duplicates among the sure
 * labels, with its Wilson interval (unsure labels left out, as the workbench's estimators do).
 */
export function batchPrecision(labels: readonly (LabelValue | undefined)[], pi: number): Estimate {
  const given = labels.filter((l): l is LabelValue => l !== undefined);
  return precisionRecall(given.map((label) => ({ label, pi, predicted: true }))).precision;
}
