/**
 * The CDXJ index of the sample with each capture's duplicate status: pywb's fields, each record's offset
 * and length in the file (its gzip member, or its plain record), sorted lines, and the statuses of the
 * deduplicated WARC's plan. (On IANA's real WARC, ../shared/datasets/real, the same code gives the 171
 * lines of its published iana.cdxj field for field and in order: a trial, not a test, as the tests run
 * without ../shared.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cdxjLines, timestamp14 } from '../../../src/core/clusters/cdxj';
import { planRevisits, recordLengths } from '../../../src/core/clusters/dedup-warc';
import { bytesSource } from '../../../src/core/ingest/wacz';
import { capturesAndClusters } from './sample-captures';

const SAMPLE = join(import.meta.dirname, '../../../sample/sample.warc.gz');

async function index(bytes: Uint8Array) {
  const { captures, clusters } = await capturesAndClusters(bytes);
  const lengths = await recordLengths(
    bytesSource('sample.warc.gz', bytes),
    captures.map((c) => c.offset),
  );
  return { captures, clusters, lengths, lines: cdxjLines(captures, clusters, 'sample.warc.gz', lengths) };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const parse = (line: string) => {
  const [key, time] = line.split(' ', 2);
  return {
    key,
    time,
    f: JSON.parse(line.slice(key.length + time.length + 2)) as Record<string, string | number>,
  };
};

describe('the CDXJ index of the sample', () => {
  for (const gz of [true, false])
    it(`${gz ? 'WARC.gz' : 'plain WARC'}: each capture's record at its offset and length, lines sorted, duplicate statuses`, async () => {
      const raw = new Uint8Array(readFileSync(SAMPLE));
      const bytes = gz ? raw : new Uint8Array(gunzipSync(raw));
      const { captures, clusters, lines } = await index(bytes);
      expect(lines).toHaveLength(captures.length);
      expect([...lines].sort()).toEqual(lines);
      for (const line of lines) {
        const { key, time, f } = parse(line);
        expect(key).not.toContain(' ');
        expect(time).toMatch(/^\d{14}$/);
        expect(f.filename).toBe('sample.warc.gz');
        const start = Number(f.offset);
        const record = bytes.subarray(start, start + Number(f.length));
        const text = new TextDecoder('latin1').decode(gz ? gunzipSync(record) : record);
        expect(text.startsWith('WARC/1.')).toBe(true);
        expect(text.endsWith('\r\n\r\n')).toBe(true);
        // wget writes its target URIs in angle brackets (the sample's WARC/1.0 records do).
        expect(text).toMatch(new RegExp(`\r\nWARC-Target-URI: <?${escape(String(f.url))}>?\r\n`));
        if (f.digest) expect(text).toContain(`:${f.digest}`);
      }
      const statuses = lines.map((l) => parse(l).f.dedup).filter((d) => d !== undefined);
      const { revisits } = planRevisits(captures, clusters);
      expect(statuses.filter((d) => d === 'revisit')).toHaveLength(revisits.length);
      expect(statuses.filter((d) => d === 'kept')).toHaveLength(clusters.filter((c) => c.length > 1).length);
      expect(statuses.filter((d) => d === 'near-duplicate').length).toBeGreaterThan(0);
    });

  it('dates CDX-style and leaves the length out without the file', () => {
    expect(timestamp14('2024-01-15T10:00:05Z')).toBe('20240115100005');
    expect(timestamp14('2024-01-15T10:00:05.123456Z')).toBe('20240115100005');
    expect(timestamp14('')).toBe('');
    const [line] = cdxjLines(
      [
        {
          id: 0,
          url: 'http://www.Example.test/b?y=1&x=2',
          status: 200,
          fetchedAt: '2024-01-15T10:00:05Z',
          isCanonical: true,
          canonicalUrl: 'http://www.example.test/b?y=1&x=2',
          textLength: 0,
          offset: 7,
          digest: 'sha1:ABC',
          headers: [],
          mime: 'text/html',
          recordType: 'response',
        },
      ],
      [],
      'f.warc',
    );
    expect(line).toBe(
      'test,example)/b?x=2&y=1 20240115100005 {"url":"http://www.Example.test/b?y=1&x=2","mime":"text/html","status":"200","digest":"ABC","offset":"7","filename":"f.warc"}',
    );
  });
});
