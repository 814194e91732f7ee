/**
 * The two measures that cost most once candidates are known: the cosine of two bags of words and the
 * exact Jaccard of two shingle sets, for every candidate pair (csr.ts dotMany, jaccardMany). The engine
 * computes them itself (finish) or hands ranges of pairs to other workers with a copy of its rows
 * (finishWith, the signatures job's signer workers): each range is computed by the same function here,
 * so a pair's values are the same to the bit wherever it was measured.
 */
import { SortedRows, type RowsExport } from './csr';

/**
 * Pairs whose MinHash estimate is at least this have their exact Jaccard by a merge of the two rows;
 * the others by probing (csr.ts jaccardMany): probing skips an id of the second row the first lacks
 * by one bit test but costs ~3× a merge step on an id they share. Either way the value is exact.
 * Measured in Node over cut-offs 0 to 0.5 on 5,000 long generated pages (259,000 pairs; merge alone
 * 2.58 s, 0.1: 1.50 s, 0.25: 1.70 s, 0.5: 2.04 s) and on docsite (57,000 pairs; 0.56 s, 0.30 s, 0.30 s,
 * 0.31 s).
 */
export const MERGE_FROM = 0.1;

/** The rows the heavy measures read: bags of words (ids ranked, weights) and shingle sets. */
export interface HeavyRows {
  bags: SortedRows;
  shingles: SortedRows;
}

export interface HeavyRowsExport {
  bags: RowsExport;
  shingles: RowsExport;
}

export interface HeavyValues {
  cosine: Float32Array;
  jaccard: Float32Array;
  /** Milliseconds each measure took. */
  cosineMs: number;
  jaccardMs: number;
}

/**
 * Cosine and exact Jaccard of the pairs (a[k], b[k]), sorted by a; `est` their MinHash estimates (which
 * pairs take the merge for Jaccard).
 */
export function heavyMeasures(
  rows: HeavyRows,
  a: Uint32Array,
  b: Uint32Array,
  est: Float32Array,
  /** Where to write the values (the pair table's own columns, in one thread); fresh arrays otherwise. */
  out?: { cosine: Float32Array; jaccard: Float32Array },
): HeavyValues {
  const m = a.length;
  let t = performance.now();
  const cosine = out?.cosine ?? new Float32Array(m);
  rows.bags.dotMany(a, b, cosine);
  for (let k = 0; k < m; k++) cosine[k] = Math.min(1, cosine[k]);
  const cosineMs = performance.now() - t;
  t = performance.now();
  const jaccard = out?.jaccard ?? new Float32Array(m);
  rows.shingles.jaccardMany(a, b, jaccard, (k) => est[k] >= MERGE_FROM);
  return { cosine, jaccard, cosineMs, jaccardMs: performance.now() - t };
}

/** heavyMeasures in another worker, over rows exported from the engine's. */
export function heavyMeasuresOf(
  rows: HeavyRowsExport,
  a: Uint32Array,
  b: Uint32Array,
  est: Float32Array,
): HeavyValues {
  return heavyMeasures(
    { bags: SortedRows.from(rows.bags), shingles: SortedRows.from(rows.shingles) },
    a,
    b,
    est,
  );
}

/**
 * Where to cut m pairs sorted by their first page into `parts` ranges of about the shares given
 * (weights), each cut at the start of a first page's run (so a run's hash set is built once): the
 * ranges' ends, the last being m.
 */
export function cutRuns(
  a: Uint32Array,
  weights: readonly number[],
  cost: (k: number) => number = () => 1,
): number[] {
  const m = a.length;
  // Cumulative cost of the pairs before each one.
  const before = new Float64Array(m + 1);
  for (let k = 0; k < m; k++) before[k + 1] = before[k] + cost(k);
  const total = weights.reduce((s, w) => s + w, 0);
  const ends: number[] = [];
  let share = 0;
  for (let p = 0; p < weights.length - 1; p++) {
    share += weights[p];
    const target = (before[m] * share) / total;
    // The first pair whose cumulative cost reaches the target (binary search), then to its run's end.
    let lo = ends.at(-1) ?? 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    let k = lo;
    while (k > 0 && k < m && a[k] === a[k - 1]) k++;
    ends.push(Math.min(k, m));
  }
  ends.push(m);
  return ends;
}

/**
 * About what a pair costs heavyMeasures, in row entries read: the second rows (probed or gathered),
 * the first row too when merged; each first row once more for its hash set or dense array.
 */
export function pairCost(
  rows: HeavyRows,
  a: Uint32Array,
  b: Uint32Array,
  est: Float32Array,
): (k: number) => number {
  return (k) => {
    const lb = rows.shingles.length(b[k]) + rows.bags.length(b[k]);
    const la = rows.shingles.length(a[k]) + rows.bags.length(a[k]);
    return lb + (est[k] >= MERGE_FROM || (k > 0 && a[k - 1] !== a[k]) ? la : 0);
  };
}
