import { SOURCE, type PairTable } from '../../src/core/candidates/pairs';
import type { StoredAnalysis } from '../../src/db/schema';

/**
 * A stored analysis of a few pages for component tests: pages `seqs` (their index is their position),
 * candidate pairs `rows` of [page index a, page index b, similarity], every measure read from that
 * similarity (RP/HM distances falling as it rises, SimHash bits likewise), every pair an LSH and a SimHash
 * candidate.
 */
export function analysisOfRows(seqs: readonly number[], rows: readonly number[][]): StoredAnalysis {
  const col = <T extends Float32Array | Uint8Array | Uint32Array>(
    C: { from(a: number[]): T },
    f: (r: readonly number[]) => number,
  ) => C.from(rows.map(f));
  const pairs: PairTable = {
    count: rows.length,
    a: col(Uint32Array, (r) => r[0]),
    b: col(Uint32Array, (r) => r[1]),
    dR: col(Float32Array, (r) => (1 - r[2]) / 10),
    dX: col(Float32Array, (r) => 1 - r[2]),
    cosine: col(Float32Array, (r) => r[2]),
    jaccardEst: col(Float32Array, (r) => r[2]),
    jaccard: col(Float32Array, (r) => r[2]),
    fcMatch: col(Uint8Array, () => 0),
    lengthRatio: col(Float32Array, () => 1),
    simhash: col(Uint8Array, (r) => Math.round((1 - r[2]) * 20)),
    exact: col(Uint8Array, () => 0),
    sources: col(Uint8Array, () => SOURCE.lsh | SOURCE.simhash),
  };
  return {
    datasetId: 1,
    paramsKey: 'test',
    created: 'now',
    seqs: Float64Array.from(seqs),
    n: seqs.length,
    K: 1,
    R: new Float32Array(seqs.length),
    X: new Float32Array(seqs.length),
    pairs,
    maxD: 0.1,
  } as unknown as StoredAnalysis;
}
