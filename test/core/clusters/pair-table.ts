import type { PairTable } from '../../../src/core/candidates/pairs';
import { SOURCE } from '../../../src/core/candidates/pairs';
import { seededRandom } from '../../../src/core/random';

/** A pair table from (i, j, jaccard) triples, sorted as PairCollector sorts it; other measures from J. */
export function pairTable(
  rows: [number, number, number][],
  extra: Partial<Record<keyof PairTable, number[]>> = {},
): PairTable {
  const sorted = rows
    .map(([i, j, J], k) => ({ a: Math.min(i, j), b: Math.max(i, j), J, k }))
    .sort((x, y) => x.a - y.a || x.b - y.b);
  const m = sorted.length;
  const col = <T extends Float32Array | Uint8Array>(
    make: (n: number) => T,
    key: keyof PairTable,
    f: (J: number) => number,
  ) => {
    const out = make(m);
    sorted.forEach((r, k) => (out[k] = extra[key] ? extra[key]![r.k] : f(r.J)));
    return out;
  };
  return {
    count: m,
    a: Uint32Array.from(sorted.map((r) => r.a)),
    b: Uint32Array.from(sorted.map((r) => r.b)),
    jaccard: Float32Array.from(sorted.map((r) => r.J)),
    jaccardEst: col(
      (n) => new Float32Array(n),
      'jaccardEst',
      (J) => J,
    ),
    cosine: col(
      (n) => new Float32Array(n),
      'cosine',
      (J) => J,
    ),
    dR: col(
      (n) => new Float32Array(n),
      'dR',
      (J) => (1 - J) / 10,
    ),
    dX: col(
      (n) => new Float32Array(n),
      'dX',
      (J) => 1 - J,
    ),
    fcMatch: col(
      (n) => new Uint8Array(n),
      'fcMatch',
      (J) => (J > 0.5 ? 1 : 0),
    ),
    lengthRatio: col(
      (n) => new Float32Array(n),
      'lengthRatio',
      () => 1,
    ),
    simhash: col(
      (n) => new Uint8Array(n),
      'simhash',
      (J) => Math.round(10 * (1 - J)),
    ),
    exact: col(
      (n) => new Uint8Array(n),
      'exact',
      (J) => (J === 1 ? 1 : 0),
    ),
    sources: col(
      (n) => new Uint8Array(n),
      'sources',
      () => SOURCE.lsh | SOURCE.rpGrid,
    ),
  };
}

/** A random pair table over n pages (every measure drawn independently), for agreement tests. */
export function randomPairTable(n: number, m: number, seed: number): PairTable {
  const rnd = seededRandom(seed);
  const seen = new Set<number>();
  const rows: [number, number, number][] = [];
  while (rows.length < m) {
    const i = Math.floor(rnd() * n);
    const j = Math.floor(rnd() * n);
    if (i === j || seen.has(Math.min(i, j) * n + Math.max(i, j))) continue;
    seen.add(Math.min(i, j) * n + Math.max(i, j));
    rows.push([i, j, Math.round(rnd() * 100) / 100]);
  }
  const r = (f: () => number) => rows.map(f);
  return pairTable(rows, {
    dR: r(() => rnd() * 0.1),
    dX: r(() => rnd()),
    fcMatch: r(() => Math.floor(rnd() * 3)),
    lengthRatio: r(() => 1 + rnd() * 0.5),
    simhash: r(() => Math.floor(rnd() * 6)),
    exact: r(() => (rnd() < 0.2 ? 1 : 0)),
    sources: r(() => Math.floor(rnd() * 32)),
  });
}
