import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nodeNatives } from '../../../src/cli/natives';
import { browserNatives } from '../../../src/workers/natives';
import { sha1Digest } from '../../../src/core/text/sha1';
import { concat, httpResponse, ingestBytes, ingestFixture, warcRecord } from '../helpers';

/** Three pages without WARC-Payload-Digest (the core computes theirs) and one with. */
function crawl(): Uint8Array {
  const rec = (i: number, digest?: string) =>
    warcRecord(
      [
        ['WARC-Type', 'response'],
        ['WARC-Record-ID', `<urn:uuid:${i}>`],
        ['WARC-Date', '2024-01-01T00:00:00Z'],
        ['WARC-Target-URI', `http://example.test/${i}`],
        ['Content-Type', 'application/http; msgtype=response'],
        ...(digest ? [['WARC-Payload-Digest', digest] as [string, string]] : []),
      ],
      httpResponse(
        200,
        [['Content-Type', 'text/html']],
        `<title>t${i}</title><p>page ${i} ${'x'.repeat(i * 50)}`,
      ),
    );
  return concat(rec(1), rec(2), rec(3), rec(4, 'sha1:RECORDEDRECORDEDRECORDEDRECORDE'));
}

describe('natives: the platform SHA-1 handed to the core', () => {
  it("gives the digests the core's own SHA-1 gives, and is called only where none is recorded", async () => {
    let calls = 0;
    const sha1 = (b: Uint8Array) => {
      calls++;
      return createHash('sha1').update(b).digest();
    };
    const withNative = await ingestBytes(crawl(), 'c.warc', { natives: { sha1 } });
    const withOwn = await ingestBytes(crawl(), 'c.warc');
    const digests = (r: typeof withNative) => r.pages.map((p) => p.page.digest);
    expect(digests(withNative)).toEqual(digests(withOwn));
    // Three payloads without a recorded digest, and the recorded one checked (digests.ts).
    expect(calls).toBe(4);
    expect(digests(withNative)[3]).toBe('sha1:RECORDEDRECORDEDRECORDEDRECORDE');
    const body = (i: number) =>
      new TextEncoder().encode(`<title>t${i}</title><p>page ${i} ${'x'.repeat(i * 50)}`);
    expect(digests(withNative)[0]).toBe(sha1Digest(body(1)));
  });

  it("the browser's WebAssembly SHA-1 gives node:crypto's digest, for empty, small and multi-megabyte payloads", async () => {
    const { sha1 } = await browserNatives();
    expect(sha1).toBeDefined();
    let seed = 7;
    for (const n of [0, 1, 55, 56, 64, 6_000, 3 << 20]) {
      const b = new Uint8Array(n);
      for (let i = 0; i < n; i++) b[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
      expect(Buffer.from(sha1!(b)).toString('hex')).toBe(createHash('sha1').update(b).digest('hex'));
      // The hasher is reused: a view into a larger buffer hashes only its own bytes.
      const view = concat(new Uint8Array(3), b, new Uint8Array(5)).subarray(3, 3 + n);
      expect(Buffer.from(sha1!(view)).toString('hex')).toBe(createHash('sha1').update(b).digest('hex'));
    }
    const pages = await ingestBytes(crawl(), 'c.warc', { natives: await browserNatives() });
    const own = await ingestBytes(crawl(), 'c.warc');
    expect(pages.pages).toEqual(own.pages);
  });

  it("leaves every page of the sample fixtures as Node's defaults do", async () => {
    for (const name of ['tiny.arc', 'charsets.warc.gz', 'hostile.warc.gz']) {
      const a = await ingestFixture(name, { natives: nodeNatives });
      const b = await ingestFixture(name);
      expect(a.pages).toEqual(b.pages);
      expect(a.summary.pages).toBeGreaterThan(0);
    }
  });
});
