import { Inflate, inflateSync } from 'fflate';
import { BUDGET, DEFLATE_MAX_RATIO } from './budget';
import { joinBytes } from '../bytes';
import { inflateSmall } from './inflate-small';

/**
 * One gzip member of a multi-member stream (gzip.ts): its header and trailer, its deflate data inflated
 * within a budget, where it really ends before padding, what a member cut short inflates to, and where
 * the next member's magic is.
 */
const EOF_CODE = 0;
/**
 * Candidates up to this many compressed bytes are inflated in one synchronous call (they cannot
 * inflate past the budget by much); larger ones in steps that stop at the budget.
 */
const SYNC_INFLATE_MAX = Math.floor(BUDGET.memberBytes / DEFLATE_MAX_RATIO);

/**
 * Output buffers of small members are cut from shared slabs: one ArrayBuffer for many members instead of
 * one each (the generated crawl's 140k members of 2–5 KiB made as many ArrayBuffers for the worker's GC
 * to sweep). A slab lives as long as any view of it does; the views are short-lived (a record's bytes
 * until its page is built).
 */
const SLAB = 1 << 20;
let slab = new Uint8Array(0);
let slabAt = 0;

function outBuffer(n: number): Uint8Array {
  if (n > SLAB >> 3) return new Uint8Array(n);
  if (slabAt + n > slab.length) {
    slab = new Uint8Array(SLAB);
    slabAt = 0;
  }
  const b = slab.subarray(slabAt, slabAt + n);
  slabAt += n;
  return b;
}

/** The ISIZE field of the member ending at `end` (its last 4 bytes, little-endian). */
export function trailerLength(buf: Uint8Array, end: number): number {
  return (buf[end - 4] | (buf[end - 3] << 8) | (buf[end - 2] << 16) | (buf[end - 1] << 24)) >>> 0;
}

/** Offset of the deflate data in a gzip member, or -1 when the header is not complete in `buf`. */
function headerLength(buf: Uint8Array, at: number, end: number): number {
  if (end - at < 10) return -1;
  const flg = buf[at + 3];
  let p = at + 10;
  if (flg & 4) {
    if (end - p < 2) return -1;
    p += 2 + (buf[p] | (buf[p + 1] << 8));
  }
  for (const bit of [8, 16]) {
    if (flg & bit) {
      const z = buf.indexOf(0, p);
      if (z < 0 || z >= end) return -1;
      p = z + 1;
    }
  }
  if (flg & 2) p += 2;
  return p <= end ? p - at : -1;
}

export type Attempt =
  | { ok: true; data: Uint8Array }
  | { ok: false; eof: boolean; reason: string; lengthMismatch?: boolean; overBudget?: boolean };

/**
 * `body` inflated into `out` (a view of it; a stream longer than `out` gives all of `out`): by
 * inflateSmall, and by fflate when inflateSmall answers null — a damaged or cut stream, which fflate
 * reads as far as it can or words the error of.
 */
function inflateInto(body: Uint8Array, out: Uint8Array): Uint8Array {
  return inflateSmall(body, out) ?? inflateSync(body, { out });
}

/**
 * Deflate data inflated up to `limit` bytes: its data, 'over' once it inflates past them (it stops
 * there), or the fault (eof: the data stops before the deflate stream does). Small inputs in one call
 * (bounded by the output buffer), larger ones in steps that stop at the limit.
 */
