/**
 * The engine's compact storage against plain references on seeded random inputs (a fresh seed each
 * run, printed; LAYOUT_SEED=… repeats one): rows in chunks (csr.ts SortedRows) give the same dot
 * products and Jaccard as arrays merged directly, whatever the chunk size; the link graph built from
 * 64-bit URL hashes is buildLinkGraph's.
 */
import { describe, expect, it } from 'vitest';
import { SortedRows } from '../../../src/core/candidates/csr';
import { hash64Into } from '../../../src/core/hash';
import { buildLinkGraph, linkGraphOfHashes } from '../../../src/core/signatures/hyperlink-map';
import { seededRandom } from '../../../src/core/random';

const seed = Number(process.env.LAYOUT_SEED ?? Math.floor(Math.random() * 1e9));

function row(rng: () => number, maxLen: number): { ids: Uint32Array; w: Float32Array } {
  const len = Math.floor(rng() * maxLen);
  const set = new Set<number>();
  while (set.size < len) set.add(Math.floor(rng() * 3 * maxLen));
  const ids = Uint32Array.from([...set].sort((a, b) => a - b));
  return { ids, w: Float32Array.from(ids, () => rng()) };
}

function refDot(
  a: { ids: Uint32Array; w: Float32Array },
  b: { ids: Uint32Array; w: Float32Array },
  sa: number,
  sb: number,
) {
  const wa = Float32Array.from(a.w, (x) => x * sa);
  const wb = Float32Array.from(b.w, (x) => x * sb);
  let dot = 0;
  for (let i = 0; i < a.ids.length; i++) {
    const j = b.ids.indexOf(a.ids[i]);
    if (j >= 0) dot += wa[i] * wb[j];
  }
  return dot;
}

function refJaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length + b.length === 0) return 0;
  const sb = new Set(b);
  const common = [...a].filter((x) => sb.has(x)).length;
  return common / (a.length + b.length - common);
}

describe(`SortedRows in chunks (seed ${seed}; LAYOUT_SEED=${seed} repeats it)`, () => {
  for (const chunk of [8, 64, 1000, 1 << 22]) {
    it(`gives the merged rows' dot products and Jaccard, chunks of ${chunk}`, () => {
      const rng = seededRandom(seed ^ chunk);
      const rows = Array.from({ length: 300 }, () => row(rng, rng() < 0.05 ? 200 : 40));
      const scales = rows.map(() => rng() * 2);
      const bags = new SortedRows(true, chunk);
      const sets = new SortedRows(false, chunk);
      rows.forEach((r, k) => {
        bags.push(r.ids, r.w, scales[k]);
        sets.push(r.ids);
      });
      expect(bags.rows).toBe(rows.length);
      for (let t = 0; t < 2000; t++) {
        const a = Math.floor(rng() * rows.length);
        const b = Math.floor(rng() * rows.length);
        const where = `seed ${seed}, chunk ${chunk}, rows ${a} and ${b}`;
        expect(bags.dot(a, b), where).toBeCloseTo(refDot(rows[a], rows[b], scales[a], scales[b]), 10);
        expect(sets.jaccard(a, b), where).toBe(refJaccard(rows[a].ids, rows[b].ids));
      }
      // Slack: the first chunk's doubling, or gaps of less than a chunk where a row did not fit.
      const { entries, allocated } = sets.size;
      expect(allocated, `seed ${seed}, chunk ${chunk}`).toBeLessThanOrEqual(
        2 * entries + Math.max(4096, chunk),
      );
    });
  }
});

