// brotli's decoder proper, for its streaming entry (BrotliDecompress): the package's decompress() grows
// its output to whatever sizes the stream declares, so a bomb cannot be stopped there. Its exports map
// hides the file: tsconfig.json's paths and vite.config.ts's alias name it (types: src/brotli-decoder.d.ts).
import { BrotliDecompress } from 'brotli/dec/decode.js';
import { Gunzip, Inflate, Unzlib } from 'fflate';
import { BUDGET, mib } from '../codecs/budget';
import { joinBytes } from '../bytes';
import { findHeaderEnd, headerValue, latin1, parseHeaderLines } from './bytes';

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
    if (decoded) {
      body = decoded.data;
      if (decoded.cut)
        note =
          decoded.data.length > 0
            ? `Content-Encoding "${ce}" inflates past ${mib(BUDGET.textBytes)}: only the first ${mib(BUDGET.textBytes)} read`
            : `Content-Encoding "${ce}" inflates past ${mib(BUDGET.textBytes)}: not read`;
    } else {
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

/** A body decoded up to the text budget; `cut`: it inflates further (a bomb, or a huge page). */
interface Decoded {
  data: Uint8Array;
  cut: boolean;
}

/** Stops a decoder once the budget is reached (thrown from its output callback, caught below). */
const FULL = new Error('text budget reached');

/**
 * The body with its content coding undone, up to BUDGET.textBytes (no more is kept as text): a coded
 * body is inflated in steps and the decoder stopped there, so a bomb costs no more than the budget.
 */
function decodeContent(body: Uint8Array, encoding: string): Decoded | null {
  const limit = BUDGET.textBytes;
  const parts: Uint8Array[] = [];
  let n = 0;
  let cut = false;
  const take = (d: Uint8Array) => {
    if (n + d.length > limit) {
      parts.push(d.subarray(0, limit - n));
      n = limit;
      cut = true;
      throw FULL;
    }
    parts.push(d);
    n += d.length;
  };
  try {
    if (encoding === 'br') {
      // Brotli (RFC 7932): a pure-JS decoder, because core also runs in the browser, where node:zlib
      // does not exist and Chromium's DecompressionStream has no 'br'. Its input and output objects
      // are ours: the output takes what fits and stops the decoder past the budget, and reports a
      // buffer so large the decoder never grows it to the sizes the stream declares.
      let at = 0;
      const input = {
        read(buf: Uint8Array, i: number, count: number) {
          const k = Math.min(count, body.length - at);
          buf.set(body.subarray(at, at + k), i);
          at += k;
          return k;
        },
      };
      const output = {
        buffer: { length: Number.MAX_SAFE_INTEGER },
        write(buf: Uint8Array, count: number) {
          take(buf.slice(0, count));
          return count;
        },
      };
      BrotliDecompress(input, output);
      return { data: joinBytes(parts), cut };
    }
    let ended = false;
    const onData = (d: Uint8Array, final: boolean) => {
      if (final) ended = true;
      take(d);
    };
    // "deflate" is zlib-wrapped by the RFC, raw in some servers.
    const zlibWrapped = (body[0] & 0x0f) === 8 && ((body[0] << 8) | body[1]) % 31 === 0;
    const inflater =
      encoding === 'gzip' || encoding === 'x-gzip'
        ? new Gunzip(onData)
        : encoding === 'deflate'
          ? zlibWrapped
            ? new Unzlib(onData)
            : new Inflate(onData)
          : null;
    if (!inflater) return null; // zstd, compress: not decodable here
    for (let i = 0; i < body.length; i += BUDGET.inflateStep) {
      const end = Math.min(body.length, i + BUDGET.inflateStep);
      inflater.push(body.subarray(i, end), end === body.length);
    }
    // A body cut short still gives the text it holds (as the synchronous decoders did not).
    return ended || n > 0 ? { data: joinBytes(parts), cut } : null;
  } catch (e) {
    if (e === FULL) return { data: joinBytes(parts), cut: true };
    return n > 0 && encoding !== 'br' ? { data: joinBytes(parts), cut } : null;
  }
}

/**
 * The scheme of a URL that is not a web page's (`urn:`, `metadata:`, `ftp:`…, or none), or '' for
 * http(s): records of those are not pages.
 */
export function notWebScheme(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  if (!m) return '(no scheme)';
  const scheme = m[1].toLowerCase();
  return scheme === 'http' || scheme === 'https' ? '' : `${scheme}:`;
}
