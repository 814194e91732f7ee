/**
 * Per-page sorted id lists in typed arrays (compressed sparse rows), so the measures of a million
 * candidate pairs merge flat memory instead of chasing one object per page.
 *
 * The rows live in chunks of at most CHUNK entries, a row never split between two: a chunk is never
 * copied once full, and the last one grows by doubling up to CHUNK. One growable array instead held up
 * to twice the rows' size (the doubling's slack, ~0.9 GB for the bags of 1M generated pages) and, while
 * it grew, the old array and the new one at once.
 */

/** Entries a chunk holds (16 MiB of ids): rows are far shorter; a longer row gets a chunk of its own. */
const CHUNK = 1 << 22;
/** The first chunk's size: small datasets allocate little. */
const FIRST = 1 << 12;

import { IdTable, RowSet } from './row-sets';

/** SortedRows as plain arrays (SortedRows.export, SortedRows.from). */
export interface RowsExport {
  withWeights: boolean;
  chunk: number;
  ids: Uint32Array[];
  weights: Float32Array[];
  chunkOf: Uint32Array;
  starts: Uint32Array;
  ends: Uint32Array;
  distinct: number;
}

export class SortedRows {
  private readonly withWeights: boolean;
  private readonly chunk: number;
  private idChunks: Uint32Array[] = [];
  private wChunks: Float32Array[] = [];
  /** Entries used in the last chunk. */
  private fill = 0;
  /** Per row: its chunk and where it starts and ends there. */
  private chunkOf: number[] = [];
  private starts: number[] = [];
  private ends: number[] = [];
  /** The number of distinct ids once rankIds has numbered them, −1 before. */
  private distinct = -1;
  /** Made from another worker's rows (from): measured only. */
  private readOnly = false;

  /** `chunk`: entries a chunk holds (tests make it small to cross chunks often). */
  constructor(withWeights: boolean, chunk = CHUNK) {
    this.withWeights = withWeights;
    this.chunk = chunk;
  }

  /**
   * The rows as plain arrays, for another worker (structured clone copies them; read-only there:
   * SortedRows.from). The chunks are passed whole, their slack included.
   */
  export(): RowsExport {
    return {
      withWeights: this.withWeights,
      chunk: this.chunk,
      ids: this.idChunks,
      weights: this.wChunks,
      chunkOf: Uint32Array.from(this.chunkOf),
      starts: Uint32Array.from(this.starts),
      ends: Uint32Array.from(this.ends),
      distinct: this.distinct,
    };
  }

  /** Rows exported by another worker (export), to measure pairs of them; no row can be pushed. */
  static from(e: RowsExport): SortedRows {
    const r = new SortedRows(e.withWeights, e.chunk);
    r.idChunks = e.ids;
    r.wChunks = e.weights;
    r.chunkOf = Array.from(e.chunkOf);
    r.starts = Array.from(e.starts);
    r.ends = Array.from(e.ends);
    r.distinct = e.distinct;
    r.readOnly = true;
    return r;
  }

  /** Bytes the rows' chunks take (what export hands over). */
  get bytes(): number {
    let b = 0;
    for (const c of this.idChunks) b += c.byteLength;
    for (const c of this.wChunks) b += c.byteLength;
    return b;
  }

  /** How many ids row r holds. */
  length(r: number): number {
    return this.ends[r] - this.starts[r];
  }

  /** Rows pushed so far. */
  get rows(): number {
    return this.starts.length;
  }

  /** Entries held, and entries allocated (their difference is the slack). */
  get size(): { entries: number; allocated: number } {
    let allocated = 0;
    for (const c of this.idChunks) allocated += c.length;
    const entries = this.ends.reduce((s, e, r) => s + e - this.starts[r], 0);
    return { entries, allocated };
  }

