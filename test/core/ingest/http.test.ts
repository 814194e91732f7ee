import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BUDGET } from '../../../src/core/codecs/budget';
import { dechunk, parseHttpBlock } from '../../../src/core/ingest/http';
import { concat, latin1, utf8Bytes } from '../helpers';

const html = '<html><body>' + 'Hello, encoded world. '.repeat(30) + '</body></html>';

function chunk(body: Uint8Array, size: number, ext = ''): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < body.length; i += size) {
    const piece = body.subarray(i, i + size);
    parts.push(utf8Bytes(`${piece.length.toString(16)}${i === 0 ? ext : ''}\r\n`), piece, utf8Bytes('\r\n'));
  }
  parts.push(utf8Bytes('0\r\nX-Trailer: yes\r\n\r\n'));
  return concat(...parts);
}

function response(headers: string[], body: Uint8Array): Uint8Array {
  return concat(utf8Bytes(['HTTP/1.1 200 OK', ...headers, '', ''].join('\r\n')), body);
}

describe('parseHttpBlock', () => {
  it('splits status line, ordered headers (folded lines joined) and body', () => {
    const block = utf8Bytes(
      'HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nX-Long: part one\r\n  part two\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\nbody\r\n\r\nmore',
    );
    const m = parseHttpBlock(block);
    expect(m.status).toBe(404);
    expect(m.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(m.headers).toEqual([
      ['Content-Type', 'text/html'],
      ['X-Long', 'part one part two'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
    ]);
    expect(latin1(m.body)).toBe('body\r\n\r\nmore');
    expect(m.note).toBe('');
  });

  it('accepts bare LF line ends', () => {
    const m = parseHttpBlock(utf8Bytes('HTTP/1.0 200 OK\nContent-Type: text/plain\n\nhi'));
    expect(m.status).toBe(200);
    expect(latin1(m.body)).toBe('hi');
  });

  it('leaves a block that is not an HTTP message alone', () => {
    const block = utf8Bytes('just a resource');
    const m = parseHttpBlock(block);
    expect(m).toMatchObject({ status: 0, statusLine: '', headers: [], note: '' });
    expect(m.body).toBe(block);
  });

  it('gives an empty body when the header block never ends', () => {
    const m = parseHttpBlock(utf8Bytes('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n'));
    expect(m.status).toBe(200);
    expect(m.body.length).toBe(0);
  });

  it('de-chunks Transfer-Encoding: chunked (with a chunk extension and a trailer)', () => {
    const body = utf8Bytes(html);
    const m = parseHttpBlock(response(['Transfer-Encoding: chunked'], chunk(body, 200, ';ext=1')));
    expect(latin1(m.body)).toBe(html);
  });

  it('gunzips Content-Encoding: gzip, and de-chunks before gunzipping', () => {
    const gz = new Uint8Array(gzipSync(utf8Bytes(html)));
    expect(latin1(parseHttpBlock(response(['Content-Encoding: gzip'], gz)).body)).toBe(html);
    expect(latin1(parseHttpBlock(response(['Content-Encoding: x-gzip'], gz)).body)).toBe(html);
    const both = response(['Transfer-Encoding: chunked', 'Content-Encoding: gzip'], chunk(gz, 100));
    expect(latin1(parseHttpBlock(both).body)).toBe(html);
  });

  it('inflates Content-Encoding: deflate, zlib-wrapped or raw', () => {
    for (const deflated of [deflateSync(utf8Bytes(html)), deflateRawSync(utf8Bytes(html))]) {
      const m = parseHttpBlock(response(['Content-Encoding: deflate'], new Uint8Array(deflated)));
      expect(latin1(m.body)).toBe(html);
      expect(m.note).toBe('');
    }
  });

  it('decodes Content-Encoding: br (Brotli) without node:zlib', () => {
    const br = new Uint8Array(brotliCompressSync(utf8Bytes(html)));
    const m = parseHttpBlock(response(['Content-Encoding: br'], br));
    expect(latin1(m.body)).toBe(html);
    expect(m.note).toBe('');
    expect(m.undecoded).toBe(false);
    const chunkedBr = parseHttpBlock(
      response(['Transfer-Encoding: chunked', 'Content-Encoding: br'], chunk(br, 50)),
    );
    expect(latin1(chunkedBr.body)).toBe(html);
  });

  it('inflates a coded body only up to the text budget, with a note (bombs of every coding)', () => {
    const zeros = new Uint8Array(BUDGET.textBytes * 4); // 32 MiB of zeros: ~32 KB gzip, ~20 bytes br
    const codings: [string, Uint8Array][] = [
      ['gzip', gzipSync(zeros)],
      ['deflate', deflateSync(zeros)],
      ['deflate', deflateRawSync(zeros)],
      ['br', brotliCompressSync(zeros)],
    ];
    for (const [ce, coded] of codings) {
      const m = parseHttpBlock(response([`Content-Encoding: ${ce}`], coded));
      expect(m.body.length, ce).toBeLessThanOrEqual(BUDGET.textBytes);
      expect(m.note, ce).toMatch(new RegExp(`Content-Encoding "${ce}" inflates past 8 MiB`));
      if (ce !== 'br') expect(m.body.length, ce).toBe(BUDGET.textBytes);
    }
    // Under the budget: whole, no note (a page of 1 MiB).
    const page = utf8Bytes('<p>' + 'word '.repeat(200_000));
    for (const coded of [gzipSync(page), brotliCompressSync(page)]) {
      const m = parseHttpBlock(
        response([`Content-Encoding: ${coded === page ? '' : coded[0] === 0x1f ? 'gzip' : 'br'}`], coded),
      );
      expect(m.body).toEqual(page);
      expect(m.note).toBe('');
    }
  });

  it('notes a content coding it cannot decode and keeps the raw body, marked as not text', () => {
    const br = utf8Bytes('\x0b\x02\x80not really brotli');
    const m = parseHttpBlock(response(['Content-Encoding: br'], br));
    expect(m.note).toBe('Content-Encoding "br" could not be decoded');
    expect(m.body).toEqual(br);
    expect(m.undecoded).toBe(true);
    expect(parseHttpBlock(response(['Content-Encoding: zstd'], br)).undecoded).toBe(true);
    const bad = parseHttpBlock(response(['Content-Encoding: gzip'], utf8Bytes('not gzip at all')));
    expect(bad.note).toBe('Content-Encoding "gzip" could not be decoded');
    expect(latin1(bad.body)).toBe('not gzip at all');
  });

  it('ignores Content-Encoding: identity', () => {
    const m = parseHttpBlock(response(['Content-Encoding: identity'], utf8Bytes('plain')));
    expect(latin1(m.body)).toBe('plain');
    expect(m.note).toBe('');
  });
});

describe('dechunk', () => {
  it('joins chunks and stops at the zero chunk', () => {
    const out = dechunk(utf8Bytes('5\r\nhello\r\n6;name=val\r\n world\r\n0\r\n\r\ntrailing junk'));
    expect(out && latin1(out)).toBe('hello world');
  });

  it('accepts upper- and lowercase hex sizes and LF-only framing', () => {
    const piece = 'x'.repeat(26);
    expect(latin1(dechunk(utf8Bytes(`1A\r\n${piece}\r\n1a\n${piece}\n0\n\n`))!)).toBe(piece + piece);
  });

  it('returns null when the body is not chunked after all', () => {
    expect(dechunk(utf8Bytes('<html>already de-chunked</html>'))).toBeNull();
    expect(dechunk(utf8Bytes('no line break at all'))).toBeNull();
  });

  it('keeps what it has when the body ends early', () => {
    const out = dechunk(utf8Bytes('5\r\nhello\r\n10\r\nonly this'));
    expect(out && latin1(out)).toBe('helloonly this');
  });
});
