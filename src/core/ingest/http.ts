import { decompress as brotliDecompress } from 'brotli/decompress';
import { gunzipSync, inflateSync, unzlibSync } from 'fflate';
import { findHeaderEnd, headerValue, joinBytes, latin1, parseHeaderLines } from './bytes';

/** An HTTP message stored in a WARC/ARC block, with its body de-chunked and content-decoded. */
export interface HttpMessage {
  /** 0 when the block is not an HTTP message (resource records, dns: entries). */
  status: number;
  statusLine: string;
  headers: [string, string][];
  body: Uint8Array;
  /** Why the body could not be decoded as sent ('' when fine). */
  note: string;
  /** The body still carries a content coding that could not be undone: bytes, not text. */
  undecoded: boolean;
}

export function parseHttpBlock(block: Uint8Array): HttpMessage {
  if (!(
    block[0] === 0x48 &&
    block[1] === 0x54 &&
    block[2] === 0x54 &&
    block[3] === 0x50 &&
    block[4] === 0x2f
  )) {
    return { status: 0, statusLine: '', headers: [], body: block, note: '', undecoded: false };
  }
  const { at, end } = findHeaderEnd(block, 0, Math.min(block.length, 1 << 20));
  const headEnd = at < 0 ? block.length : at;
  const text = latin1.decode(block.subarray(0, headEnd));
  const nl = text.indexOf('\n');
  const statusLine = (nl < 0 ? text : text.slice(0, nl)).trim();
  const status = Number(/^HTTP\/\S+\s+(\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers = parseHeaderLines(nl < 0 ? '' : text.slice(nl + 1));
  let body = at < 0 ? new Uint8Array(0) : block.subarray(end);
  let note = '';
  let undecoded = false;
  const te = (headerValue(headers, 'Transfer-Encoding') ?? '').toLowerCase();
  if (te.includes('chunked')) {
    const d = dechunk(body);
    if (d) body = d;
  }
  const ce = (headerValue(headers, 'Content-Encoding') ?? '').toLowerCase().trim();
  if (ce && ce !== 'identity' && body.length > 0) {
    const decoded = decodeContent(body, ce);
    if (decoded) body = decoded;
    else {
      note = `Content-Encoding "${ce}" could not be decoded`;
      undecoded = true;
    }
  }
  return { status, statusLine, headers, body, note, undecoded };
}

/**
 * Chunked transfer coding (RFC 9112 §7.1). Returns null when the body is not chunked after all
 * (writers that store the de-chunked body but keep the header).
 */
export function dechunk(body: Uint8Array): Uint8Array | null {
  const parts: Uint8Array[] = [];
  let p = 0;
  for (;;) {
    const nl = body.indexOf(10, p);
    if (nl < 0) return parts.length ? joinBytes(parts) : null;
    const sizeText = latin1.decode(body.subarray(p, nl)).split(';')[0].trim();
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) return parts.length ? joinBytes(parts) : null;
    const size = parseInt(sizeText, 16);
    if (size === 0) return joinBytes(parts);
    const start = nl + 1;
    const chunk = body.subarray(start, Math.min(start + size, body.length));
    parts.push(chunk);
    if (start + size >= body.length) return joinBytes(parts);
    p = start + size;
    if (body[p] === 13) p++;
    if (body[p] === 10) p++;
  }
}

function decodeContent(body: Uint8Array, encoding: string): Uint8Array | null {
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body);
    if (encoding === 'deflate') {
      // "deflate" is zlib-wrapped by the RFC, raw in some servers.
      return (body[0] & 0x0f) === 8 && ((body[0] << 8) | body[1]) % 31 === 0
        ? unzlibSync(body)
        : inflateSync(body);
    }
    // Brotli (RFC 7932): a pure-JS decoder, because core also runs in the browser, where node:zlib
    // does not exist and Chromium's DecompressionStream has no 'br'.
    if (encoding === 'br') return brotliDecompress(body);
  } catch {
    return null;
  }
  return null; // zstd, compress: not decodable here
}
