/**
 * The deduplicated WARC of the sample (issue "Formats in and out", item 2), read back by warcio (the
 * tests' reference reader): every record valid; every revisit refers, by target URI and date, to a
 * response in the file with the same payload digest; the kept copies plus the revisits are the sample's
 * pages; read again by the core, each revisit is tied to the record it refers to.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { WARCParser } from 'warcio';
import { describe, expect, it } from 'vitest';
import {
  dedupWarc,
  IDENTICAL_PAYLOAD_PROFILE,
  planRevisits,
  revisitRecord,
} from '../../../src/core/clusters/dedup-warc';
import { bytesSource } from '../../../src/core/ingest/wacz';
import { chunked } from '../helpers';
import { capturesAndClusters, pagesOf } from './sample-captures';

const SAMPLE = join(import.meta.dirname, '../../../sample/sample.warc.gz');

/** The sample's pages as the plan reads them, its clusters at the workbench's defaults, and the plan. */
async function plan(bytes: Uint8Array) {
  const { all, captures, clusters } = await capturesAndClusters(bytes);
  return { all, warcPages: captures, clusters, ...planRevisits(captures, clusters) };
}

async function write(bytes: Uint8Array, p: Awaited<ReturnType<typeof plan>>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const b of dedupWarc(bytesSource('sample.warc.gz', bytes), p.revisits, p.stats)) parts.push(b);
  return new Uint8Array(Buffer.concat(parts));
}

describe('the deduplicated WARC of the sample', () => {
  it('is read back by warcio: valid records, revisits that refer to a response with their payload digest', async () => {
    const bytes = new Uint8Array(readFileSync(SAMPLE));
    const p = await plan(bytes);
    expect(p.revisits.length).toBeGreaterThan(0);
    const out = await write(bytes, p);
    expect(p.stats.duplicateUrls).toBe(p.revisits.length);
    expect(p.stats.bytesConserved).toBeGreaterThan(0);
    expect(p.stats.bytesOut).toBe(out.length);

    const inTypes: string[] = [];
    for await (const r of new WARCParser(chunked(bytes, 1 << 16))) {
      await r.readFully(false);
      inTypes.push(r.warcType ?? '');
    }
    const responses = new Map<string, string>();
    const revisits: { uri: string; refUri: string; refDate: string; digest: string; profile: string }[] = [];
    const outTypes: string[] = [];
    for await (const r of new WARCParser(chunked(out, 1 << 16))) {
      await r.readFully(false);
      const type = r.warcType ?? '';
      outTypes.push(type);
      const h = r.warcHeaders.headers;
      if (type === 'response')
        responses.set(`${r.warcTargetURI} ${h.get('WARC-Date')}`, h.get('WARC-Payload-Digest') ?? '');
      if (type === 'revisit' && h.get('WARC-Profile') === IDENTICAL_PAYLOAD_PROFILE)
        revisits.push({
          uri: r.warcTargetURI ?? '',
          refUri: h.get('WARC-Refers-To-Target-URI') ?? '',
          refDate: h.get('WARC-Refers-To-Date') ?? '',
          digest: h.get('WARC-Payload-Digest') ?? '',
          profile: h.get('WARC-Profile') ?? '',
        });
    }
    // One record out for each record in: the duplicates' responses became revisits.
    expect(outTypes.length).toBe(inTypes.length);
    expect(outTypes.filter((t) => t === 'response').length).toBe(
      inTypes.filter((t) => t === 'response').length - p.revisits.length,
    );
    const written = revisits.filter((r) =>
      p.revisits.some((x) => x.url === r.uri && x.refersToUri === r.refUri),
    );
    expect(written).toHaveLength(p.revisits.length);
    for (const r of written) {
      const target = responses.get(`${r.refUri} ${r.refDate}`);
      expect(target, `${r.uri} refers to ${r.refUri} at ${r.refDate}`).toBeDefined();
      expect(r.digest).toBe(target);
    }

    // Read again by the core: as many pages as the sample (kept copies plus revisits), each revisit tied.
    const again = await pagesOf(out);
    expect(again.length).toBe(p.all.length);
    const tied = again.filter((x) => x.page.recordType === 'revisit' && x.page.revisitOf >= 0);
    expect(tied.length).toBeGreaterThanOrEqual(p.revisits.length);
  });

  it('is the same bytes when written twice, and a plain WARC gets plain revisits', async () => {
    const bytes = new Uint8Array(readFileSync(SAMPLE));
    const p = await plan(bytes);
    const a = await write(bytes, p);
    const b = await write(bytes, await plan(bytes));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    // The same crawl uncompressed: records found by their Content-Length, revisits written plain.
    const plain = new Uint8Array(gunzipSync(bytes));
    const q = await plan(plain);
    expect(q.revisits.map((r) => r.url)).toEqual(p.revisits.map((r) => r.url));
    const out = await write(plain, q);
    let n = 0;
    let revisits = 0;
    for await (const r of new WARCParser(chunked(out, 1 << 16))) {
      await r.readFully(false);
      n++;
      if (r.warcType === 'revisit' && r.warcHeaders.headers.get('WARC-Profile') === IDENTICAL_PAYLOAD_PROFILE)
        revisits++;
    }
    expect(n).toBeGreaterThan(q.revisits.length);
    expect(revisits).toBeGreaterThanOrEqual(q.revisits.length);
    expect((await pagesOf(out)).length).toBe(q.all.length);
    const r = revisitRecord(p.revisits[0]);
    const text = new TextDecoder().decode(r);
    expect(text).toMatch(/^WARC\/1\.1\r\nWARC-Type: revisit\r\n/);
    expect(text).toContain(`WARC-Refers-To-Target-URI: ${p.revisits[0].refersToUri}\r\n`);
    // The cluster as every export names it, and the kept copy's reason.
    expect(text).toContain(`Dedup-Cluster: ${p.revisits[0].cluster}\r\n`);
    expect(p.revisits[0].cluster).toMatch(/^[0-9a-f]{16}$/);
    expect(text).toContain(`Dedup-Kept-Reason: ${p.revisits[0].reason}\r\n`);
    const declared = Number(/Content-Length: (\d+)/.exec(text)![1]);
    const blockStart = text.indexOf('\r\n\r\n') + 4;
    expect(r.length - blockStart - 4).toBe(declared);
  });
});
