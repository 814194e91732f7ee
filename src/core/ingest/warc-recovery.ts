import { mib } from '../codecs/budget';
import { ByteQueue, headerValue, OffsetMap } from './bytes';
import { FormatFault } from './errors';
import type { ProblemKind } from '../types';
import { snippet } from './snippet';
import { blockEndBefore, firstRecordStart, isVersionLine } from './warc-boundaries';
import { MAX_BLOCK, type WarcRecord } from './warc-record';

export interface WarcParserOptions {
  /**
   * Require one gzip member per record (WARC 1.1 Annex D): a record starting inside a member is then a
   * fault. Off by default: this workbench reads a file in order, so a whole-file gzip reads fine, and is
   * noted once.
   */
  memberPerRecord?: boolean;
  /** File offset where the parsed bytes start (parallel parts). */
  offsetBase?: number;
  /** A problem read past; `kind` groups repeats of the same problem (noted once per file). */
  onWarning?: (reason: string, offset: number, kind: ProblemKind) => void;
}

/**
 * The state WarcParser (warc.ts) reads a WARC with — the bytes in hand, the record whose block is being
 * read, whether the file is gzipped as a whole — and how it reads past damage: junk between records, a
 * Content-Length that does not land on the record's end, a short separator, no usable length.
 */
export abstract class WarcRecovery {
  protected q = new ByteQueue();
  protected map: OffsetMap;
  /** length -1: not given, or not a number; the block ends at the next record header. */
  protected pending: {
    version: string;
    headers: [string, string][];
    length: number;
    offset: number;
    /** Where the search for the next record header resumes (relative to the block's start). */
    scan: number;
  } | null = null;
  /** Junk being read past between records: where it began and its length so far. */
  protected junk: { offset: number; bytes: number; head: string } | null = null;
  records = 0;

  protected ended = false;
  /** Set once a record is seen to start inside a gzip member: the file is gzipped as a whole. */
  protected wholeGzip = false;

  constructor(
    private readonly onRecord: (r: WarcRecord) => void,
    protected readonly compressed: boolean,
    protected readonly opts: WarcParserOptions = {},
  ) {
    this.map = new OffsetMap(!compressed, opts.offsetBase ?? 0);
  }

  protected warn(kind: ProblemKind, reason: string, offset: number): void {
    this.opts.onWarning?.(reason, offset, kind);
  }

  /**
   * Junk at the head of the queue (not a record header): consumes it up to the next record header —
   * at a gzip member's start when records have a member each, else at a line start — and notes it
   * once that is found (true: parse on). Without one in hand, consumes all but a few bytes (false).
   */
  protected skipJunk(view: Uint8Array): boolean {
    this.junk ??= { offset: this.map.toSource(this.q.offset), bytes: 0, head: snippet(view) };
    let k: number;
    if (this.compressed && !this.wholeGzip) {
      const m = this.map.memberStartIn(this.q.offset, this.q.offset + view.length);
      k = m >= 0 && isVersionLine(view, m - this.q.offset) ? m - this.q.offset : -1;
    } else k = firstRecordStart(view, 1);
    if (k >= 0) {
      this.junk.bytes += k;
      this.warn(
        'junk',
        `${this.junk.bytes.toLocaleString('en-US')} bytes after a record are not a WARC record (zeros, or damage): read on at the next record header`,
        this.junk.offset,
      );
      this.junk = null;
      this.q.consume(k);
      return true;
    }
    if (this.ended) return false; // end() reports what is left
    const n = Math.max(0, view.length - 8);
    this.junk.bytes += n;
    this.q.consume(n);
    return false;
  }

  /** The record's block is data[0, next) less its terminator: its length was wrong (noted). */
  protected resync(p: NonNullable<WarcRecovery['pending']>, data: Uint8Array, next: number): void {
    const blockEnd = blockEndBefore(data, next);
    const diff = blockEnd - p.length;
    this.warn(
      'length-off',
      `the record's Content-Length (${p.length}) is off by ${Math.abs(diff)} byte${Math.abs(diff) === 1 ? '' : 's'} (too ${diff > 0 ? 'small' : 'large'}): read up to the next record header instead`,
      p.offset,
    );
    this.emit(p, data.subarray(0, blockEnd));
    this.q.consume(next);
    this.pending = null;
  }

  protected tooLongUnknown(p: NonNullable<WarcRecovery['pending']>): FormatFault {
    return new FormatFault(
      `a record without a usable Content-Length and no next record header within ${mib(MAX_BLOCK)}`,
      { offset: p.offset },
    );
  }

  /** `breaks` line-break bytes (0–3) instead of CRLF CRLF between a record and the next. */
  protected separatorShort(breaks: number, offset: number): void {
    if (breaks === 0)
      this.warn(
        'separator-missing',
        'no blank line (CRLF CRLF) between a record and the next record header: read as written',
        offset,
      );
    else
      this.warn(
        'separator-short',
        'separator one CRLF short: a single line break instead of CRLF CRLF after a record: read as written',
        offset,
      );
  }

  protected emit(p: NonNullable<WarcRecovery['pending']>, block: Uint8Array | null): void {
    this.records++;
    const type = (headerValue(p.headers, 'WARC-Type') ?? '').trim().toLowerCase();
    this.onRecord({
      version: p.version,
      type,
      headers: p.headers,
      block,
      contentLength: p.length,
      offset: p.offset,
    });
  }
}
