import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nodeNatives } from '../../../src/cli/natives';
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
  it('gives the digests WebCrypto and the JS SHA-1 give, and is called only where none is recorded', async () => {
    let calls = 0;
    const sha1 = (b: Uint8Array) => {
      calls++;
      return createHash('sha1').update(b).digest();
    };
    const withNative = await ingestBytes(crawl(), 'c.warc', { natives: { sha1 } });
    const withWebCrypto = await ingestBytes(crawl(), 'c.warc');
    const digests = (r: typeof withNative) => r.pages.map((p) => p.page.digest);
    expect(digests(withNative)).toEqual(digests(withWebCrypto));
    expect(calls).toBe(3);
    expect(digests(withNative)[3]).toBe('sha1:RECORDEDRECORDEDRECORDEDRECORDE');
    const body = (i: number) =>
      new TextEncoder().encode(`<title>t${i}</title><p>page ${i} ${'x'.repeat(i * 50)}`);
    expect(digests(withNative)[0]).toBe(sha1Digest(body(1)));
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
