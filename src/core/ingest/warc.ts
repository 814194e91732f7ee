import { BUDGET, mib } from './budget';
import { ByteQueue, findHeaderEnd, headerValue, latin1, OffsetMap, parseHeaderLines, utf8 } from './bytes';
import { FormatFault } from './errors';
import { buildPage } from './page-builder';
import { notWebScheme, parseHttpBlock } from './http';
import { Origins, type Original } from './origins';
import type { FormatReader, ReaderContext } from './reader';
import type { PageRecord } from '../types';

/** One WARC record (ISO 28500, WARC/1.0 and 1.1). `block` is a view valid only during the callback. */
export interface WarcRecord {
  version: string;
  type: string;
  headers: [string, string][];
  /** null when the block was larger than MAX_BLOCK and skipped. */
  block: Uint8Array | null;
  contentLength: number;
  /** Offset of the record in the file (compressed offset of its gzip member for .gz). */
  offset: number;
}

/** Blocks above this are counted but not kept: no page text is that large, and memory stays bounded. */
export const MAX_BLOCK = BUDGET.recordBytes;
const MAX_HEADER = BUDGET.headerBytes;
/** How far around a wrong Content-Length to look for the next record header. */
const RESYNC_WINDOW = 64 << 10;

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
  onWarning?: (reason: string, offset: number, kind: string) => void;
}

/**
 * A record's version line at `i`: "WARC/" in any case (some writers emit "warc/1.0"), then a digit and
 * a dot — WARC/1.0, 1.1 and the pre-standard WARC/0.18 that ClueWeb09 was written in.
 */
function isVersionLine(b: Uint8Array, i: number): boolean {
  return (
    startsWithWarc(b, i) && b[i + 5] >= 0x30 && b[i + 5] <= 0x39 && b[i + 6] === 0x2e // digit "."
  );
}

/**
 * The first record header at a line start in data[from, to), or -1: where a record whose length is
 * wrong (or not given) really ends.
 */
function firstRecordStart(data: Uint8Array, from: number, to = data.length): number {
  const end = Math.min(to, data.length);
  for (
    let nl = data.indexOf(10, Math.max(0, from - 1));
    nl >= 0 && nl + 1 < end;
    nl = data.indexOf(10, nl + 1)
  )
    if (isVersionLine(data, nl + 1)) return nl + 1;
  return -1;
}

/** The version line start nearest to `at` (before or after, at a line start), or -1. */
function nearestRecordStart(data: Uint8Array, at: number): number {
  let best = -1;
  const lo = Math.max(0, at - RESYNC_WINDOW);
  const hi = Math.min(data.length, at + RESYNC_WINDOW);
  // Line starts, not a letter: the version line may be upper or lower case. Rare path (a wrong length).
  for (let nl = data.indexOf(10, lo); nl >= 0 && nl + 1 < hi; nl = data.indexOf(10, nl + 1)) {
    const i = nl + 1;
    if (isVersionLine(data, i)) {
      if (best < 0 || Math.abs(i - at) < Math.abs(best - at)) best = i;
      if (i > at) break;
    }
  }
  return best;
}

/** WARC-Target-URI as written by wget 1.14 is wrapped in angle brackets. */
export function targetUri(headers: [string, string][]): string {
  const v = headerValue(headers, 'WARC-Target-URI') ?? '';
  return v.startsWith('<') && v.endsWith('>') ? v.slice(1, -1) : v;
}

/**
 * A push parser: feed decoded bytes in any pieces; every complete record is handed to `onRecord`
 * synchronously. A Content-Length that does not land on the record's closing blank line is a fault.
 */
export class WarcParser {
  private q = new ByteQueue();
  private map: OffsetMap;
  /** length -1: not given, or not a number; the block ends at the next record header. */
  private pending: {
    version: string;
    headers: [string, string][];
    length: number;
    offset: number;
    /** Where the search for the next record header resumes (relative to the block's start). */
    scan: number;
  } | null = null;
  private skipping = 0;
  /** The record being skipped (over the record budget), for messages; its last bytes read. */
  private skipped: { length: number; offset: number; tail: Uint8Array } | null = null;
  /** Junk being read past between records: where it began and its length so far. */
  private junk: { offset: number; bytes: number; head: string } | null = null;
  /** Source offset of the last chunk pushed: a new one is a new gzip member. */
  private lastSource = -1;
  records = 0;

  private ended = false;
  /** Set once a record is seen to start inside a gzip member: the file is gzipped as a whole. */
  private wholeGzip = false;

  constructor(
    private readonly onRecord: (r: WarcRecord) => void,
    private readonly compressed: boolean,
    private readonly opts: WarcParserOptions = {},
  ) {
    this.map = new OffsetMap(!compressed, opts.offsetBase ?? 0);
  }

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

