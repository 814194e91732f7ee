import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { IndexEntry } from '../../../src/core/sample/crawl-index';
import { scanWarcIndex } from '../../../src/core/sample/index-scan';
import { bytesSource } from '../../../src/core/ingest/wacz';
import { seededRandom } from '../../../src/core/random';
import { httpResponse, warcRecord } from '../helpers';

/** Random records (seeded): responses of several types and sizes, requests, metadata, revisits. */
function records(seed: number) {
  const rnd = seededRandom(seed);
  const out: { bytes: Uint8Array; entry: Omit<IndexEntry, 'offset' | 'length' | 'filename'> | null }[] = [];
  for (let i = 0; i < 60; i++) {
    const url = `http://s${i % 5}.test/p${i}`;
    const r = rnd();
    const id = ['WARC-Record-ID', `<urn:uuid:00000000-0000-0000-0000-${String(i).padStart(12, '0')}>`] as [
      string,
      string,
    ];
    const date = ['WARC-Date', '2024-01-15T10:00:00Z'] as [string, string];
    if (r < 0.2) {
      out.push({
        bytes: warcRecord(
          [['WARC-Type', 'request'], ['WARC-Target-URI', url], date, id],
          'GET / HTTP/1.1\r\n\r\n',
        ),
        entry: null,
      });
    } else if (r < 0.3) {
      out.push({
        bytes: warcRecord(
          [['WARC-Type', 'revisit'], ['WARC-Target-URI', url], date, id, ['WARC-Payload-Digest', 'sha1:REV']],
          '',
        ),
        entry: { url, timestamp: '20240115100000', mime: 'warc/revisit', status: 0, digest: 'REV' },
      });
    } else {
      const status = r < 0.4 ? 404 : 200;
      const mime = r < 0.5 ? 'image/png' : 'text/html';
      const body = 'x'.repeat(Math.floor(rnd() * 40_000));
      out.push({
        bytes: warcRecord(
          [
            ['WARC-Type', 'response'],
            ['WARC-Target-URI', url],
            date,
            id,
            ['WARC-Payload-Digest', `sha1:D${i}`],
            ['Content-Type', 'application/http; msgtype=response'],
          ],
          httpResponse(status, [['Content-Type', `${mime}; charset=utf-8`]], body),
        ),
        entry: { url, timestamp: '20240115100000', mime, status, digest: `D${i}` },
      });
    }
  }
  return out;
}

async function scan(bytes: Uint8Array, name: string) {
  const got: IndexEntry[] = [];
  const r = await scanWarcIndex(bytesSource(name, bytes, 7000), (e) => got.push(e));
  return { ...r, got };
}

describe('an index built for a WARC without one', () => {
  for (const gz of [false, true])
    it(`${gz ? 'WARC.gz: an inflate pass' : 'WARC: a header pass'} gives each record's place, URL, status, MIME and digest (random records)`, async () => {
      const seed = Number(process.env.SCAN_SEED ?? (gz ? 2 : 1));
      const recs = records(seed);
      const parts = recs.map((r) => (gz ? gzipSync(r.bytes) : r.bytes));
      const total = parts.reduce((a, p) => a + p.length, 0);
      const file = new Uint8Array(total);
      const want: IndexEntry[] = [];
      let at = 0;
      recs.forEach((r, i) => {
        file.set(parts[i], at);
        if (r.entry) want.push({ ...r.entry, offset: at, length: parts[i].length, filename: 'c.warc' });
        at += parts[i].length;
      });
      const { method, got } = await scan(file, 'c.warc');
      expect(method).toBe(gz ? 'inflate pass' : 'header pass');
      expect(got, `seed ${seed}`).toEqual(want);
    });

  it('refuses what is not a WARC, and a WARC.gz of one member', async () => {
    await expect(scan(new TextEncoder().encode('hello world'), 'x')).rejects.toThrow(/neither a WARC/);
    // Two records in ONE gzip member: no record has a range of its own.
    const rnd = seededRandom(3);
    const noise = Array.from({ length: 5_000 }, () => String.fromCharCode(33 + Math.floor(rnd() * 90))).join(
      '',
    );
    const rec = (i: number) =>
      warcRecord(
        [
          ['WARC-Type', 'response'],
          ['WARC-Target-URI', `http://a.test/${i}`],
          ['Content-Type', 'application/http; msgtype=response'],
        ],
        httpResponse(200, [['Content-Type', 'text/html']], noise),
      );
    const a = rec(0);
    const b = rec(1);
    const both = new Uint8Array(a.length + b.length);
    both.set(a);
    both.set(b, a.length);
    const whole = gzipSync(both);
    await expect(scan(whole, 'one.warc.gz')).rejects.toThrow(/a gzip member holds several records/);
  });
});

describe('an index built for an ARC', () => {
  for (const name of ['tiny.arc', 'tiny.arc.gz', 'tiny.warc', 'tiny.warc.gz'])
    it(`${name}: the same places and URLs as the core's read of it`, async () => {
      const { readFileSync } = await import('node:fs');
      const { ingestCrawl } = await import('../../../src/core/ingest/many-files');
      const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url)));
      const pages: { url: string; offset: number }[] = [];
      await ingestCrawl([bytesSource(name, bytes)], {}, async (batch) => {
        for (const p of batch)
          if (p.page.recordType !== 'revisit') pages.push({ url: p.page.url, offset: p.page.offset });
      });
      const { got, method } = await scan(bytes, name);
      expect(method).toBe(name.endsWith('.gz') ? 'inflate pass' : 'header pass');
      const scanned = got
        .filter((e) => e.mime !== 'warc/revisit')
        .map((e) => ({ url: e.url, offset: e.offset }));
      expect(scanned).toEqual(pages);
      expect(pages.length).toBeGreaterThan(0);
      // Each record's range ends where the next begins (or within the file).
      for (const e of got) expect(e.offset + e.length).toBeLessThanOrEqual(bytes.length);
    });
});
