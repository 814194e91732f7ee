/**
 * (C, D) collisions without all pairs (Di Iorio et al. §2: "appropriate index structures for
 * multidimensional data … R-trees"). Grid hashing: K-dimensional cells of side `side`; two points with
 * ‖a − b‖∞ < side lie in the same or adjacent cells, so each point is compared with the points of its
 * own cell and of the 3^K − 1 neighbours (half of them, to see each pair once).
 *
 * Why a grid and not an R-tree or kd-tree: the query is a fixed-radius L∞ range for every point at
 * one radius (the slider maximum), which a grid answers with O(1) cell lookups and no tree walk;
 * measured against all pairs by `npm run bench:signatures`.
 */
export function linfPairs(points: Float32Array, n: number, K: number, side: number): Uint32Array {
  if (n < 2 || side <= 0) return new Uint32Array(0);
  // A cell is keyed by one number: Σ (c_j + 1)·B^j with B cells per dimension plus a margin, so a
  // neighbour's key is the cell's key plus a precomputed delta (no string keys in the hot loop).
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n * K; i++) {
    lo = Math.min(lo, points[i]);
    hi = Math.max(hi, points[i]);
  }
  const B = Math.floor((hi - lo) / side) + 3;
  if (B ** K >= Number.MAX_SAFE_INTEGER) return linfPairsBrute(points, n, K, side);
  const cells = new Map<number, number[]>();
  for (let p = 0; p < n; p++) {
    let key = 0;
    for (let j = K - 1; j >= 0; j--) key = key * B + (Math.floor((points[p * K + j] - lo) / side) + 1);
    let list = cells.get(key);
    if (!list) cells.set(key, (list = []));
    list.push(p);
  }
  // Neighbour deltas for offsets in {−1, 0, 1}^K, the lexicographically positive half (0 apart).
  const deltas: number[] = [];
  for (let m = 0; m < 3 ** K; m++) {
    let x = m;
    let delta = 0;
    let first = 0;
    let scale = 1;
    for (let j = 0; j < K; j++) {
      const o = (x % 3) - 1;
      x = Math.floor(x / 3);
      if (first === 0) first = o;
      delta += o * scale;
      scale *= B;
    }
    if (first > 0) deltas.push(delta);
  }
  const out: number[] = [];
  const close = (a: number, b: number) => {
    for (let j = 0; j < K; j++) if (Math.abs(points[a * K + j] - points[b * K + j]) >= side) return false;
    return true;
  };
  for (const [key, members] of cells) {
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++) {
        if (close(members[x], members[y]))
          out.push(Math.min(members[x], members[y]), Math.max(members[x], members[y]));
      }
    }
    for (const d of deltas) {
      const other = cells.get(key + d);
      if (!other) continue;
      for (const a of members) {
        for (const b of other) if (close(a, b)) out.push(Math.min(a, b), Math.max(a, b));
      }
    }
  }
  return Uint32Array.from(out);
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
