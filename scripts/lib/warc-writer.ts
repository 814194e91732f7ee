// Minimal, deterministic WARC / ARC writer used by the sample and fixture
// generators. Pure Node: no third-party dependencies.

import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

export type WarcType =
  'warcinfo' | 'request' | 'response' | 'revisit' | 'metadata' | 'resource' | 'conversion';
export type HeaderList = Array<[string, string]>;

const CRLF = '\r\n';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function sha1Base32(buf: Uint8Array): string {
  return 'sha1:' + base32(createHash('sha1').update(buf).digest());
}

export function sha1Hex(buf: Uint8Array | string): string {
  return createHash('sha1').update(buf).digest('hex');
}

/** Returns a generator of deterministic `<urn:uuid:...>` record ids. */
export function recordIdFactory(seed: string): () => string {
  let counter = 0;
  return () => {
    const h = sha1Hex(`${seed}:${counter++}`);
    const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
    const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    return `<urn:uuid:${uuid}>`;
  };
}

/** `2024-01-15T10:00:00Z` plus `seconds`. */
export function isoDate(base: string, seconds = 0): string {
  return new Date(Date.parse(base) + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** RFC 1123 date for HTTP headers. */
export function httpDate(iso: string): string {
  return new Date(Date.parse(iso)).toUTCString();
}

/** 14-digit ARC / CDX timestamp. */
export function date14(iso: string): string {
  return iso.replace(/[-:TZ]/g, '').slice(0, 14);
}

function toList(headers: HeaderList | Record<string, string> | undefined): HeaderList {
  if (!headers) return [];
  return Array.isArray(headers) ? headers.slice() : Object.entries(headers);
}

function hasHeader(list: HeaderList, name: string): boolean {
  const lower = name.toLowerCase();
  return list.some(([k]) => k.toLowerCase() === lower);
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
};

export interface HttpResponseOptions {
  /** Add `Content-Length` when missing and not chunked (default true). */
  autoLength?: boolean;
  httpVersion?: string;
}

/** Builds an HTTP/1.1 response block: status line, headers, blank line, body. */
export function httpResponse(
  status: number,
  headers: HeaderList | Record<string, string>,
  body: Buffer,
  opts: HttpResponseOptions = {},
): Buffer {
  const list = toList(headers);
  if (
    opts.autoLength !== false &&
    !hasHeader(list, 'Content-Length') &&
    !hasHeader(list, 'Transfer-Encoding')
  ) {
    list.push(['Content-Length', String(body.length)]);
  }
  const head =
    `${opts.httpVersion ?? 'HTTP/1.1'} ${status} ${STATUS_TEXT[status] ?? 'Unknown'}${CRLF}` +
    list.map(([k, v]) => `${k}: ${v}${CRLF}`).join('') +
    CRLF;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** Builds an HTTP/1.1 GET (or other method) request block. */
export function httpRequest(
  url: string,
  opts: { method?: string; headers?: HeaderList; body?: Buffer; userAgent?: string } = {},
): Buffer {
  const u = new URL(url);
  const list: HeaderList = [
    ['Host', u.host],
    ['User-Agent', opts.userAgent ?? 'DedupWorkbenchSampleBot/1.0 (+http://example.test/bot)'],
    ['Accept', 'text/html,application/xhtml+xml,*/*;q=0.8'],
    ['Accept-Encoding', 'gzip'],
    ...(opts.headers ?? []),
  ];
  if (opts.body) list.push(['Content-Length', String(opts.body.length)]);
  const head =
    `${opts.method ?? 'GET'} ${u.pathname}${u.search} HTTP/1.1${CRLF}` +
    list.map(([k, v]) => `${k}: ${v}${CRLF}`).join('') +
    CRLF;
  return Buffer.concat([Buffer.from(head, 'latin1'), opts.body ?? Buffer.alloc(0)]);
}

/** Raw chunked transfer-encoding of `body` (as some crawlers store it). */
export function chunked(body: Buffer, chunkSize: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < body.length; i += chunkSize) {
    const piece = body.subarray(i, i + chunkSize);
    parts.push(Buffer.from(`${piece.length.toString(16)}${CRLF}`, 'latin1'), piece, Buffer.from(CRLF));
  }
  parts.push(Buffer.from(`0${CRLF}${CRLF}`, 'latin1'));
  return Buffer.concat(parts);
}

/** Splits an HTTP message into header bytes (incl. blank line) and body. */
export function splitHttp(block: Buffer): { head: Buffer; body: Buffer } | null {
  const idx = block.indexOf('\r\n\r\n');
  if (idx < 0) return null;
  return { head: block.subarray(0, idx + 4), body: block.subarray(idx + 4) };
}

/** Fields block (`application/warc-fields`) from name/value pairs. */
export function warcFields(fields: HeaderList): Buffer {
  return Buffer.from(fields.map(([k, v]) => `${k}: ${v}${CRLF}`).join(''), 'utf8');
}

export interface WarcRecordOptions {
  type: WarcType;
  targetUri?: string;
  date: string;
  recordId: string;
  /** Extra headers; a name matching a default header replaces it. */
  headers?: HeaderList | Record<string, string>;
  block: Buffer;
  version?: '1.0' | '1.1';
  /** Override the declared Content-Length (for deliberately broken fixtures). */
  contentLength?: number;
}

const DEFAULT_CONTENT_TYPE: Partial<Record<WarcType, string>> = {
  warcinfo: 'application/warc-fields',
  metadata: 'application/warc-fields',
  request: 'application/http; msgtype=request',
  response: 'application/http; msgtype=response',
  revisit: 'application/http; msgtype=response',
};

/**
 * One WARC record: version line, named fields, blank line, block, CRLF CRLF.
 * Response records get a WARC-Payload-Digest over the stored HTTP entity
 * (the bytes after the header block, as stored: not de-chunked, not gunzipped).
 */
export function warcRecord(o: WarcRecordOptions): Buffer {
  const extra = toList(o.headers);
  const fields: HeaderList = [
    ['WARC-Type', o.type],
    ['WARC-Record-ID', o.recordId],
    ['WARC-Date', o.date],
  ];
  if (o.targetUri !== undefined) fields.push(['WARC-Target-URI', o.targetUri]);
  for (const [k, v] of extra) {
    const i = fields.findIndex(([name]) => name.toLowerCase() === k.toLowerCase());
    if (i >= 0) fields[i] = [fields[i][0], v];
    else fields.push([k, v]);
  }
  const contentType = DEFAULT_CONTENT_TYPE[o.type];
  if (contentType && !hasHeader(fields, 'Content-Type')) fields.push(['Content-Type', contentType]);
  if (!hasHeader(fields, 'WARC-Block-Digest')) fields.push(['WARC-Block-Digest', sha1Base32(o.block)]);
  if (o.type === 'response' && !hasHeader(fields, 'WARC-Payload-Digest')) {
    const parts = splitHttp(o.block);
    if (parts) fields.push(['WARC-Payload-Digest', sha1Base32(parts.body)]);
  }
  fields.push(['Content-Length', String(o.contentLength ?? o.block.length)]);
  const head =
    `WARC/${o.version ?? '1.0'}${CRLF}` + fields.map(([k, v]) => `${k}: ${v}${CRLF}`).join('') + CRLF;
  return Buffer.concat([Buffer.from(head, 'utf8'), o.block, Buffer.from(CRLF + CRLF)]);
}

/** One gzip member (deterministic: level 9, mtime 0, no file name). */
export function gzipMember(buf: Buffer): Buffer {
  return gzipSync(buf, { level: 9 });
}

/** ARC v1 `filedesc://` version block (the first record of an ARC file). */
export function arcFileHeader(filename: string, date14Value: string, originator = 'DedupWorkbench'): Buffer {
  const content = `1 0 ${originator}\n` + 'URL IP-address Archive-date Content-type Archive-length\n';
  return arcRecord(`filedesc://${filename}`, '0.0.0.0', date14Value, 'text/plain', Buffer.from(content));
}

/** ARC v1 record: `URL IP date mime length\n` + content + `\n`. */
export function arcRecord(
  url: string,
  ip: string,
  date14Value: string,
  mime: string,
  content: Buffer,
): Buffer {
  const line = `${url} ${ip} ${date14Value} ${mime} ${content.length}\n`;
  return Buffer.concat([Buffer.from(line, 'latin1'), content, Buffer.from('\n')]);
}

/**
 * A WARC of HTML responses, one per page (title and text in one paragraph), fetched a second apart
 * from 2024-05-01T10:00:00Z (or `at` seconds after it): the small crawls tests write (e2e
 * small-crawl.ts, batch tests).
 */
export function htmlPagesWarc(
  name: string,
  pages: readonly { url: string; title: string; text: string; at?: number }[],
): Buffer {
  const id = recordIdFactory(name);
  return Buffer.concat(
    pages.map((p, n) =>
      warcRecord({
        type: 'response',
        targetUri: p.url,
        date: isoDate('2024-05-01T10:00:00Z', p.at ?? n),
        recordId: id(),
        block: httpResponse(
          200,
          [['Content-Type', 'text/html; charset=utf-8']],
          Buffer.from(
            `<!doctype html><html><head><title>${p.title}</title></head><body><p>${p.text}</p></body></html>`,
          ),
        ),
      }),
    ),
  );
}