  push(ids: Uint32Array, weights?: Float32Array, scale = 1): void {
    if (this.distinct >= 0 || this.readOnly)
      throw new Error('SortedRows.push: the ids were ranked (rankIds) or imported; no row can be added');
    const n = ids.length;
    const CHUNK = this.chunk;
    let c = this.idChunks.length - 1;
    if (c < 0 || this.fill + n > this.idChunks[c].length) {
      const last = c < 0 ? null : this.idChunks[c];
      if (last && last.length < CHUNK && this.fill + n <= CHUNK) {
        // The last chunk grows (doubling) until it reaches CHUNK entries.
        let size = last.length;
        while (size < this.fill + n) size *= 2;
        this.resizeLast(Math.min(size, CHUNK));
      } else {
        // A new chunk: full-sized once the first has grown, or as long as the row when longer.
        const size = n > CHUNK ? n : c < 0 ? Math.min(CHUNK, Math.max(FIRST, pow2(n))) : CHUNK;
        this.idChunks.push(new Uint32Array(size));
        if (this.withWeights) this.wChunks.push(new Float32Array(size));
        this.fill = 0;
        c++;
      }
    }
    const at = this.fill;
    this.idChunks[c].set(ids, at);
    if (this.withWeights && weights) {
      const w = this.wChunks[c];
      for (let k = 0; k < n; k++) w[at + k] = weights[k] * scale;
    }
    this.chunkOf.push(c);
    this.starts.push(at);
    this.ends.push(at + n);
    this.fill = at + n;
  }

  private resizeLast(size: number): void {
    const c = this.idChunks.length - 1;
    const ids = new Uint32Array(size);
    ids.set(this.idChunks[c].subarray(0, this.fill));
    this.idChunks[c] = ids;
    if (this.withWeights) {
      const w = new Float32Array(size);
      w.set(this.wChunks[c].subarray(0, this.fill));
      this.wChunks[c] = w;
    }
  }

  /** Σ w_a·w_b over common ids (the cosine when rows hold unit-length weights). */
  dot(a: number, b: number): number {
    const ca = this.chunkOf[a];
    const cb = this.chunkOf[b];
    const ia = this.idChunks[ca];
    const wa = this.wChunks[ca];
    const ib = this.idChunks[cb];
    const wb = this.wChunks[cb];
    let i = this.starts[a];
    const ie = this.ends[a];
    let j = this.starts[b];
    const je = this.ends[b];
    let dot = 0;
    // Branch-free steps (see jaccard); the common ids' products are added in ascending id order, as
    // before, so the sum is the same to the bit.
    while (i < ie && j < je) {
      const x = ia[i];
      const y = ib[j];
      if (x === y) dot += wa[i] * wb[j];
      i += ((x <= y) as unknown as number) | 0;
      j += ((y <= x) as unknown as number) | 0;
    }
    return dot;
  }

  /**
   * jaccard(a[k], b[k]) for many pairs sorted by their first row (PairCollector's order), to the bit. A
   * first row shared by several pairs is put in a hash set once and each second row probed against it:
   * |B| probes a pair, most turned away by a bit filter in the first-level cache, instead of an
   * |A| + |B| merge; that pays on pairs that share few ids, so pairs for which `mergeWhen(k)` (the
   * caller's guess that they share many) and first rows with one pair take the merge.
   */
  jaccardMany(a: Uint32Array, b: Uint32Array, out: Float32Array, mergeWhen?: (k: number) => boolean): void {
    const set = new RowSet();
    const ids = this.int32Chunks();
    const m = a.length;
    let k = 0;
    while (k < m) {
      const r = a[k];
      let end = k + 1;
      while (end < m && a[end] === r) end++;
      if (end - k === 1) {
        out[k] = this.jaccard(r, b[k]);
        k = end;
        continue;
      }
      const from = this.starts[r];
      const to = this.ends[r];
      set.load(ids[this.chunkOf[r]], from, to);
      for (; k < end; k++) {
        const o = b[k];
        if (mergeWhen?.(k)) {
          out[k] = this.jaccard(r, o);
          continue;
        }
        const s = this.starts[o];
        const e = this.ends[o];
        const union0 = to - from + (e - s);
        const common = union0 === 0 ? 0 : set.common(ids[this.chunkOf[o]], s, e);
        out[k] = union0 === 0 ? 0 : common / (union0 - common);
      }
    }
  }

