import { BUDGET, mib } from '../codecs/budget';
import { findHeaderEnd } from './bytes';
import { FormatFault } from './errors';
import { snippet } from './snippet';
import {
  afterBlankLine,
  blockEndBefore,
  firstRecordStart,
  isVersionLine,
  nearestRecordStart,
  RESYNC_WINDOW,
  startsWithWarc,
  tailOf,
  trimBreaks,
} from './warc-boundaries';
import { MAX_BLOCK, readRecordHeader } from './warc-record';
import { WarcRecovery } from './warc-recovery';

const MAX_HEADER = BUDGET.headerBytes;

/**
 * A push parser: feed decoded bytes in any pieces; every complete record is handed to `onRecord`
 * synchronously. A Content-Length that does not land on the record's closing blank line is read past
 * with a warning: the parser finds the next record where it starts (warc-recovery.ts).
 */
export class WarcParser extends WarcRecovery {
  private skipping = 0;
  /** The record being skipped (over the record budget), for messages; its last bytes read. */
  private skipped: { length: number; offset: number; tail: Uint8Array } | null = null;
  /** Source offset of the last chunk pushed: a new one is a new gzip member. */
  private lastSource = -1;

  push(chunk: Uint8Array, sourceOffset: number): void {
    const newMember = sourceOffset !== this.lastSource;
    this.lastSource = sourceOffset;
    this.map.add(chunk.length, sourceOffset);
    if (this.skipping > 0) {
      // A length over the budget is not trusted blindly either: a record header inside the bytes it
      // claims (at a gzip member's start, or after a blank line) means it is wrong; read on from there.
      const k = this.recordStartWhileSkipping(chunk, newMember);
      const n = Math.min(this.skipping, k >= 0 ? k : chunk.length);
      if (k >= 0 && k < this.skipping) {
        const sk = this.skipped!;
        this.warn(
          'length-off',
          `the record's Content-Length (${sk.length}) runs past the next record header (at ${this.map.toSource(this.q.offset + k)}): read on from there`,
          sk.offset,
        );
        this.skipping = 0;
      } else this.skipping -= n;
      if (this.skipped) this.skipped.tail = tailOf(this.skipped.tail, chunk.subarray(0, n));
      this.q.offset += n;
      chunk = chunk.subarray(n);
    }
    this.q.append(chunk);
    this.parse();
  }

  /** Where a record header starts in a chunk being skipped, or -1. */
  private recordStartWhileSkipping(chunk: Uint8Array, newMember: boolean): number {
    if (this.compressed) {
      // Compressed, one member per record: a record header opens a member.
      return newMember && !this.wholeGzip && isVersionLine(chunk, 0) ? 0 : -1;
    }
    // Plain: a version line after a blank line; the bytes before the chunk are in the tail.
    const tail = this.skipped?.tail ?? new Uint8Array(0);
    const probe = new Uint8Array(tail.length + Math.min(chunk.length, 16));
    probe.set(tail);
    probe.set(chunk.subarray(0, probe.length - tail.length), tail.length);
    for (let i = 0; i < probe.length; i++) if (afterBlankLine(probe, i)) return i - tail.length;
    for (let i = chunk.indexOf(0x57); i >= 0; i = chunk.indexOf(0x57, i + 1))
      if (afterBlankLine(chunk, i)) return i;
    return -1;
  }

  /**
   * The decoded stream jumps (damaged compressed data read past): a record the jump cuts is dropped and
   * said, with what was in hand of it; the next bytes are read as a record's start.
   */
  gap(): void {
    const cut = this.pending ?? (this.skipping > 0 ? this.skipped : null);
    if (cut)
      this.warn(
        'cut-by-damage',
        `a record cut by damaged data (the record at byte ${cut.offset}, whose Content-Length is ${cut.length}) was dropped`,
        cut.offset,
      );
    else if (this.q.length > 0 && !this.q.view().every((b) => b === 10 || b === 13))
      this.warn(
        'cut-by-damage',
        'a record header cut by damaged data was dropped',
        this.map.toSource(this.q.offset),
      );
    this.pending = null;
    this.skipping = 0;
    this.skipped = null;
    this.junk = null;
    this.q.consume(this.q.length);
    this.lastSource = -1;
  }

