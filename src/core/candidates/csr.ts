/**
 * Per-page sorted id lists in one growable typed array (compressed sparse rows), so the measures of a
 * million candidate pairs merge flat memory instead of chasing one object per page.
 */
export class SortedRows {
  ids = new Uint32Array(1 << 16);
  weights: Float32Array | null;
  offsets: number[] = [0];

  constructor(withWeights: boolean) {
    this.weights = withWeights ? new Float32Array(1 << 16) : null;
  }

  push(ids: Uint32Array, weights?: Float32Array, scale = 1): void {
    const at = this.offsets[this.offsets.length - 1];
    const need = at + ids.length;
    if (need > this.ids.length) {
      const size = Math.max(need, this.ids.length * 2);
      const nextIds = new Uint32Array(size);
      nextIds.set(this.ids.subarray(0, at));
      this.ids = nextIds;
      if (this.weights) {
        const nextW = new Float32Array(size);
        nextW.set(this.weights.subarray(0, at));
        this.weights = nextW;
      }
    }
    this.ids.set(ids, at);
    if (this.weights && weights)
      for (let k = 0; k < ids.length; k++) this.weights[at + k] = weights[k] * scale;
    this.offsets.push(need);
  }

  /** Σ w_a·w_b over common ids (the cosine when rows hold unit-length weights). */
  dot(a: number, b: number): number {
    const ids = this.ids;
    const w = this.weights!;
    let i = this.offsets[a];
    const ie = this.offsets[a + 1];
    let j = this.offsets[b];
    const je = this.offsets[b + 1];
    let dot = 0;
    while (i < ie && j < je) {
      const x = ids[i];
      const y = ids[j];
      if (x === y) dot += w[i++] * w[j++];
      else if (x < y) i++;
      else j++;
    }
    return dot;
  }

  /** |A ∩ B| / |A ∪ B| of two rows (0 when both are empty). */
  jaccard(a: number, b: number): number {
    const ids = this.ids;
    let i = this.offsets[a];
    const ie = this.offsets[a + 1];
    let j = this.offsets[b];
    const je = this.offsets[b + 1];
    const union0 = ie - i + (je - j);
    if (union0 === 0) return 0;
    let common = 0;
    while (i < ie && j < je) {
      const x = ids[i];
      const y = ids[j];
      if (x === y) {
        common++;
        i++;
        j++;
      } else if (x < y) i++;
      else j++;
    }
    return common / (union0 - common);
  }
}
