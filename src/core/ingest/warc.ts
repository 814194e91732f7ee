import { ByteQueue, findHeaderEnd, headerValue, latin1, OffsetMap, parseHeaderLines } from './bytes';
import { FormatFault } from './errors';
import { buildPage } from './page-builder';
import { parseHttpBlock } from './http';
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
export const MAX_BLOCK = 64 << 20;
const MAX_HEADER = 1 << 20;
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
  private pending: { version: string; headers: [string, string][]; length: number; offset: number } | null =
    null;
  private skipping = 0;
  records = 0;

  private ended = false;
  /** Set once a record is seen to start inside a gzip member: the file is gzipped as a whole. */
  private wholeGzip = false;

  constructor(
    private readonly onRecord: (r: WarcRecord) => void,
    compressed: boolean,
    private readonly opts: WarcParserOptions = {},
  ) {
    this.map = new OffsetMap(!compressed, opts.offsetBase ?? 0);
  }

  push(chunk: Uint8Array, sourceOffset: number): void {
    this.map.add(chunk.length, sourceOffset);
    if (this.skipping > 0) {
      const n = Math.min(this.skipping, chunk.length);
      this.skipping -= n;
      this.q.offset += n;
      chunk = chunk.subarray(n);
    }
    this.q.append(chunk);
    this.parse();
  }

  end(): void {
    this.ended = true;
    this.parse();
    if (this.skipping > 0 || this.pending) {
      const p = this.pending;
      throw new FormatFault(
        `truncated record: it declares Content-Length ${p ? p.length : '?'} but the file ends first`,
        { offset: p ? p.offset : this.map.toSource(this.q.offset) },
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
            : `trailing data after the last record: "${snippet(tail)}"`;
        throw new FormatFault(reason, { offset: this.map.toSource(this.q.offset + i) });
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
        const text = latin1.decode(view.subarray(0, at));
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
        const cl = headerValue(headers, 'Content-Length');
        const length = cl === undefined ? NaN : Number(cl);
        if (!Number.isSafeInteger(length) || length < 0) {
          throw new FormatFault(
            `record has no valid Content-Length (found ${JSON.stringify(cl ?? null)})`,
            this.here(),
          );
        }
        this.pending = { version, headers, length, offset: this.map.toSource(this.q.offset) };
        this.q.consume(end);
        continue;
      }
      const p = this.pending;
      if (p.length > MAX_BLOCK) {
        this.emit(p, null);
        const n = Math.min(p.length, this.q.length);
        this.q.consume(n);
        this.skipping = p.length - n;
        this.pending = null;
        continue;
      }
      if (data.length < p.length + 4) {
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
        // Resynchronise on the nearest record header, as warcio does for a Content-Length that is off.
        if (data.length < p.length + RESYNC_WINDOW && !this.ended) return;
        const next = nearestRecordStart(data, p.length);
        const found = `found "${snippet(data.subarray(p.length))}"`;
        if (next < 0) {
          throw new FormatFault(
            `the record's Content-Length (${p.length}) does not match its data: expected a blank line after the block, ${found}, and no next record header nearby`,
            { offset: p.offset },
          );
        }
        // The block ends where the record terminator (CRLF CRLF, or LF LF) before the next header begins.
        let blockEnd = next;
        const crlf2 =
          data[next - 4] === 13 && data[next - 3] === 10 && data[next - 2] === 13 && data[next - 1] === 10;
        if (next >= 4 && crlf2) blockEnd = next - 4;
        else if (next >= 2 && data[next - 2] === 10 && data[next - 1] === 10) blockEnd = next - 2;
        const diff = blockEnd - p.length;
        this.warn(
          'length-off',
          `the record's Content-Length (${p.length}) is off by ${Math.abs(diff)} byte${Math.abs(diff) === 1 ? '' : 's'} (too ${diff > 0 ? 'small' : 'large'}): read up to the next record header instead`,
          p.offset,
        );
        this.emit(p, data.subarray(0, blockEnd));
        this.q.consume(next);
        this.pending = null;
        continue;
      }
      this.emit(p, data.subarray(0, p.length));
      this.q.consume(p.length + (t[0] === 13 ? 4 : 2));
      this.pending = null;
    }
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

/** WARC records to pages: response, resource and revisit records are pages; the rest are counted. */
export function createWarcReader(ctx: ReaderContext, compressed: boolean): FormatReader {
  const origins = new Origins();
  const parser = new WarcParser(
    (r) => {
      ctx.record(r.type || '(no WARC-Type)');
      if (r.type !== 'response' && r.type !== 'resource' && r.type !== 'revisit') {
        ctx.skip(`${r.type || 'untyped'} records (not pages)`);
        return;
      }
      const url = targetUri(r.headers);
      if (!url) {
        ctx.skip(`${r.type} records without WARC-Target-URI`);
        return;
      }
      if (url.startsWith('dns:')) {
        ctx.skip('dns: lookup records');
        return;
      }
      if (r.block === null) {
        ctx.skip(`records over ${MAX_BLOCK >> 20} MiB (not read)`);
        return;
      }
      const isHttp = r.type !== 'resource';
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