describe(`many pairs at once (seed ${seed}; LAYOUT_SEED=${seed} repeats it)`, () => {
  /** Rows of hashes over the whole 32-bit range (0 and ≥ 2³¹ included), alike by groups. */
  function hashRows(rng: () => number, n: number): Uint32Array[] {
    const u32 = () => (rng() < 0.02 ? (rng() < 0.5 ? 0 : 0xffffffff) : Math.floor(rng() * 2 ** 32));
    const rows: Uint32Array[] = [];
    for (let r = 0; r < n; r++) {
      const set = new Set<number>();
      // A third of the rows share most ids with an earlier one; a few are empty; a few are long.
      if (r > 0 && rng() < 0.33) for (const x of rows[Math.floor(rng() * r)]) if (rng() < 0.8) set.add(x);
      const len = rng() < 0.05 ? 0 : Math.floor(rng() * (rng() < 0.1 ? 3000 : 60));
      while (set.size < len) set.add(u32());
      rows.push(Uint32Array.from([...set].sort((x, y) => x - y)));
    }
    return rows;
  }

  for (const chunk of [64, 1 << 22]) {
    it(`jaccardMany and dotMany give jaccard and dot to the bit, pair by pair (chunks of ${chunk})`, () => {
      const rng = seededRandom(seed ^ (chunk + 7));
      const rows = hashRows(rng, 200);
      const bags = new SortedRows(true, chunk);
      const sets = new SortedRows(false, chunk);
      for (const r of rows) {
        bags.push(
          r,
          Float32Array.from(r, () => rng()),
          rng() * 2,
        );
        sets.push(r);
      }
      // Pairs sorted by (a, b) as PairCollector gives them: runs of one first row, some of length 1.
      const flat: [number, number][] = [];
      for (let a = 0; a < rows.length; a++)
        for (let b = a + 1; b < rows.length; b++) if (rng() < (a % 9 === 0 ? 0.004 : 0.2)) flat.push([a, b]);
      const a = Uint32Array.from(flat, (p) => p[0]);
      const b = Uint32Array.from(flat, (p) => p[1]);
      const wantJ = Float32Array.from(flat, ([x, y]) => sets.jaccard(x, y));
      const wantD = Float32Array.from(flat, ([x, y]) => bags.dot(x, y));
      const gotJ = new Float32Array(flat.length);
      const gotD = new Float32Array(flat.length);
      // Every pair probed, then a third of them merged (the caller's choice): the same values.
      const probed = new Float32Array(flat.length);
      sets.jaccardMany(a, b, probed);
      sets.jaccardMany(a, b, gotJ, (k) => k % 3 === 0);
      expect([...probed]).toEqual([...gotJ]);
      bags.dotMany(a, b, gotD);
      for (let k = 0; k < flat.length; k++) {
        const where = `seed ${seed}, chunk ${chunk}, rows ${a[k]} and ${b[k]}`;
        expect(gotJ[k], where).toBe(Math.fround(refJaccard(rows[a[k]], rows[b[k]])));
        expect(Object.is(gotJ[k], wantJ[k]), where).toBe(true);
        expect(Object.is(gotD[k], wantD[k]), `${where}: ${gotD[k]} vs ${wantD[k]}`).toBe(true);
      }
      // Ranked ids keep each row sorted: the merge still gives the same dot products.
      for (let k = 0; k < flat.length; k++)
        expect(Object.is(Math.fround(bags.dot(a[k], b[k])), wantD[k])).toBe(true);
      expect(() => bags.push(new Uint32Array([1]))).toThrow(/ranked/);
    });
  }
});

describe(`the link graph from URL hashes (seed ${seed})`, () => {
  for (let k = 0; k < 20; k++) {
    it(`is buildLinkGraph's (case ${seed + k})`, () => {
      const rng = seededRandom(seed + k);
      const n = 1 + Math.floor(rng() * 300);
      const url = (i: number) => `http://s${i % 7}.test/p${i}`;
      // Some URLs appear twice (the first page keeps it), some links leave the dataset, some are self-links.
      const urls = Array.from({ length: n }, (_, i) =>
        rng() < 0.1 && i > 0 ? url(Math.floor(rng() * i)) : url(i),
      );
      const outlinks = urls.map((_, p) =>
        Array.from({ length: Math.floor(rng() * 12) }, () =>
          rng() < 0.1
            ? urls[p]
            : rng() < 0.2
              ? `http://elsewhere.test/${Math.floor(rng() * 1e6)}`
              : url(Math.floor(rng() * n)),
        ),
      );
      const uh = new Uint32Array(2 * n);
      urls.forEach((u, i) => hash64Into(u, uh, 2 * i));
      const ends = new Uint32Array(n);
      const lh = new Uint32Array(2 * outlinks.reduce((s, l) => s + l.length, 0));
      let e = 0;
      outlinks.forEach((ls, p) => {
        for (const l of ls) hash64Into(l, lh, 2 * e++);
        ends[p] = e;
      });
      const got = linkGraphOfHashes(uh, lh, ends, n);
      const want = buildLinkGraph(urls, outlinks);
      expect([...got.offsets], `case ${seed + k}`).toEqual([...want.offsets]);
      expect([...got.targets], `case ${seed + k}`).toEqual([...want.targets]);
    });
  }
});
