import { Gunzip, Inflate, inflateSync } from 'fflate';
import { BUDGET, DEFLATE_MAX_RATIO } from './budget';
import { joinBytes } from './bytes';
import { FormatFault } from './errors';

/**
 * Multi-member gzip, as WARC.gz and ARC.gz are written (one member per record, concatenated).
 *
 * Why not DecompressionStream: Chromium's rejects a second member, and one stream per member costs
 * ~0.9 ms of promise overhead (3 s on docsite's 3,380 members, measured) against 0.4 s for the whole
 * file with fflate's synchronous inflate. Why not fflate's streaming Gunzip: 10× slower on small members
 * (measured 3.9 s). So: find member boundaries by the gzip magic, inflate each candidate synchronously,
 * and accept a boundary only when the candidate inflates to its end with the ISIZE its trailer states.
 * A magic inside compressed data only makes a candidate that stops early ("unexpected EOF"), which is
 * then extended to the next magic. Memory is bounded by what a member inflates to, not by its
 * compressed size: a member that inflates past BUDGET.memberBytes (whatever its trailer claims; a 3 MB
 * member can hold 3 GiB of zeros) is inflated as a stream from there on, BUDGET.inflateStep input bytes
 * at a time, and so is a member longer than BUDGET.memberBytes compressed (a whole-file gzip).
 */
const BIG_MEMBER = BUDGET.memberBytes;
const EOF_CODE = 0;
/**
 * Candidates up to this many compressed bytes are inflated in one synchronous call (they cannot
 * inflate past the budget by much); larger ones in steps that stop at the budget.
 */
const SYNC_INFLATE_MAX = Math.floor(BUDGET.memberBytes / DEFLATE_MAX_RATIO);

/** What a native inflater answers for a member that inflates past the bytes it was allowed. */
export const OVER_BUDGET = 'over-budget';

export type MemberSink = (data: Uint8Array, memberOffset: number) => void;

/**
 * The platform's native inflate for one whole candidate gzip member (header to trailer): its data, or
 * null when it refuses the candidate (then the JS path below decides, with its error messages and its
 * handling of damage). Native zlib is 2–3× faster than fflate: docsite's 3,380 members inflate in
 * 0.26 s with Chromium's DecompressionStream against 0.42 s with fflate, and in 0.11 s with Node's
 * zlib against 0.26–0.38 s (measured one member at a time, as here). A result is used only when its
 * length is the ISIZE the candidate's trailer states — the condition the JS path accepts a member on —
 * so both paths cut the stream at the same places and hand on the same bytes.
 */
export type MemberInflater = ((
  member: Uint8Array,
  /** Bytes the member may inflate to: past them, stop and answer OVER_BUDGET. */
  maxBytes: number,
) => NativeAnswer | Promise<NativeAnswer>) & {
  /**
   * Members smaller than this go to fflate (default: none): an inflater with a fixed cost per call is
   * slower than fflate on small members (see streamInflater).
   */
  minBytes?: number;
};

export type NativeAnswer = Uint8Array | null | typeof OVER_BUDGET;

/**
 * DecompressionStream's minBytes: a stream per member has a fixed cost (its construction, a writer, a
 * reader and their promises, and its inflate run outside any JS frame) that fflate's synchronous
 * inflate of a small member does not. The core alone in one Chromium worker, whole reads (bench:ingest's
 * core row), 2026-11: generated 210 MB WARC.gz (response members of 2–5 KiB), medians of 3–4 rounds,
 * 2 KiB 15.0–15.4 s, 4 KiB 15.0, 8 KiB 14.4–15.1, fflate only 14.8; docsite (larger pages), 6 rounds,
 * 0.76 s at 2, 4 and 8 KiB, 0.80 at 16 KiB, fflate only 0.85. (Inflate alone, earlier: generated,
 * fflate 0.73 s, DecompressionStream for every member 0.70 s, from 1 KiB 0.50 s.)
 */
const NATIVE_MIN_BYTES = 8192;

/** Compressed bytes written to a DecompressionStream at once (at most ~33 MB of output each). */
const NATIVE_PIECE = 32 << 10;

/**
 * The web platform's DecompressionStream as a MemberInflater: one stream per member (Chromium's stops
 * after the first member of a multi-member gzip). For browsers; Node's web-streams DecompressionStream
 * is slower than fflate (0.85–1.2 s on docsite), so Node callers pass node:zlib's (src/cli/natives.ts).
 */
