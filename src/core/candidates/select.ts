/**
 * The k-th smallest value of an array (0-based), as `a.slice().sort()[k]` gives it, in linear expected
 * time: Hoare's quickselect with a median-of-three pivot, partitioning `a` in place. The engine's
 * distance quantiles (estimateD over 2,000 points is 2M distances) took a full sort for one value.
 * Values must not be NaN (the distances never are).
 */
export function kthSmallest(a: Float32Array, k: number): number {
  if (!(k >= 0 && k < a.length)) throw new RangeError(`kthSmallest: k = ${k} outside [0, ${a.length})`);
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot value: sorted runs and runs of equal values stay linear.
    const x = a[lo];
    const y = a[mid];
    const z = a[hi];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    // [lo, j] ≤ pivot ≤ [i, hi]; between them, values equal to the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}
