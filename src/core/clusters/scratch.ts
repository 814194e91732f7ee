/**
 * Reusable typed arrays for the per-move work of a slider (src/core/clusters/view.ts): a move at 1M
 * candidate pairs needs about 10 MB of temporary arrays (adjacency, degree order, accepted pairs), and
 * allocating them anew each move made the garbage collector a sixth of a move's time
 * (`BENCH_PROFILE=1 npm run bench:interaction`). Each name is one buffer, grown when too small; a
 * caller uses what it got before it asks for the same name again and never returns it.
 */
type Typed = Int32Array | Uint32Array | Uint8Array;

const pool = new Map<string, Typed>();

function take<T extends Typed>(name: string, n: number, make: (n: number) => T, zero: boolean): T {
  let buf = pool.get(name) as T | undefined;
  if (!buf || buf.length < n) {
    buf = make(Math.max(n, Math.ceil((buf?.length ?? 0) * 1.25)));
    pool.set(name, buf);
  }
  const out = buf.subarray(0, n) as T;
  if (zero) out.fill(0);
  return out;
}

export const scratchInt32 = (name: string, n: number, zero = true): Int32Array =>
  take(name, n, (m) => new Int32Array(m), zero);
export const scratchUint32 = (name: string, n: number, zero = true): Uint32Array =>
  take(name, n, (m) => new Uint32Array(m), zero);
export const scratchUint8 = (name: string, n: number, zero = true): Uint8Array =>
  take(name, n, (m) => new Uint8Array(m), zero);
