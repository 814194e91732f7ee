/**
 * (C, D) collisions without all pairs (Di Iorio et al. §2: "appropriate index structures for
 * multidimensional data … R-trees"). Grid hashing on the first G ≤ 3 of the K dimensions, cells of
 * side `side`: two points with ‖a − b‖∞ < side lie in the same or adjacent cells of that grid, so each
 * occupied cell is compared with itself and its forward neighbours (13 in 3-D), and every candidate is
 * checked in all K dimensions.
 *
 * Why a grid and not an R-tree or kd-tree: every point asks the same fixed-radius L∞ query, which a
 * grid answers with a few hash lookups per occupied cell and no tree walk. Why only 3 of the 5
 * dimensions: 3^5 = 243 neighbour cells per cell cost more lookups than the extra pruning saves
 * (measured by `npm run bench:signatures`: grid on all 5 dimensions was 16× faster than all pairs at
 * 20k pages, on 3 dimensions it is much more).
 */
export function linfPairs(points: Float32Array, n: number, K: number, side: number): Uint32Array {
  if (n < 2 || side <= 0) return new Uint32Array(0);
  const G = Math.min(K, 3);
  let lo = Infinity;
  let hi = -Infinity;
  for (let p = 0; p < n; p++) {
    for (let j = 0; j < G; j++) {
      lo = Math.min(lo, points[p * K + j]);
      hi = Math.max(hi, points[p * K + j]);
    }
  }
  const B = Math.floor((hi - lo) / side) + 3;
  if (B ** G >= 2 ** 31) return linfPairsBrute(points, n, K, side);
  // Cell key of every point; points sorted by key so a cell is a run of the order array.
  const packed = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    let key = 0;
    for (let j = G - 1; j >= 0; j--) key = key * B + (Math.floor((points[p * K + j] - lo) / side) + 1);
    packed[p] = key * 2 ** 21 + p;
  }
  packed.sort();
  const order = new Uint32Array(n);
  // Cell key → index of the cell among the occupied ones: a flat table when the grid is small enough
  // (the usual case: 3 dimensions of ≤ 100 cells), else a Map.
  const dense = B ** G <= 1 << 22 ? new Int32Array(B ** G).fill(-1) : null;
  const sparse = dense ? null : new Map<number, number>();
  const keys: number[] = [];
  const starts: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = Math.floor(packed[i] / 2 ** 21);
    order[i] = packed[i] % 2 ** 21;
    if (i === 0 || key !== Math.floor(packed[i - 1] / 2 ** 21)) {
      if (dense) dense[key] = keys.length;
      else sparse!.set(key, keys.length);
      keys.push(key);
      starts.push(i);
    }
  }
  starts.push(n);
  // Forward neighbour deltas: offsets in {−1, 0, 1}^G whose first non-zero component is positive.
  const deltas: number[] = [];
  for (let m = 0; m < 3 ** G; m++) {
    let x = m;
    let delta = 0;
    let first = 0;
    let scale = 1;
    for (let j = 0; j < G; j++) {
      const o = (x % 3) - 1;
      x = Math.floor(x / 3);
      if (first === 0) first = o;
      delta += o * scale;
      scale *= B;
    }
    if (first > 0) deltas.push(delta);
  }
  // Coordinates in cell order: the pair checks below walk memory sequentially.
  const pts = new Float32Array(n * K);
  for (let i = 0; i < n; i++) for (let j = 0; j < K; j++) pts[i * K + j] = points[order[i] * K + j];
  const out = new PairBuffer();
  const cells = B ** G;
  const nd = deltas.length;
  for (let c = 0; c < keys.length; c++) {
    const s0 = starts[c];
    const e0 = starts[c + 1];
    for (let t = -1; t < nd; t++) {
      // t = −1: the cell with itself; else its t-th forward neighbour.
      let s1 = s0;
      let e1 = e0;
      if (t >= 0) {
        const nk = keys[c] + deltas[t];
        const other = nk < cells ? (dense ? dense[nk] : (sparse!.get(nk) ?? -1)) : -1;
        if (other < 0) continue;
        s1 = starts[other];
        e1 = starts[other + 1];
      }
      for (let x = s0; x < e0; x++) {
        const xo = x * K;
        for (let y = t < 0 ? x + 1 : s1; y < e1; y++) {
          const yo = y * K;
          let j = 0;
          while (j < K && Math.abs(pts[xo + j] - pts[yo + j]) < side) j++;
          if (j === K) out.push(order[x], order[y]);
        }
      }
    }
  }
  return out.result();
}

/** The all-pairs reference (tests and the benchmark's baseline). */
export function linfPairsBrute(points: Float32Array, n: number, K: number, side: number): Uint32Array {
  const out: number[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      let ok = true;
      for (let j = 0; j < K && ok; j++)
        if (Math.abs(points[a * K + j] - points[b * K + j]) >= side) ok = false;
      if (ok) out.push(a, b);
    }
  }
  return Uint32Array.from(out);
}

/** Growable flat list of pairs (i < j). */
class PairBuffer {
  private buf = new Uint32Array(1024);
  private len = 0;

  push(a: number, b: number): void {
    if (this.len + 2 > this.buf.length) {
      const next = new Uint32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.len++] = a < b ? a : b;
    this.buf[this.len++] = a < b ? b : a;
  }

  result(): Uint32Array {
    return this.buf.slice(0, this.len);
  }
}