function boundedInflate(
  body: Uint8Array,
  limit: number,
  expected: number,
): { data: Uint8Array } | 'over' | { eof: boolean; reason: string } {
  try {
    if (body.length <= SYNC_INFLATE_MAX) {
      // The expected length (the trailer's) lets inflate write into a buffer of the final size; one
      // byte more detects overflow, and fflate does not grow a buffer it is given: memory stays
      // bounded. On overflow, once more with the most this input can inflate to, within the limit.
      const most = Math.min(limit, body.length * DEFLATE_MAX_RATIO + 1024);
      let size = Math.min(expected, most);
      let out = inflateInto(body, outBuffer(size + 1));
      if (out.length > size && size < most) {
        size = most;
        out = inflateInto(body, outBuffer(size + 1));
      }
      if (out.length > limit) return 'over';
      return { data: out };
    }
    const parts: Uint8Array[] = [];
    let n = 0;
    let over = false;
    let ended = false;
    const inflate = new Inflate((d, final) => {
      n += d.length;
      if (n > limit) over = true;
      else parts.push(d);
      if (final) ended = true;
    });
    for (let i = 0; i < body.length && !over; i += BUDGET.inflateStep) {
      const end = Math.min(body.length, i + BUDGET.inflateStep);
      inflate.push(body.subarray(i, end), end === body.length);
    }
    if (over) return 'over';
    if (!ended) return { eof: true, reason: 'unexpected end of data' };
    return { data: joinBytes(parts) };
  } catch (e) {
    const code = (e as { code?: number }).code;
    if (code === EOF_CODE || e instanceof RangeError) return { eof: true, reason: 'unexpected end of data' };
    return { eof: false, reason: (e as Error).message || 'invalid deflate data' };
  }
}

export function inflateMember(buf: Uint8Array, at: number, end: number, limit = BUDGET.memberBytes): Attempt {
  const hl = headerLength(buf, at, end);
  if (hl < 0 || end - at < hl + 8)
    return { ok: false, eof: true, reason: 'member header or trailer incomplete' };
  const body = buf.subarray(at + hl, end - 8);
  const isize = trailerLength(buf, end);
  const got = boundedInflate(body, limit, isize);
  if (got === 'over')
    return { ok: false, eof: false, reason: 'inflates past the member budget', overBudget: true };
  if (!('data' in got)) return { ok: false, ...got };
  if (got.data.length !== isize) {
    return {
      ok: false,
      eof: false,
      reason: 'length in the gzip trailer does not match',
      lengthMismatch: true,
    };
  }
  return { ok: true, data: got.data };
}

/**
 * A member that inflated whole but whose "trailer" did not state its length is followed by something
 * that is not a member (zero padding, junk): find where it really ends — the first position after the
 * deflate data whose preceding 4 bytes are the inflated length.
 */
export function trueEnd(buf: Uint8Array, at: number, end: number): { data: Uint8Array; end: number } | null {
  const hl = headerLength(buf, at, end);
  if (hl < 0) return null;
  const got = boundedInflate(buf.subarray(at + hl, end), BUDGET.memberBytes, BUDGET.memberBytes);
  if (got === 'over' || !('data' in got)) return null;
  const data = got.data;
  const n = data.length >>> 0;
  for (let e = at + hl + 10; e <= end; e++) {
    if (trailerLength(buf, e) === n) return { data, end: e };
  }
  return null;
}

/** What the deflate data of a member cut short inflates to, up to the cut (empty when nothing does). */
export function inflatePrefix(buf: Uint8Array, at: number, end: number): Uint8Array {
  const hl = headerLength(buf, at, end);
  if (hl < 0) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let n = 0;
  const inflate = new Inflate((d) => {
    n += d.length;
    if (n <= BUDGET.memberBytes) parts.push(d);
  });
  try {
    // In steps, up to the budget: the cut member may be a bomb too.
    for (let i = at + hl; i < end && n <= BUDGET.memberBytes; i += BUDGET.inflateStep)
      inflate.push(buf.subarray(i, Math.min(end, i + BUDGET.inflateStep)), false);
  } catch {
    // corrupt before the cut: keep what came out before the damage
  }
  return joinBytes(parts);
}

export function findMagic(buf: Uint8Array, from: number, end: number): number {
  let i = buf.indexOf(0x1f, from);
  while (i >= 0 && i + 3 < end) {
    // FLG's reserved bits (5–7) must be zero: rules out most false magics cheaply.
    if (buf[i + 1] === 0x8b && buf[i + 2] === 8 && (buf[i + 3] & 0xe0) === 0) return i;
    i = buf.indexOf(0x1f, i + 1);
  }
  return -1;
}
