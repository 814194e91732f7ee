import { Gunzip } from 'fflate';
import { BUDGET } from './budget';
import { FormatFault } from '../format-fault';
import { findMagic, inflateMember, inflatePrefix, trailerLength, trueEnd } from './gzip-member';
import { OVER_BUDGET, type MemberInflater, type NativeAnswer } from './gzip-native';

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

export type MemberSink = (data: Uint8Array, memberOffset: number) => void;

/**
 * A damaged span read past: compressed offsets [from, to), why, and the bytes the damaged member did
 * inflate to before its damage (handed on: they may hold whole records). `to` is where the next member
 * that inflates whole begins, or the end of the file.
 */
export type SkipSink = (from: number, to: number, reason: string, salvaged: number) => void;

export function isGzip(head: Uint8Array): boolean {
  return head.length >= 3 && head[0] === 0x1f && head[1] === 0x8b && head[2] === 8;
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

  /**
   * How far past a member's start the next one may begin: 18 bytes (header and trailer) for a whole
   * member; when damage is read past, a member cut short may be shorter, so every byte is looked at.
   */
  private get minMember(): number {
    return this.onSkip ? 1 : 18;
  }

  /** A damaged span being read past (with onSkip): where it began, why, what it inflated to. */
  private skipping: { from: number; reason: string; salvaged: number } | null = null;

  constructor(
    private readonly sink: MemberSink,
    offsetBase = 0,
    private readonly native?: MemberInflater,
    /**
     * With it, damage does not end the read: after a corrupt member or junk between members, reading
     * resumes at the next member that inflates whole (warcio and `gzip -d` read past damage the same
     * way), and each span skipped is reported here once reading resumes (or the file ends). Without
     * it, damage is a FormatFault.
     */
    private readonly onSkip?: SkipSink,
  ) {
    this.base = offsetBase;
  }

  /**
   * Damage at the head of the buffer, read past (onSkip given): the span opens (or grows), what the
   * damaged member inflates to before the damage is handed on, and the search moves to the next magic.
   * Returns false to wait for more input (no magic in hand yet).
   */
  private skipDamage(reason: string, final: boolean, salvage: boolean, resumeAt = -1): boolean {
    const at = this.base + this.start;
    if (!this.skipping) this.skipping = { from: at, reason, salvaged: 0 };
    if (salvage) {
      const next = resumeAt >= 0 ? resumeAt : findMagic(this.buf, this.start + 18, this.end);
      const partial = inflatePrefix(this.buf, this.start, next < 0 ? this.end : next);
      if (partial.length > 0) {
        this.skipping.salvaged += partial.length;
        this.sink(partial, at);
      }
    }
    const next = resumeAt >= 0 ? resumeAt : findMagic(this.buf, this.start + 1, this.end);
    if (next >= 0) {
      this.start = next;
      this.scanFrom = next + this.minMember;
      return true;
    }
    if (final) {
      this.start = this.end;
      this.closeSkip(this.base + this.end);
      return false;
    }
    // Keep the last 3 bytes: a magic may begin there.
    this.start = Math.max(this.start, this.end - 3);
    this.scanFrom = this.start + this.minMember;
    return false;
  }

  /**
   * Whether a whole member starts at q (it inflates to the next magic, or to the end of the input,
   * with the length its trailer states); null when that cannot be told before more input comes.
   */
  private wholeMemberAt(q: number, final: boolean): boolean | null {
    const m = findMagic(this.buf, q + 18, this.end);
    const to = m >= 0 ? m : final ? this.end : -1;
    if (to < 0) return this.end - q > BIG_MEMBER ? false : null;
    const t = inflateMember(this.buf, q, to);
    // A whole member followed by junk: it ends before the next magic (trueEnd finds where).
    return t.ok || (!!t.lengthMismatch && trueEnd(this.buf, q, to) !== null);
  }

  private closeSkip(to: number): void {
    const s = this.skipping;
    if (!s) return;
    this.skipping = null;
    this.onSkip?.(s.from, to, s.reason, s.salvaged);
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
          if (final) {
            this.start = this.end;
            this.closeSkip(this.base + this.end);
          }
          return; // zero padding at the end of some files
        }
        if (this.onSkip) {
          if (
            this.skipDamage(
              'data between gzip members that is not a gzip member (junk or damage)',
              final,
              false,
            )
          )
            continue;
          return;
        }
        throw new FormatFault(
          'data after a gzip member is not another gzip member (junk or a damaged file)',
          {
            offset: memberAt,
          },
        );
      }
      let p = Math.max(this.scanFrom, this.start + this.minMember);
      let done = false;
      let corrupt: string | null = null;
      /** Where the damaged member was cut and the next one begins (-1: search for it). */
      let resumeAt = -1;
      /** A magic not yet judged (the member after it is not all in hand): wait for more input. */
      let wait = -1;
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
          if (!this.onSkip)
            throw new FormatFault(`corrupt gzip member: ${tried.reason}`, { offset: memberAt });
          corrupt = tried.reason;
          break;
        } else if (this.onSkip) {
          // The member runs on past this magic — or it was cut short and the magic opens the next
          // member: then that member inflates whole (a magic inside compressed data does not).
          const whole = this.wholeMemberAt(next, final);
          if (whole === null) {
            wait = next;
            break;
          }
          if (whole) {
            corrupt = 'cut short: the next member begins before its compressed data ends';
            resumeAt = next;
            break;
          }
          p = next + 1;
        } else p = next + 1;
      }
      if (done) continue;
      if (corrupt !== null) {
        if (this.skipDamage(`corrupt gzip member (${corrupt})`, final, true, resumeAt)) continue;
        return;
      }
      if (wait >= 0) {
        this.scanFrom = wait;
        return;
      }
      // A magic is recognised with 4 bytes in hand: rescan the last 3, which may start one.
      this.scanFrom = Math.max(this.start + this.minMember, this.end - 3);
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
        if (!tried.eof) {
          if (!this.onSkip)
            throw new FormatFault(`corrupt gzip member: ${tried.reason}`, { offset: memberAt });
          if (this.skipDamage(`corrupt gzip member (${tried.reason})`, final, true)) continue;
          return;
        }
        // A file cut short: what the cut member does inflate still holds whole records (for a whole-file
        // gzip, all but the last): hand them on, as lenient readers (warcio) do, then report the cut.
        this.closeSkip(memberAt);
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
    this.closeSkip(memberAt);
    this.members++;
    this.start = nextStart;
    this.scanFrom = nextStart + this.minMember;
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
