import { joinBytes } from '../bytes';

/**
 * A gzip member inflated by the platform, for gzip.ts when it is given one: the inflater's type, and
 * DecompressionStream's.
 */

/** What a native inflater answers for a member that inflates past the bytes it was allowed. */
export const OVER_BUDGET = 'over-budget';

/**
 * The platform's native inflate for one whole candidate gzip member (header to trailer): its data, or
 * null when it refuses the candidate (then the JS path of gzip.ts decides, with its error messages and its
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
