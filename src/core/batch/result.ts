/**
 * Reading a batch result folder (the join step's clusters.parquet, pairs.parquet, summary.parquet) for
 * the workbench's "Batch result" view: the cluster-size histogram, a random sample of clusters with
 * their URLs, and a simple random sample of verified pairs to label, so precision at scale is an
 * estimate with a Wilson interval (src/core/eval/estimators.ts) instead of a guess.
 *
 * A table is one file (DuckDB's COPY) or the parts of a folder (Spark's clusters.parquet/part-*.parquet),
 * read row group by row group: the histogram reads two columns of every cluster row, the URLs are read
 * only from the row groups that hold a sampled cluster, the pairs only from those that hold a sampled pair
 * (their count comes from the footers).
 *
 * Pure: files come in as hyparquet AsyncBuffers (a File's slices in the browser, a Buffer in tests).
 */
import { parquetMetadataAsync, parquetReadObjects, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { precisionRecall, type Estimate, type LabelValue } from '../eval/estimators';
import { seededRandom } from '../random';

export const RESULT_FILES = [
  'clusters.parquet',
  'pairs.parquet',
  'summary.parquet',
  'rejected.parquet',
] as const;
export type ResultFile = (typeof RESULT_FILES)[number];

/**
 * Which result table a picked file is, and the result folder it lies in: `out/clusters.parquet`
 * (DuckDB) or `out/spark/clusters.parquet/part-00000-….parquet` (a part of Spark's folder); null for
 * anything else (the shards' tables, `_SUCCESS`, summary.json).
 */
export function resultFileOf(path: string): { file: ResultFile; folder: string } | null {
  const parts = path.split('/');
  const name = parts[parts.length - 1];
  if ((RESULT_FILES as readonly string[]).includes(name))
    return { file: name as ResultFile, folder: parts.slice(0, -1).join('/') };
  const dir = parts[parts.length - 2];
  if (dir && (RESULT_FILES as readonly string[]).includes(dir) && /^part-.*\.parquet$/.test(name))
    return { file: dir as ResultFile, folder: parts.slice(0, -2).join('/') };
  return null;
}

/**
 * The result folder among the files picked: the one holding clusters.parquet (a file, or Spark's folder
 * of parts), the shallowest when there are several (out/ beside out/spark/), its tables by name.
 */
export function pickResult(files: readonly { path: string }[]): {
  folder: string;
  tables: Partial<Record<ResultFile, number[]>>;
} {
  const byFolder = new Map<string, Partial<Record<ResultFile, number[]>>>();
  files.forEach((f, k) => {
    const r = resultFileOf(f.path);
    if (!r) return;
    const tables = byFolder.get(r.folder) ?? {};
    (tables[r.file] ??= []).push(k);
    byFolder.set(r.folder, tables);
  });
  const depth = (f: string) => (f === '' ? 0 : f.split('/').length);
  const folder = [...byFolder.keys()]
    .filter((f) => byFolder.get(f)!['clusters.parquet'])
    .sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))[0];
  return folder === undefined ? { folder: '', tables: {} } : { folder, tables: byFolder.get(folder)! };
}

/** One row group of a table's file or part. */
/** Whether a row group's file has the column (older results lack the newer ones). */
function hasColumn(g: Group, name: string): boolean {
  return g.metadata.schema.some((e) => e.name === name);
}

interface Group {
  file: AsyncBuffer;
  metadata: FileMetaData;
  /** Its first row within its file, and its rows. */
  start: number;
  rows: number;
}

async function groupsOf(parts: readonly AsyncBuffer[]): Promise<Group[]> {
  const out: Group[] = [];
  for (const file of parts) {
    const metadata = await parquetMetadataAsync(file);
    let start = 0;
    for (const g of metadata.row_groups) {
      const rows = Number(g.num_rows);
      if (rows > 0) out.push({ file, metadata, start, rows });
      start += rows;
    }
  }
  return out;
}

/** Rows [from, to) of a row group, the columns asked. */
function readGroup(g: Group, columns: string[], from = 0, to = g.rows) {
  return parquetReadObjects({
    file: g.file,
    metadata: g.metadata,
    columns,
    rowStart: g.start + from,
    rowEnd: g.start + to,
  });
}

const asParts = (b: AsyncBuffer | readonly AsyncBuffer[] | undefined): readonly AsyncBuffer[] =>
  b === undefined ? [] : Array.isArray(b) ? b : [b as AsyncBuffer];

export interface BatchSummaryRow {
  /** null: the whole crawl. */
  host: string | null;
  pages: number;
  pagesInClusters: number;
  clusters: number;
  duplicatesRemoved: number;
  /** Captures of a URL folded into its earliest; members flagged loses_text (0 in older results). */
  capturesFolded: number;
  losesText: number;
}

