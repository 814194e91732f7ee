/**
 * Every candidate pair once, with all its measures, in typed arrays: moving a threshold only re-reads
 * these columns, never recomputes a signature.
 */
export interface PairTable {
  count: number;
  a: Uint32Array;
  b: Uint32Array;
  /** ‖R_a − R_b‖∞ (RP signatures). */
  dR: Float32Array;
  /** ‖X_a − X_b‖∞ (Hyperlink Map signatures). */
  dX: Float32Array;
  /** Cosine of the bags of words (the near-replica paper's precision oracle). */
  cosine: Float32Array;
  /** Jaccard of the shingle sets estimated from MinHash, and exact. */
  jaccardEst: Float32Array;
  jaccard: Float32Array;
  /** Feature codes match (LCS ≥ 2L − tolerance): 1, do not: 0, a page has no code: 2. */
  fcMatch: Uint8Array;
  /** longer / shorter body length (feature-code paper §3.2). */
  lengthRatio: Float32Array;
  /** Hamming distance of the 64-bit SimHashes. */
  simhash: Uint8Array;
  /** Same exact fingerprint of the normalised text. */
  exact: Uint8Array;
  /** Which candidate generators proposed the pair (bits of SOURCE). */
  sources: Uint8Array;
}

export const SOURCE = { rpGrid: 1, exact: 2, featureCode: 4, lsh: 8, simhash: 16 } as const;

/** Packs (i, j), i < j < 2^21, in one double for de-duplication by sorting. */
export function packPair(i: number, j: number): number {
  return i < j ? i * 2 ** 21 + j : j * 2 ** 21 + i;
}

/** Collects candidate pairs from several generators, each pair once with the union of its sources. */
export class PairCollector {
  /** (packPair · 32 + source) in doubles: sorting groups a pair's entries together. */
  private buf = new Float64Array(1024);
  private len = 0;

  add(flat: ArrayLike<number>, source: number): void {
    const need = this.len + (flat.length >> 1);
    if (need > this.buf.length) {
      const next = new Float64Array(Math.max(need, this.buf.length * 2));
      next.set(this.buf.subarray(0, this.len));
      this.buf = next;
    }
    for (let k = 0; k + 1 < flat.length; k += 2) {
      if (flat[k] === flat[k + 1]) continue;
      this.buf[this.len++] = packPair(flat[k], flat[k + 1]) * 32 + source;
    }
  }

  /** Unique pairs sorted by (a, b), with OR-ed sources. */
  finish(): { a: Uint32Array; b: Uint32Array; sources: Uint8Array } {
    const v = this.buf.subarray(0, this.len).sort();
    let unique = 0;
    for (let i = 0; i < v.length; i++)
      if (i === 0 || Math.floor(v[i] / 32) !== Math.floor(v[i - 1] / 32)) unique++;
    const a = new Uint32Array(unique);
    const b = new Uint32Array(unique);
    const sources = new Uint8Array(unique);
    let k = -1;
    let last = -1;
    for (let i = 0; i < v.length; i++) {
      const key = Math.floor(v[i] / 32);
      if (key !== last) {
        k++;
        last = key;
        a[k] = Math.floor(key / 2 ** 21);
        b[k] = key % 2 ** 21;
      }
      sources[k] |= v[i] % 32;
    }
    return { a, b, sources };
  }
}