  /**
   * dot(a[k], b[k]) for many pairs sorted by their first row, to the bit. The ids are first replaced by
   * their ranks among all rows' distinct ids (rankIds: rows stay sorted, so nothing else changes); a
   * first row's weights are then spread into a dense array of the vocabulary's size, and each second
   * row gathers from it: |B| steps without a branch a pair instead of an |A| + |B| merge. The products
   * are added in the second row's ascending order, those of ids the first row lacks being +0: the
   * merge's sum, to the bit.
   */
  dotMany(a: Uint32Array, b: Uint32Array, out: Float32Array): void {
    if (!this.withWeights) throw new Error('SortedRows.dotMany: the rows have no weights');
    const dense = new Float32Array(this.rankIds());
    const ids = this.int32Chunks();
    const m = a.length;
    let k = 0;
    while (k < m) {
      const r = a[k];
      const cr = this.chunkOf[r];
      const ia = ids[cr];
      const wa = this.wChunks[cr];
      const from = this.starts[r];
      const to = this.ends[r];
      for (let i = from; i < to; i++) dense[ia[i]] = wa[i];
      for (; k < m && a[k] === r; k++) {
        const o = b[k];
        const co = this.chunkOf[o];
        const ib = ids[co];
        const wb = this.wChunks[co];
        const e = this.ends[o];
        let dot = 0;
        for (let j = this.starts[o]; j < e; j++) dot += dense[ib[j]] * wb[j];
        out[k] = dot;
      }
      for (let i = from; i < to; i++) dense[ia[i]] = 0;
    }
  }

  /**
   * Replaces every id by its rank among the distinct ids of all rows, so ids index a dense array;
   * each row stays sorted and holds the same entries, so merges and sums are unchanged. Done once
   * (later calls return the count): rows pushed after it would mix the two numberings, so push throws.
   * Returns the number of distinct ids.
   */
  rankIds(): number {
    if (this.distinct >= 0) return this.distinct;
    const chunks = this.int32Chunks();
    const table = new IdTable();
    this.forEachRow(chunks, (c, from, to) => {
      for (let i = from; i < to; i++) table.add(c[i]);
    });
    const distinct = table.rank();
    this.forEachRow(chunks, (c, from, to) => {
      for (let i = from; i < to; i++) c[i] = table.get(c[i]);
    });
    this.distinct = distinct;
    return distinct;
  }

  private forEachRow(chunks: Int32Array[], f: (c: Int32Array, from: number, to: number) => void): void {
    for (let r = 0; r < this.starts.length; r++) f(chunks[this.chunkOf[r]], this.starts[r], this.ends[r]);
  }

  /**
   * The chunks as signed 32-bit views of the same memory: V8 keeps int32 values in registers, while a
   * Uint32Array element ≥ 2³¹ (half the hashes) is read as a double.
   */
  private int32Chunks(): Int32Array[] {
    return this.idChunks.map((c) => new Int32Array(c.buffer, c.byteOffset, c.length));
  }

  /** |A ∩ B| / |A ∪ B| of two rows (0 when both are empty). */
  jaccard(a: number, b: number): number {
    const ia = this.idChunks[this.chunkOf[a]];
    const ib = this.idChunks[this.chunkOf[b]];
    let i = this.starts[a];
    const ie = this.ends[a];
    let j = this.starts[b];
    const je = this.ends[b];
    const union0 = ie - i + (je - j);
    if (union0 === 0) return 0;
    let common = 0;
    // Which row advances is data the processor cannot predict (~half the steps of two similar sets
    // go each way): as booleans turned into 0 or 1 (`| 0`, which V8 compiles to a flag move, where a bare boolean in
    // an addition takes its generic path) the steps compile without that branch, 1.7× faster
    // on long real pages (2,000 pages of the sample's text, 220,000 pairs: 4.1 → 2.4 s in Node).
    while (i < ie && j < je) {
      const x = ia[i];
      const y = ib[j];
      common += ((x === y) as unknown as number) | 0;
      i += ((x <= y) as unknown as number) | 0;
      j += ((y <= x) as unknown as number) | 0;
    }
    return common / (union0 - common);
  }
}

function pow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}