/** One of the largest clusters: its size and its weakest link (the least similar verified pair in it). */
export interface LargeCluster {
  cluster: string;
  size: number;
  /** null when pairs.parquet is not among the files. */
  weakest: number | null;
}

export interface SampledCluster {
  cluster: string;
  size: number;
  /** Up to MAX_URLS member URLs, in page order. */
  urls: string[];
  /** Their places in the crawl: the shard (its file name) and the record's offset. */
  places: { shard: string; offset: number }[];
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
  /** The largest clusters (GIANT_LISTED), a giant when it holds GIANT_SIZE pages or more. */
  largest: LargeCluster[];
  /** For review (not an estimate): the least similar accepted pairs and the most similar rejected. */
  weakestAccepted: SampledPair[];
  /** null when rejected.parquet is not among the files (a result written before it was). */
  strongestRejected: SampledPair[] | null;
  rejected: number;
}

/** A cluster this large is said to be a giant: look at its weakest link before acting on it. */
export const GIANT_SIZE = 50;
const GIANT_LISTED = 3;
/** Pairs in each review queue. */
export const QUEUE_PAIRS = 50;

/**
 * The k pairs of a table with the lowest (or highest) similarity: one pass over the similarity column
 * (keeping the k best positions), then those rows only.
 */
async function extremes(groups: readonly Group[], k: number, highest: boolean): Promise<SampledPair[]> {
  const best: { s: number; g: number; i: number }[] = [];
  const worse = (x: number, y: number) => (highest ? x < y : x > y);
  for (const [gi, g] of groups.entries()) {
    const rows = await readGroup(g, ['similarity']);
    rows.forEach((r, i) => {
      const s = num(r.similarity);
      if (best.length < k) best.push({ s, g: gi, i });
      else {
        let w = 0;
        for (let j = 1; j < best.length; j++) if (worse(best[j].s, best[w].s)) w = j;
        if (worse(best[w].s, s)) best[w] = { s, g: gi, i };
      }
    });
  }
  const out: SampledPair[] = [];
  for (const gi of [...new Set(best.map((b) => b.g))]) {
    const mine = best.filter((b) => b.g === gi).sort((x, y) => x.i - y.i);
    const from = mine[0].i;
    const rows = await readGroup(
      groups[gi],
      ['a', 'b', 'similarity', 'url_a', 'url_b'],
      from,
      mine[mine.length - 1].i + 1,
    );
    for (const m of mine) {
      const r = rows[m.i - from];
      out.push({
        a: String(r.a),
        b: String(r.b),
        urlA: String(r.url_a),
        urlB: String(r.url_b),
        similarity: num(r.similarity),
      });
    }
  }
  return out.sort((x, y) => (highest ? y.similarity - x.similarity : x.similarity - y.similarity));
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
  files: Partial<Record<ResultFile, AsyncBuffer | readonly AsyncBuffer[]>>,
  opts: { clusters?: number; pairs?: number; seed?: number } = {},
): Promise<BatchResultView> {
  const clusterParts = asParts(files['clusters.parquet']);
  if (clusterParts.length === 0)
    throw new Error('clusters.parquet is missing: pick the result folder or its Parquet files');
  const seed = opts.seed ?? 1;

  const clusterGroups = await groupsOf(clusterParts);
  const ids: string[] = [];
  const sizeOf = new Map<string, number>();
  // The row groups each cluster has rows in (few: a cluster's rows are written together or nearly).
  const groupsOfCluster = new Map<string, number[]>();
  for (const [gi, g] of clusterGroups.entries()) {
    for (const r of await readGroup(g, ['cluster', 'cluster_size'])) {
      const c = String(r.cluster);
      const where = groupsOfCluster.get(c);
      if (!where) {
        sizeOf.set(c, num(r.cluster_size));
        ids.push(c);
        groupsOfCluster.set(c, [gi]);
      } else if (where[where.length - 1] !== gi) where.push(gi);
    }
  }
  const counts = new Map<number, number>();
  for (const s of sizeOf.values()) {
    const x = Math.min(s, HISTOGRAM_CAP);
    counts.set(x, (counts.get(x) ?? 0) + 1);
  }
  const histogram = [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([x, count]) => ({ x, count }));

  const picked = sampleIndices(ids.length, opts.clusters ?? 20, seed).map((i) => ids[i]);
  const members = new Map<string, { page: bigint; url: string; shard: string; offset: number }[]>(
    picked.map((c) => [c, []]),
  );
  const wanted = [...new Set(picked.flatMap((c) => groupsOfCluster.get(c)!))].sort((a, b) => a - b);
  for (const gi of wanted)
    for (const r of await readGroup(clusterGroups[gi], [
      'cluster',
      'page',
      'url',
      // A result written before members' places were kept has no shard column: its texts cannot be read.
      ...(hasColumn(clusterGroups[gi], 'shard') && hasColumn(clusterGroups[gi], 'offset')
        ? ['shard', 'offset']
        : []),
    ])) {
      const list = members.get(String(r.cluster));
      if (list)
        list.push({
          page: BigInt(r.page as bigint | number),
          url: String(r.url),
          shard: String(r.shard ?? ''),
          offset: r.offset === undefined || r.offset === null ? -1 : num(r.offset),
        });
    }
  const sampledClusters = picked.map((c) => {
    const shown = members
      .get(c)!
      .sort((x, y) => (x.page < y.page ? -1 : x.page > y.page ? 1 : 0))
      .slice(0, MAX_URLS);
    return {
      cluster: c,
      size: sizeOf.get(c)!,
      urls: shown.map((m) => m.url),
      places: shown.map((m) => ({ shard: m.shard, offset: m.offset })),
    };
  });

  let pairs = 0;
  const sampledPairs: SampledPair[] = [];
  let pi = 1;
  const pairParts = asParts(files['pairs.parquet']);
  if (pairParts.length > 0) {
    const groups = await groupsOf(pairParts);
    pairs = groups.reduce((n, g) => n + g.rows, 0);
    const k = Math.min(opts.pairs ?? 100, pairs);
    pi = pairs ? k / pairs : 1;
    const chosen = sampleIndices(pairs, k, seed + 1);
    let at = 0;
    let first = 0;
    for (const g of groups) {
      const mine: number[] = [];
      while (at < chosen.length && chosen[at] < first + g.rows) mine.push(chosen[at++] - first);
      if (mine.length > 0) {
        const from = mine[0];
        const rows = await readGroup(
          g,
          ['a', 'b', 'similarity', 'url_a', 'url_b'],
          from,
          mine[mine.length - 1] + 1,
        );
        for (const i of mine) {
          const r = rows[i - from];
          sampledPairs.push({
            a: String(r.a),
            b: String(r.b),
            urlA: String(r.url_a),
            urlB: String(r.url_b),
            similarity: num(r.similarity),
          });
        }
      }
      first += g.rows;
    }
  }

  let summary: BatchSummaryRow[] = [];
  const summaryParts = asParts(files['summary.parquet']);
  if (summaryParts.length > 0) {
    const s = (await Promise.all(summaryParts.map((file) => parquetReadObjects({ file })))).flat();
    summary = s
      .map((r) => ({
        host: r.host === null || r.host === undefined ? null : String(r.host),
        pages: num(r.pages),
        pagesInClusters: num(r.pages_in_clusters),
        clusters: num(r.clusters),
        duplicatesRemoved: num(r.duplicates_removed),
        capturesFolded: r.captures_folded === undefined ? 0 : num(r.captures_folded),
        losesText: r.loses_text === undefined ? 0 : num(r.loses_text),
      }))
      .sort((x, y) =>
        x.host === null ? -1 : y.host === null ? 1 : y.duplicatesRemoved - x.duplicatesRemoved,
      );
  }
  // The largest clusters, and the giants' weakest links from the pairs' cluster and similarity columns.
  const largest: LargeCluster[] = [...sizeOf.entries()]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, GIANT_LISTED)
    .map(([cluster, size]) => ({ cluster, size, weakest: null }));
  let weakestAccepted: SampledPair[] = [];
  if (pairParts.length > 0) {
    const groups = await groupsOf(pairParts);
    const weakest = new Map<string, number>();
    // Weakest links of the giants only: the pairs' cluster column is read whole for them.
    const want = new Set(largest.filter((c) => c.size >= GIANT_SIZE).map((c) => c.cluster));
    if (want.size > 0)
      for (const g of groups)
        for (const r of await readGroup(g, ['cluster', 'similarity'])) {
          const c = String(r.cluster);
          if (!want.has(c)) continue;
          const s = num(r.similarity);
          weakest.set(c, Math.min(weakest.get(c) ?? Infinity, s));
        }
    for (const c of largest) c.weakest = weakest.get(c.cluster) ?? null;
    weakestAccepted = await extremes(groups, QUEUE_PAIRS, false);
  }
  let strongestRejected: SampledPair[] | null = null;
  let rejected = 0;
  const rejectedParts = asParts(files['rejected.parquet']);
  if (rejectedParts.length > 0) {
    const groups = await groupsOf(rejectedParts);
    rejected = groups.reduce((n, g) => n + g.rows, 0);
    strongestRejected = await extremes(groups, QUEUE_PAIRS, true);
  }
  return {
    summary,
    histogram,
    clusters: ids.length,
    sampledClusters,
    pairs,
    sampledPairs,
    pi,
    largest,
    weakestAccepted,
    strongestRejected,
    rejected,
  };
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