export const streamInflater: MemberInflater = Object.assign(
  async (member: Uint8Array, maxBytes: number): Promise<NativeAnswer> => {
    try {
      const ds = new DecompressionStream('gzip');
      const w = ds.writable.getWriter();
      const r = ds.readable.getReader();
      // Fed in pieces, each once the stream is ready for more: Chromium inflates a written chunk whole
      // and queues all it yields (a 3 MB member of zeros: 3 GiB queued), so a piece bounds what is held.
      let stopped = false;
      void (async () => {
        for (let i = 0; i < member.length && !stopped; i += NATIVE_PIECE) {
          await w.ready;
          if (stopped) return;
          await w.write(member.subarray(i, i + NATIVE_PIECE) as Uint8Array<ArrayBuffer>);
        }
        if (!stopped) await w.close();
      })().catch(() => {});
      const parts: Uint8Array[] = [];
      let n = 0;
      for (;;) {
        const { done, value } = await r.read();
        if (done) break;
        parts.push(value);
        n += value.length;
        if (n > maxBytes) {
          stopped = true;
          r.cancel().catch(() => {});
          return OVER_BUDGET;
        }
      }
      return joinBytes(parts);
    } catch {
      return null;
    }
  },
  { minBytes: NATIVE_MIN_BYTES },
);

/** The ISIZE field of the member ending at `end` (its last 4 bytes, little-endian). */
function trailerLength(buf: Uint8Array, end: number): number {
  return (buf[end - 4] | (buf[end - 3] << 8) | (buf[end - 2] << 16) | (buf[end - 1] << 24)) >>> 0;
}