  private warn(kind: string, reason: string, offset: number): void {
    this.opts.onWarning?.(reason, offset, kind);
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
        // WARC 1.1 headers are UTF-8 (ISO 28500:2017 §5); a byte that is not becomes U+FFFD.
        const text = utf8.decode(view.subarray(0, at));
        const nl = text.indexOf('\n');
        let version = text.slice(0, nl < 0 ? text.length : nl).trim();
        if (!version.startsWith('WARC/')) {
          this.warn(
            'version-case',
            `version line "${version}" is not upper case: read as ${version.toUpperCase()}`,
            this.here().offset,
          );
          version = version.toUpperCase();
        }
        if (version.startsWith('WARC/0.')) {
          this.warn(
            'version-draft',
            `${version} is a pre-standard draft of the format (ClueWeb09 uses WARC/0.18): read as WARC/1.0`,
            this.here().offset,
          );
        }
        const headers = parseHeaderLines(nl < 0 ? '' : text.slice(nl + 1));
        const offset = this.map.toSource(this.q.offset);
        const length = this.contentLength(headers, offset);
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

  /**
   * The record's length as its Content-Length states it: digits only (not "", "1e2" or "0x10"), the
   * first when there are several (noted); -1 when there is none usable (noted: the record is then
   * read up to the next record header).
   */
  private contentLength(headers: [string, string][], offset: number): number {
    const values = headers.filter(([k]) => k.toLowerCase() === 'content-length').map(([, v]) => v.trim());
    if (values.length > 1)
      this.warn(
        'length-duplicate',
        `${values.length} Content-Length headers (${values.map((v) => JSON.stringify(v)).join(', ')}): the first is used, checked against where the record ends`,
        offset,
      );
    const v = values[0];
    const length = v !== undefined && /^\d{1,15}$/.test(v) ? Number(v) : -1;
    if (length < 0)
      this.warn(
        'length-malformed',
        v === undefined
          ? 'record without Content-Length: read up to the next record header'
          : `Content-Length ${JSON.stringify(v.slice(0, 40))} is not a length (digits only): the record is read up to the next record header`,
        offset,
      );
    return length;
  }

  /**
   * Junk at the head of the queue (not a record header): consumes it up to the next record header —
   * at a gzip member's start when records have a member each, else at a line start — and notes it
   * once that is found (true: parse on). Without one in hand, consumes all but a few bytes (false).
   */
  private skipJunk(view: Uint8Array): boolean {
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
  private resync(p: NonNullable<WarcParser['pending']>, data: Uint8Array, next: number): void {
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

  private tooLongUnknown(p: NonNullable<WarcParser['pending']>): FormatFault {
    return new FormatFault(
      `a record without a usable Content-Length and no next record header within ${mib(MAX_BLOCK)}`,
      { offset: p.offset },
    );
  }

  /** `breaks` line-break bytes (0–3) instead of CRLF CRLF between a record and the next. */
  private separatorShort(breaks: number, offset: number): void {
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

  private emit(p: NonNullable<WarcParser['pending']>, block: Uint8Array | null): void {
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

/** Where a block ends before the record header at `next`: before its terminator (CRLF CRLF, or LF LF). */
function blockEndBefore(data: Uint8Array, next: number): number {
  if (
    next >= 4 &&
    data[next - 4] === 13 &&
    data[next - 3] === 10 &&
    data[next - 2] === 13 &&
    data[next - 1] === 10
  )
    return next - 4;
  if (next >= 2 && data[next - 2] === 10 && data[next - 1] === 10) return next - 2;
  return next;
}

/** The length of data without its trailing line breaks. */
function trimBreaks(data: Uint8Array): number {
  let n = data.length;
  while (n > 0 && (data[n - 1] === 10 || data[n - 1] === 13)) n--;
  return n;
}

/** A version line at `i` after a blank line (LF LF or CRLF CRLF before it). */
function afterBlankLine(b: Uint8Array, i: number): boolean {
  return (
    i >= 2 &&
    b[i - 1] === 10 &&
    (b[i - 2] === 10 || (i >= 3 && b[i - 2] === 13 && b[i - 3] === 10)) &&
    isVersionLine(b, i)
  );
}

/** The last 8 bytes of `prev` followed by `next`. */
function tailOf(prev: Uint8Array, next: Uint8Array): Uint8Array {
  if (next.length >= 8) return next.slice(next.length - 8);
  const both = new Uint8Array(prev.length + next.length);
  both.set(prev);
  both.set(next, prev.length);
  return both.slice(Math.max(0, both.length - 8));
}

/** "WARC/" at `i`, in any letter case. */
function startsWithWarc(b: Uint8Array, i: number): boolean {
  return (
    (b[i] | 0x20) === 0x77 &&
    (b[i + 1] | 0x20) === 0x61 &&
    (b[i + 2] | 0x20) === 0x72 &&
    (b[i + 3] | 0x20) === 0x63 &&
    b[i + 4] === 0x2f
  );
}

/** A short printable excerpt for error messages. */
export function snippet(b: Uint8Array, n = 40): string {
  return latin1
    .decode(b.subarray(0, n))
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/[^\x20-\x7e\\]/g, '·');
}

/** What a revisit takes from its original (its own MIME type, when it has one, stays). */
export function revisitFields(
  orig: Original,
  mime: string,
): Pick<PageRecord, 'revisitOf' | 'title' | 'fingerprint' | 'textLength' | 'mime'> {
  return {
    revisitOf: orig.seq,
    title: orig.title,
    fingerprint: orig.fingerprint,
    textLength: orig.textLength,
    mime: mime || orig.mime,
  };
}

/**
 * WARC records to pages: response, resource, revisit and conversion records (a WET file's extracted
 * text, Common Crawl's layout: the text is the page, WARC-Target-URI its URL) are pages; the rest are
 * counted.
 */
export function createWarcReader(ctx: ReaderContext, compressed: boolean): FormatReader {
  const origins = new Origins();
  const parser = new WarcParser(
    (r) => {
      ctx.record(r.type || '(no WARC-Type)');
      const url = targetUri(r.headers);
      // Every record's stated digests, pages or not (as warcio check); none stated costs two look-ups.
      ctx.digests?.record({ type: r.type, headers: r.headers, block: r.block, offset: r.offset, url });
      if (r.type !== 'response' && r.type !== 'resource' && r.type !== 'revisit' && r.type !== 'conversion') {
        // A WAT file is all metadata records (JSON about the pages of a WARC): said so, by its type.
        const json = r.type === 'metadata' && /json/i.test(headerValue(r.headers, 'Content-Type') ?? '');
        ctx.skip(
          json
            ? 'metadata records in JSON (a WAT file: open its WARC or WET for the pages)'
            : `${r.type || 'untyped'} records (not pages)`,
        );
        return;
      }
      if (!url) {
        ctx.skip(`${r.type} records without WARC-Target-URI`);
        return;
      }
      if (url.startsWith('dns:')) {
        ctx.skip('dns: lookup records');
        return;
      }
      // Only web URLs are pages: a crawler's own files (wget's log and manifest as urn: or metadata://
      // resources, warcprox's metadata) are listed as skipped, by their scheme.
      const scheme = notWebScheme(url);
      if (scheme) {
        ctx.skip(`${r.type} records of ${scheme} URIs (not web pages)`);
        return;
      }
      if (r.block === null) {
        ctx.skip(`records over ${MAX_BLOCK >> 20} MiB (not read)`);
        return;
      }
      // A conversion record (WET) holds a page's text as extracted, a resource record a file as
      // fetched: neither has an HTTP header block.
      const isHttp = r.type !== 'resource' && r.type !== 'conversion';
      const http = isHttp ? parseHttpBlock(r.block) : null;
      const recordCt = headerValue(r.headers, 'Content-Type') ?? '';
      const contentType = http ? (headerValue(http.headers, 'Content-Type') ?? '') : recordCt;
      const digest = headerValue(r.headers, 'WARC-Payload-Digest') ?? '';
      const body = http ? http.body : r.block;
      const seq = ctx.nextSeq();
      const built = buildPage(
        seq,
        {
          url,
          status: http?.status ?? 0,
          recordType: r.type,
          fetchedAt: headerValue(r.headers, 'WARC-Date') ?? '',
          headers: http && http.status ? [[':status', http.statusLine], ...http.headers] : r.headers,
          contentType,
          // Compressed bytes that could not be decoded are no text: kept out of the signatures.
          body: r.type === 'revisit' || http?.undecoded ? null : body,
          digest,
          size: r.type === 'revisit' ? -1 : body.length,
          offset: r.offset,
          note: http?.note ?? '',
        },
        ctx,
      );
      const page = built.page;
      if (r.type === 'revisit') {
        const refId = headerValue(r.headers, 'WARC-Refers-To');
        const refUri = headerValue(r.headers, 'WARC-Refers-To-Target-URI') ?? url;
        const orig = origins.find(refId ?? '', refUri, digest);
        if (orig) Object.assign(page, revisitFields(orig, page.mime));
        else {
          page.note = page.note || 'revisit of a record not in this file';
          ctx.unresolvedRevisit?.(seq, refUri, digest);
        }
      } else {
        origins.add(page, headerValue(r.headers, 'WARC-Record-ID') ?? '', url, digest);
      }
      ctx.page(built);
    },
    compressed,
    {
      offsetBase: ctx.offsetBase,
      onWarning: (reason, offset, kind) => ctx.warn(reason, offset, kind),
    },
  );
  return {
    push: (chunk, off) => parser.push(chunk, off),
    end: () => parser.end(),
    get count() {
      return parser.records;
    },
  };
}