  end(): void {
    this.ended = true;
    this.parse();
    if (this.skipping > 0 || this.pending) {
      const p = this.pending ?? this.skipped!;
      throw new FormatFault(
        `truncated record: it declares Content-Length ${p.length} but the file ends first`,
        { offset: p.offset },
      );
    }
    const rest = this.q.view();
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] !== 10 && rest[i] !== 13) {
        const tail = rest.subarray(i);
        const where = this.records === 0 ? 'the first' : 'a';
        // No complete header means no record at all when none came before: "trailing" would mislead.
        const reason = isVersionLine(tail, 0)
          ? `the file ends inside ${where} record header (cut short?): "${snippet(tail)}"`
          : this.records === 0
            ? `no complete WARC record: "${snippet(tail)}"`
            : `trailing data after the last record: "${this.junk ? this.junk.head : snippet(tail)}"`;
        throw new FormatFault(reason, {
          offset: this.junk ? this.junk.offset : this.map.toSource(this.q.offset + i),
        });
      }
    }
  }

  private parse(): void {
    for (;;) {
      if (this.skipping > 0) return;
      const data = this.q.view();
      if (!this.pending) {
        let i = 0;
        while (i < data.length && (data[i] === 13 || data[i] === 10)) i++;
        if (i > 0) this.q.consume(i);
        const view = this.q.view();
        if (view.length === 0) return;
        if (this.records > 0 && view.length >= 5 && !startsWithWarc(view, 0)) {
          // Between records, bytes that are no record (zeros after a record, a damaged stretch): read
          // past them to the next record header, holding a few bytes at a time.
          if (this.skipJunk(view)) continue;
          return;
        }
        const { at, end } = findHeaderEnd(view, 0, Math.min(view.length, MAX_HEADER));
        if (at < 0) {
          if (view.length >= 5 && !startsWithWarc(view, 0)) this.notWarc(view);
          if (view.length > MAX_HEADER) throw new FormatFault('WARC header longer than 1 MiB', this.here());
          return;
        }
        if (!startsWithWarc(view, 0)) this.notWarc(view);
        if (this.records > 0 && !this.wholeGzip && !this.map.isMemberStart(this.q.offset)) {
          if (this.opts.memberPerRecord) {
            throw new FormatFault(
              `this WARC.gz is gzipped as a whole, not one gzip member per record (WARC 1.1 Annex D): record ${this.records + 1} starts inside a gzip member`,
              { offset: this.map.toSource(this.q.offset) },
            );
          }
          // Read in order, a whole-file gzip loses nothing; only seeking to a record by offset is lost.
          this.wholeGzip = true;
          this.warn(
            'whole-file-gzip',
            `gzipped as a whole, not one gzip member per record (WARC 1.1 Annex D): read in order; random access by offset is not possible (record ${this.records + 1} starts inside a gzip member)`,
            this.map.toSource(this.q.offset),
          );
        }
        const offset = this.map.toSource(this.q.offset);
        const { version, headers, length } = readRecordHeader(
          view.subarray(0, at),
          offset,
          (kind, reason, o) => this.warn(kind, reason, o),
        );
        this.pending = { version, headers, length, offset, scan: 0 };
        this.q.consume(end);
        continue;
      }
      const p = this.pending;
      // With a gzip member per record (WARC 1.1 Annex D), a record never runs into the next member:
      // a member that opens with a record header inside the block means the length is wrong.
      if (!this.wholeGzip && p.length !== 0) {
        const upTo = p.length < 0 ? data.length : Math.min(data.length, p.length + 1);
        const m = this.map.memberStartIn(this.q.offset, this.q.offset + upTo);
        if (m >= 0 && isVersionLine(data, m - this.q.offset)) {
          this.resync(p, data, m - this.q.offset);
          continue;
        }
      }
      if (p.length < 0) {
        // No usable length: the block runs to the next record header (or the end of the file).
        const k = firstRecordStart(data, p.scan);
        if (k >= 0 || this.ended) {
          this.emit(p, data.subarray(0, k >= 0 ? blockEndBefore(data, k) : trimBreaks(data)));
          this.q.consume(k >= 0 ? k : data.length);
          this.pending = null;
          continue;
        }
        if (data.length > MAX_BLOCK) throw this.tooLongUnknown(p);
        p.scan = Math.max(0, data.length - 8);
        return;
      }
      if (p.length > MAX_BLOCK) {
        // Over the budget: counted, not kept, skipped while streaming. Its length is checked first
        // against the record headers in the budget's worth of bytes after it.
        const k = firstRecordStart(data, p.scan, MAX_BLOCK);
        if (k >= 0) {
          this.resync(p, data, k);
          continue;
        }
        if (data.length <= MAX_BLOCK && !this.ended) {
          p.scan = Math.max(0, data.length - 8);
          return;
        }
        if (this.ended && data.length < p.length) return; // end() reports the cut
        this.warn(
          'over-budget',
          `a record of ${p.length.toLocaleString('en-US')} bytes, over the ${mib(MAX_BLOCK)} a record may hold in memory: counted, not read`,
          p.offset,
        );
        this.emit(p, null);
        const n = Math.min(p.length, this.q.length);
        this.skipped = { length: p.length, offset: p.offset, tail: data.slice(n - 8, n) };
        this.q.consume(n);
        this.skipping = p.length - n;
        this.pending = null;
        continue;
      }
      if (data.length < p.length + 4) {
        // The file ends inside the block it claims: a record header there means the length was wrong.
        const k = this.ended && data.length < p.length ? firstRecordStart(data, 0) : -1;
        if (k >= 0) {
          this.resync(p, data, k);
          continue;
        }
        // At the end of input the last record may close with any line breaks, or none (noted).
        const rest = data.subarray(p.length);
        if (!this.ended || data.length < p.length || !rest.every((b) => b === 10 || b === 13)) return;
        if (rest.length === 0) this.separatorShort(0, p.offset);
        this.emit(p, data.subarray(0, p.length));
        this.q.consume(data.length);
        this.pending = null;
        continue;
      }
      const t = data.subarray(p.length, p.length + 4);
      const closed =
        (t[0] === 13 && t[1] === 10 && t[2] === 13 && t[3] === 10) || (t[0] === 10 && t[1] === 10);
      if (!closed) {
        // The length is right but fewer than two line breaks come before the next record header
        // (node-warc writes one CRLF; ClueWeb09 counts one of its two LFs into Content-Length).
        let k = 0;
        while (k < 3 && (data[p.length + k] === 13 || data[p.length + k] === 10)) k++;
        if (data.length < p.length + k + 7 && !this.ended) return;
        if (isVersionLine(data, p.length + k)) {
          this.separatorShort(k, p.offset);
          this.emit(p, data.subarray(0, p.length));
          this.q.consume(p.length + k);
          this.pending = null;
          continue;
        }
        // Resynchronise on the nearest record header, as warcio does for a Content-Length that is off
        // by a little; one far off (a corrupted length) runs over whole records: the first record
        // header after this one's is then where it ends.
        if (data.length < p.length + RESYNC_WINDOW && !this.ended) return;
        // A length too large runs over the next record header: the first one after the block's start is
        // where it ends (near the declared end or far from it). One too small stops inside the block: the
        // nearest header after it is.
        const first = firstRecordStart(data, 0, p.length);
        const next = first >= 0 ? first : nearestRecordStart(data, p.length);
        if (next < 0) {
          throw new FormatFault(
            `the record's Content-Length (${p.length}) does not match its data: expected a blank line after the block, found "${snippet(data.subarray(p.length))}", and no next record header nearby`,
            { offset: p.offset },
          );
        }
        this.resync(p, data, next);
        continue;
      }
      this.emit(p, data.subarray(0, p.length));
      this.q.consume(p.length + (t[0] === 13 ? 4 : 2));
      this.pending = null;
    }
  }

  private here(): { offset: number } {
    return { offset: this.map.toSource(this.q.offset) };
  }

  private notWarc(view: Uint8Array): never {
    throw new FormatFault(
      `expected a WARC record header ("WARC/1.0"), found "${snippet(view)}"`,
      this.here(),
    );
  }
}
