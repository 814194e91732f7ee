import { ByteQueue, findHeaderEnd, headerValue, latin1, OffsetMap, parseHeaderLines } from './bytes';
import { FormatFault } from './errors';
import { buildPage } from './page-builder';
import { parseHttpBlock } from './http';
import type { FormatReader, ReaderContext } from './reader';

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
  /** Require one gzip member per record (WARC 1.1 Annex D); a whole-file gzip is then a fault. */
  memberPerRecord?: boolean;
  /** File offset where the parsed bytes start (parallel parts). */
  offsetBase?: number;
  onWarning?: (reason: string, offset: number) => void;
}

/** The "WARC/1." line start nearest to `at` (before or after), or -1. */
function nearestRecordStart(data: Uint8Array, at: number): number {
  let best = -1;
  const lo = Math.max(1, at - RESYNC_WINDOW);
  const hi = Math.min(data.length, at + RESYNC_WINDOW);
  for (let i = data.indexOf(0x57, lo); i >= 0 && i < hi; i = data.indexOf(0x57, i + 1)) {
    if (
      data[i - 1] === 10 &&
      data[i + 5] === 0x31 &&
      data[i + 6] === 0x2e &&
      startsWithWarc(data.subarray(i))
    ) {
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
        throw new FormatFault(`trailing data after the last record: "${snippet(rest.subarray(i))}"`, {
          offset: this.map.toSource(this.q.offset + i),
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
        const { at, end } = findHeaderEnd(view, 0, Math.min(view.length, MAX_HEADER));
        if (at < 0) {
          if (view.length >= 5 && !startsWithWarc(view)) this.notWarc(view);
          if (view.length > MAX_HEADER) throw new FormatFault('WARC header longer than 1 MiB', this.here());
          return;
        }
        if (!startsWithWarc(view)) this.notWarc(view);
        if (this.opts.memberPerRecord && this.records > 0 && !this.map.isMemberStart(this.q.offset)) {
          throw new FormatFault(
            `this WARC.gz is gzipped as a whole, not one gzip member per record (WARC 1.1 Annex D): record ${this.records + 1} starts inside a gzip member. Tools that seek by offset (CDX indexes, pywb, warcio) refuse such files; use “Read anyway” (CLI: --whole-file-gzip) to ingest it`,
            { offset: this.map.toSource(this.q.offset) },
          );
        }
        const text = latin1.decode(view.subarray(0, at));
        const nl = text.indexOf('\n');
        const version = text.slice(0, nl < 0 ? text.length : nl).trim();
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
        // At the end of input a bare LF LF (or nothing but line breaks) closes the last record.
        const rest = data.subarray(p.length);
        if (!this.ended || data.length < p.length + 2 || !rest.every((b) => b === 10 || b === 13)) return;
        this.emit(p, data.subarray(0, p.length));
        this.q.consume(data.length);
        this.pending = null;
        continue;
      }
      const t = data.subarray(p.length, p.length + 4);
      const closed =
        (t[0] === 13 && t[1] === 10 && t[2] === 13 && t[3] === 10) || (t[0] === 10 && t[1] === 10);
      if (!closed) {
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
        this.opts.onWarning?.(
          `the record's Content-Length (${p.length}) is off by ${Math.abs(diff)} bytes (too ${diff > 0 ? 'small' : 'large'}): read up to the next record header instead`,
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

  private emit(p: NonNullable<WarcParser['pending']>, block: Uint8Array | null): void {
    this.records++;
    const type = (headerValue(p.headers, 'WARC-Type') ?? '').toLowerCase();
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

function startsWithWarc(b: Uint8Array): boolean {
  return b[0] === 0x57 && b[1] === 0x41 && b[2] === 0x52 && b[3] === 0x43 && b[4] === 0x2f; // "WARC/"
}

/** A short printable excerpt for error messages. */
export function snippet(b: Uint8Array, n = 40): string {
  return latin1
    .decode(b.subarray(0, n))
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/[^\x20-\x7e\\]/g, '·');
}

interface Original {
  seq: number;
  title: string;
  fingerprint: string;
  textLength: number;
  mime: string;
}

/** WARC records to pages: response, resource and revisit records are pages; the rest are counted. */
export function createWarcReader(ctx: ReaderContext, compressed: boolean): FormatReader {
  const byRecordId = new Map<string, Original>();
  const byUriDigest = new Map<string, Original>();
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
      const built = buildPage(seq, {
        url,
        status: http?.status ?? 0,
        recordType: r.type,
        fetchedAt: headerValue(r.headers, 'WARC-Date') ?? '',
        headers: http && http.status ? [[':status', http.statusLine], ...http.headers] : r.headers,
        contentType,
        body: r.type === 'revisit' ? null : body,
        digest,
        size: r.type === 'revisit' ? -1 : body.length,
        offset: r.offset,
        note: http?.note ?? '',
      });
      const page = built.page;
      if (r.type === 'revisit') {
        const refId = headerValue(r.headers, 'WARC-Refers-To');
        const refUri = headerValue(r.headers, 'WARC-Refers-To-Target-URI') ?? url;
        const orig = (refId && byRecordId.get(refId)) || byUriDigest.get(refUri + ' ' + digest);
        if (orig) {
          page.revisitOf = orig.seq;
          page.title = orig.title;
          page.fingerprint = orig.fingerprint;
          page.textLength = orig.textLength;
          page.mime = page.mime || orig.mime;
        } else {
          page.note = page.note || 'revisit of a record not in this file';
          ctx.unresolvedRevisit?.(seq, refUri, digest);
        }
      } else {
        const o: Original = {
          seq,
          title: page.title,
          fingerprint: page.fingerprint,
          textLength: page.textLength,
          mime: page.mime,
        };
        const id = headerValue(r.headers, 'WARC-Record-ID');
        if (id) byRecordId.set(id, o);
        if (digest) byUriDigest.set(url + ' ' + digest, o);
      }
      ctx.page(built);
    },
    compressed,
    {
      memberPerRecord: compressed && !ctx.wholeFileGzip,
      offsetBase: ctx.offsetBase,
      onWarning: (reason, offset) => ctx.warn(reason, offset),
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