export function isGzip(head: Uint8Array): boolean {
  return head.length >= 3 && head[0] === 0x1f && head[1] === 0x8b && head[2] === 8;
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
      let out = inflateSync(body, { out: new Uint8Array(size + 1) });
      if (out.length > size && size < most) {
        size = most;
        out = inflateSync(body, { out: new Uint8Array(size + 1) });
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
function trueEnd(buf: Uint8Array, at: number, end: number): { data: Uint8Array; end: number } | null {
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

export class MultiGunzip {
  private buf = new Uint8Array(1 << 20);
  private start = 0;
  private end = 0;
  /** Absolute offset of buf[0] in the compressed stream. */
  private base = 0;
  /** Where to look for the next magic, relative to buf. */
  private scanFrom = 1;
  private stream: Gunzip | null = null;
  private streamed = 0;
  /** An exception the sink threw while streaming (kept apart from gzip faults). */
  private sinkFault: unknown = null;
  members = 0;

  constructor(
    private readonly sink: MemberSink,
    offsetBase = 0,
    private readonly native?: MemberInflater,
  ) {
    this.base = offsetBase;
  }

  /** Await each push before the next: with a native inflater, members are inflated asynchronously. */
  async push(chunk: Uint8Array, final: boolean): Promise<void> {
    if (this.stream) {
      this.streamed += chunk.length;
      this.pushStream(chunk, final);
      return;
    }
    this.append(chunk);
    await this.drain(final);
  }

  /**
   * The candidate member [start, end) by the native inflater, when there is one and it accepts it;
   * OVER_BUDGET when it inflates past the member budget.
   */
  private async tryNative(buf: Uint8Array, end: number): Promise<NativeAnswer> {
    if (!this.native || end - this.start < (this.native.minBytes ?? 0)) return null;
    const r = this.native(buf.subarray(this.start, end), BUDGET.memberBytes);
    const data = r instanceof Promise ? await r : r;
    if (data === OVER_BUDGET) return data;
    return data && data.length === trailerLength(buf, end) ? data : null;
  }

  private append(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.buf.length) {
      const live = this.end - this.start;
      if (live + chunk.length <= this.buf.length / 2) {
        this.buf.copyWithin(0, this.start, this.end);
      } else {
        const next = new Uint8Array(Math.max(this.buf.length * 2, live + chunk.length));
        next.set(this.buf.subarray(this.start, this.end));
        this.buf = next;
      }
      this.base += this.start;
      this.scanFrom -= this.start;
      this.end = live;
      this.start = 0;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
  }

  private async drain(final: boolean): Promise<void> {
    const buf = this.buf;
    for (;;) {
      if (this.start === this.end) return;
      const memberAt = this.base + this.start;
      if (!isGzip(buf.subarray(this.start, this.start + 3))) {
        if (this.end - this.start < 3 && !final) return;
        if (buf.subarray(this.start, this.end).every((b) => b === 0)) {
          if (final) this.start = this.end;
          return; // zero padding at the end of some files
        }
        throw new FormatFault(
          'data after a gzip member is not another gzip member (junk or a damaged file)',
          {
            offset: memberAt,
          },
        );
      }
      let p = Math.max(this.scanFrom, this.start + 18);
      let done = false;
      while (!done) {
        const next = findMagic(buf, p, this.end);
        if (next < 0) break;
        const fast = this.native ? await this.tryNative(buf, next) : null;
        if (fast === OVER_BUDGET) return this.startStreaming(memberAt, final);
        if (fast) {
          this.emit(fast, memberAt, next);
          done = true;
          break;
        }
        const tried = inflateMember(buf, this.start, next);
        if (!tried.ok && tried.overBudget) return this.startStreaming(memberAt, final);
        const fixed = !tried.ok && tried.lengthMismatch ? trueEnd(buf, this.start, next) : null;
        if (tried.ok) {
          this.emit(tried.data, memberAt, next);
          done = true;
        } else if (fixed) {
          this.emit(fixed.data, memberAt, fixed.end);
          done = true;
        } else if (!tried.eof) {
          throw new FormatFault(`corrupt gzip member: ${tried.reason}`, { offset: memberAt });
        } else p = next + 1;
      }
      if (done) continue;
      // A magic is recognised with 4 bytes in hand: rescan the last 3, which may start one.
      this.scanFrom = Math.max(this.start + 18, this.end - 3);
      if (final) {
        const fast = this.native ? await this.tryNative(buf, this.end) : null;
        if (fast === OVER_BUDGET) return this.startStreaming(memberAt, final);
        if (fast) {
          this.emit(fast, memberAt, this.end);
          continue;
        }
        const tried = inflateMember(buf, this.start, this.end);
        if (!tried.ok && tried.overBudget) return this.startStreaming(memberAt, final);
        if (tried.ok) {
          this.emit(tried.data, memberAt, this.end);
          continue;
        }
        const fixed = tried.lengthMismatch ? trueEnd(buf, this.start, this.end) : null;
        if (fixed) {
          this.emit(fixed.data, memberAt, fixed.end);
          continue;
        }
        if (!tried.eof) throw new FormatFault(`corrupt gzip member: ${tried.reason}`, { offset: memberAt });
        // A file cut short: what the cut member does inflate still holds whole records (for a whole-file
        // gzip, all but the last): hand them on, as lenient readers (warcio) do, then report the cut.
        const partial = inflatePrefix(buf, this.start, this.end);
        if (partial.length > 0) this.emit(partial, memberAt, this.end);
        throw new FormatFault(
          `truncated gzip: the last member ends before its compressed data does (file cut short?)${partial.length > 0 ? `; the ${partial.length.toLocaleString('en-US')} bytes it inflates to were read` : ''}`,
          { offset: memberAt },
        );
      }
      if (this.end - this.start > BIG_MEMBER) this.startStreaming(memberAt, false);
      return;
    }
  }

  private emit(data: Uint8Array, memberAt: number, nextStart: number): void {
    this.members++;
    this.start = nextStart;
    this.scanFrom = nextStart + 18;
    this.sink(data, memberAt);
  }

  /**
   * A member too large to buffer or to inflate whole: inflate it and everything after it as a stream
   * (`final`: the input has ended).
   */
  private startStreaming(memberAt: number, final: boolean): void {
    const rest = this.buf.slice(this.start, this.end);
    this.buf = new Uint8Array(0);
    this.start = this.end = 0;
    let current = memberAt;
    this.streamed = rest.length;
    const origin = memberAt;
    this.members++; // the big member itself; onmember reports the ones after it
    this.stream = new Gunzip((data) => {
      try {
        this.sink(data, current);
      } catch (e) {
        // The reader's own fault (or the sniff's), not the gzip data's: passed on as it is.
        this.sinkFault = e;
        throw e;
      }
    });
    this.stream.onmember = (offset) => {
      this.members++;
      current = origin + offset;
    };
    this.pushStream(rest, final);
  }

  /** Input in steps of BUDGET.inflateStep: what one step inflates to is handed on before the next. */
  private pushStream(chunk: Uint8Array, final: boolean): void {
    try {
      for (let i = 0; i < chunk.length; i += BUDGET.inflateStep) {
        const end = Math.min(chunk.length, i + BUDGET.inflateStep);
        this.stream!.push(chunk.subarray(i, end), final && end === chunk.length);
      }
      if (final && chunk.length === 0) this.stream!.push(chunk, true);
    } catch (e) {
      if (e === this.sinkFault) throw e;
      throw new FormatFault(`corrupt or truncated gzip data: ${(e as Error).message}`, {
        offset: this.base + this.streamed,
      });
    }
  }
}

/** What the deflate data of a member cut short inflates to, up to the cut (empty when nothing does). */
function inflatePrefix(buf: Uint8Array, at: number, end: number): Uint8Array {
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

function findMagic(buf: Uint8Array, from: number, end: number): number {
  let i = buf.indexOf(0x1f, from);
  while (i >= 0 && i + 3 < end) {
    // FLG's reserved bits (5–7) must be zero: rules out most false magics cheaply.
    if (buf[i + 1] === 0x8b && buf[i + 2] === 8 && (buf[i + 3] & 0xe0) === 0) return i;
    i = buf.indexOf(0x1f, i + 1);
  }
  return -1;
}
