import { hash32 } from '../hash';

/**
 * Bag of words as a sparse vector: word ids (32-bit hashes of the lowercased word, sorted) and their
 * counts. The near-replica paper's D^p, and its precision oracle: cosine of two bags.
 */
export interface SparseVector {
  ids: Uint32Array;
  counts: Float32Array;
  /** Euclidean norm of counts. */
  norm: number;
}

export function bagOfWords(tokens: readonly string[]): SparseVector {
  const h = new Uint32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) h[i] = hash32(tokens[i]);
  h.sort();
  let distinct = 0;
  for (let i = 0; i < h.length; i++) if (i === 0 || h[i] !== h[i - 1]) distinct++;
  const ids = new Uint32Array(distinct);
  const counts = new Float32Array(distinct);
  let k = -1;
  for (let i = 0; i < h.length; i++) {
    if (i === 0 || h[i] !== h[i - 1]) ids[++k] = h[i];
    counts[k]++;
  }
  let sq = 0;
  for (let i = 0; i < counts.length; i++) sq += counts[i] * counts[i];
  return { ids, counts, norm: Math.sqrt(sq) };
}

/** Cosine similarity of two bags (0 when either is empty). */
export function cosine(a: SparseVector, b: SparseVector): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  let i = 0;
  let j = 0;
  let dot = 0;
  while (i < a.ids.length && j < b.ids.length) {
    const x = a.ids[i];
    const y = b.ids[j];
    if (x === y) dot += a.counts[i++] * b.counts[j++];
    else if (x < y) i++;
    else j++;
  }
  return Math.min(1, dot / (a.norm * b.norm));
}
