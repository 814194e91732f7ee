import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { emptyReason, ingestOutcome } from '../../../src/core/ingest/outcome';
import { ingest } from '../../../src/core/ingest/pipeline';

const CRLF = '\r\n';
function record(type: string, body: string, uri?: string): Buffer {
  const head = [
    'WARC/1.0',
    `WARC-Type: ${type}`,
    'WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-00000000000' + type.length + '>',
    'WARC-Date: 2024-01-15T10:00:00Z',
    ...(uri ? [`WARC-Target-URI: ${uri}`] : []),
    'Content-Type: application/warc-fields',
    `Content-Length: ${Buffer.byteLength(body)}`,
  ].join(CRLF);
  return Buffer.from(head + CRLF + CRLF + body + CRLF + CRLF);
}

async function read(bytes: Buffer, fileName: string) {
  return ingest(
    (async function* () {
      yield new Uint8Array(bytes);
    })(),
    { fileName, totalBytes: bytes.length },
    async () => {},
  );
}

describe('a file that yields no page is never silently ready', () => {
  it('a WARC.gz cut down to its warcinfo record is "empty" and says why', async () => {
    const gz = gzipSync(record('warcinfo', 'software: test\r\n'));
    const s = await read(gz, 'sample.warc.gz');
    expect(s.pages).toBe(0);
    const o = ingestOutcome(s);
    expect(o.status).toBe('empty');
    expect(o.error?.message).toMatch(/^sample\.warc\.gz: no pages were found/);
    expect(o.error?.message).toContain('warcinfo 1');
    expect(o.error?.message).toContain('no response or resource records');
    expect(o.error?.message).toContain('cut short or decoded by a server');
  });

  it('a crawl.log of DNS lookups only names them', async () => {
    const line = (url: string) =>
      `2024-01-15T10:00:00.000Z     1         52 ${url} P http://a.test/ text/dns #001 20240115100000000+1 sha1:AAAA - -`;
    const s = await read(
      Buffer.from([line('dns:a.test'), line('dns:b.test')].join('\n') + '\n'),
      'crawl.log',
    );
    expect(s.pages).toBe(0);
    expect(emptyReason(s)).toMatch(/2 dns: lookups/);
  });

  it('a file with pages is ready, one with a fault partial, an empty file is not "empty"', async () => {
    const ok = await read(Buffer.from('http://a.test/x\nhttp://a.test/y\n'), 'urls.txt');
    expect(ingestOutcome(ok).status).toBe('ready');
    expect(emptyReason({ ...ok, pages: 0, bytes: 0 })).toBeNull();
    const err = { fileName: 'x', offset: 9, line: -1, reason: 'r', message: 'x: r' };
    expect(ingestOutcome({ ...ok, error: err })).toEqual({ status: 'partial', error: err });
  });
});
