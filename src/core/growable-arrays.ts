/** Typed arrays grown as entries are added (the signature engine keeps its signatures in them). */

/** A growable array's next length for n entries: a quarter more (its slack stays ≤ 25%, not 100%). */
export function roomFor(n: number): number {
  return Math.max(1024, Math.ceil(n * 1.25));
}

export function grow(a: Float64Array, n: number): Float64Array {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}
export function growU32(a: Uint32Array, n: number): Uint32Array {
  const b = new Uint32Array(n);
  b.set(a);
  return b;
}
