import { readdirSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { IngestCancelled } from '../../../src/core/ingest/errors';
import { ingest } from '../../../src/core/ingest/pipeline';
import type { IngestProgress } from '../../../src/core/types';
import {
  chunked,
  comparable,
  concat,
  FIXTURE_DIR,
  fixtureBytes,
  fixtureCounts,
  ingestBytes,
  ingestFailure,
  ingestFixture,
  utf8Bytes,
  warcRecord,
} from '../helpers';

/**
 * Fixtures that ingest (possibly with a summary.error); the others are refused. ZIPs and Parquet files
 * are not streams: ingestCrawl opens them by ranges (test/core/ingest/wacz.test.ts, parquet.test.ts),
 * never the stream pipeline, which refuses them with a reason.
 */
const REFUSED = new Set([
  'junk.bin',
  'image.png',
  'page.html',
  'empty.warc',
  'tiny-single-member.warc.gz',
  'crawl.wacz',
  'not-wacz.zip',
  'docs.parquet',
  'docs-html-id.parquet',
  'not-docs.parquet',
]);
const ALL = readdirSync(FIXTURE_DIR)
  .filter((n) => !n.endsWith('.json') && !n.endsWith('.md'))
  .sort();
const READABLE = ALL.filter((n) => !REFUSED.has(n));

describe('files that are not crawl files are refused before onFormat', () => {
  const cases: [string, RegExp][] = [
    ['junk.bin', /binary data .*unknown format/],
    ['image.png', /PNG image/],
    ['page.html', /single HTML page/],
    ['empty.warc', /empty \(0 bytes\)/],
    ['docs.parquet', /a Parquet file, which is read by its row groups, not as a stream/],
  ];
  for (const [name, reason] of cases) {
    it(`${name}: ${reason.source}`, async () => {
      const { error, onFormatCalls, pages } = await ingestFailure(fixtureBytes(name), name);
      expect(onFormatCalls).toBe(0);
      expect(pages).toBe(0);
      expect(error.name).toBe('IngestError');
      expect(error.fileName).toBe(name);
      expect(error.message.startsWith(`${name}: `)).toBe(true);
      expect(error.reason).toMatch(reason);
    });
  }

  it('an empty source (no chunks at all) is refused as empty', async () => {
    const { error, onFormatCalls } = await ingestFailure(new Uint8Array(0), 'none.warc');
    expect(onFormatCalls).toBe(0);
    expect(error.message).toBe('none.warc: the file is empty (0 bytes)');
  });

  it('says when the refused content was inside gzip', async () => {
    const png = new Uint8Array(gzipSync(fixtureBytes('image.png')));
    const a = await ingestFailure(png, 'image.png.gz');
    expect(a.onFormatCalls).toBe(0);
    expect(a.error.reason).toMatch(/PNG image.*\(inside gzip\)/);
    const empty = new Uint8Array(gzipSync(new Uint8Array(0)));
    const b = await ingestFailure(empty, 'empty.warc.gz');
    expect(b.onFormatCalls).toBe(0);
    expect(b.error.reason).toBe('the gzip data holds nothing (inside gzip)');
  });

  it('a fault in the first gzip member leaves nothing: thrown, no onFormat', async () => {
    // Cut inside the gzip header: nothing inflates, so the format is never known.
    const data = fixtureBytes('tiny.warc.gz').subarray(0, 12);
    const { error, onFormatCalls } = await ingestFailure(data, 'cut.warc.gz');
    expect(onFormatCalls).toBe(0);
    expect(error.offset).toBe(0);
    expect(error.reason).toMatch(/truncated gzip/);
  });

  it('a fault before the first page is thrown with file and offset', async () => {
    const data = concat(
      warcRecord([['WARC-Type', 'warcinfo']], 'software: test'),
      utf8Bytes('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n'),
    );
    const { error } = await ingestFailure(data, 'nolen.warc');
    const second = data.length - 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n'.length;
    expect(error.offset).toBe(second);
    expect(error.message).toBe(`nolen.warc at byte ${second}: ${error.reason}`);
    expect(error.reason).toMatch(/trailing data after the last record/);
  });
});

describe('damaged files keep the pages before the fault', () => {
  it('truncated.warc.gz: 2 pages, error names the file, the cut member’s offset and says truncated', async () => {
    const { pages, summary } = await ingestFixture('truncated.warc.gz');
    const counts = fixtureCounts['truncated.warc.gz'] as { good_records: number; member_offsets: number[] };
    expect(pages).toHaveLength(counts.good_records);
    expect(pages.map((p) => p.page.url)).toEqual([
      'http://www.example.test/truncated/1.html',
      'http://www.example.test/truncated/2.html',
    ]);
    expect(pages.map((p) => p.page.offset)).toEqual(counts.member_offsets.slice(0, 2));
    const err = summary.error!;
    expect(err).not.toBeNull();
    expect(err.fileName).toBe('truncated.warc.gz');
    expect(err.offset).toBe(counts.member_offsets[2]);
    expect(err.message).toContain('truncated.warc.gz');
    expect(err.message).toContain(`at byte ${counts.member_offsets[2]}`);
    expect(err.message).toMatch(/truncated/);
  });

  it('garbage-middle.warc.gz: reading resumes past the corrupt member; its span noted with offsets', async () => {
    const { pages, summary } = await ingestFixture('garbage-middle.warc.gz');
    const counts = fixtureCounts['garbage-middle.warc.gz'] as {
      member_offsets: number[];
      good_records_resync: number;
    };
    const offsets = counts.member_offsets;
    expect(pages.map((p) => p.page.url)).toEqual([
      'http://www.example.test/garbage/1.html',
      'http://www.example.test/garbage/2.html',
      'http://www.example.test/garbage/4.html',
    ]);
    expect(pages).toHaveLength(counts.good_records_resync);
    expect(summary.error).toBeNull();
    const note = summary.warnings.find((w) => w.kind === 'damaged span 1');
    expect(note).toMatchObject({ fileName: 'garbage-middle.warc.gz', offset: offsets[2] });
    expect(note!.reason).toBe(
      `bytes ${offsets[2]}–${offsets[3]} (${offsets[3] - offsets[2]} bytes) skipped: corrupt gzip member (invalid block type); reading resumed after it`,
    );
  });

  it('a WARC cut in the middle of a record: earlier pages kept, error at the cut record', async () => {
    const whole = fixtureBytes('tiny.warc');
    const { pages: all } = await ingestBytes(whole, 'tiny.warc');
    const third = all[2].page.offset;
    const { pages, summary } = await ingestBytes(whole.subarray(0, third + 700), 'cut.warc');
    expect(pages.map((p) => p.page.url)).toEqual(all.slice(0, 2).map((p) => p.page.url));
    expect(summary.error).toMatchObject({ offset: third });
    expect(summary.error!.reason).toMatch(/truncated record/);
  });
});

describe('chunk boundaries do not matter', () => {
  for (const name of READABLE) {
    const sizes = name.endsWith('.gz') ? [Infinity, 1000] : [Infinity, 1000, 64, 7, 1];
    it(`${name}: pieces of ${sizes.join(', ')} bytes give identical pages and summary`, async () => {
      const ref = comparable(await ingestFixture(name, { chunkSize: Infinity }));
      for (const chunkSize of sizes.slice(1)) {
        expect(comparable(await ingestFixture(name, { chunkSize })), `chunk size ${chunkSize}`).toEqual(ref);
      }
    });
  }

  // Regression test (fixed in src).
  it('.gz fixtures in 7-, 13- and 64-byte pieces give the same pages as whole', async () => {
    for (const name of READABLE.filter((n) => n.endsWith('.gz'))) {
      // A fault is met sooner in smaller pieces, so how many bytes were read before it may differ.
      const same = (x: ReturnType<typeof comparable>) => ({
        ...x,
        summary: { ...x.summary, bytes: x.summary.error ? -1 : x.summary.bytes },
      });
      const ref = same(comparable(await ingestFixture(name, { chunkSize: Infinity })));
      for (const chunkSize of [7, 13, 64]) {
        expect(same(comparable(await ingestFixture(name, { chunkSize }))), `${name} / ${chunkSize}`).toEqual(
          ref,
        );
      }
    }
  });

  // Regression test (fixed in src).
  it('a .gz whose first chunk is 1 or 2 bytes long is still read as gzip', async () => {
    const data = fixtureBytes('tiny.warc.gz');
    async function* firstSmall(n: number): AsyncGenerator<Uint8Array> {
      yield data.slice(0, n);
      yield data.slice(n);
    }
    for (const n of [1, 2]) {
      const pages: number[] = [];
      const s = await ingest(
        firstSmall(n),
        { fileName: 'tiny.warc.gz', totalBytes: data.length },
        async (b) => {
          pages.push(...b.map((p) => p.page.seq));
        },
      );
      expect(s.compressed).toBe(true);
      expect(pages).toHaveLength(5);
    }
  });
});

describe('ingest() plumbing', () => {
  /** A WARC of `n` small resource records, over the 64 KiB the format is sniffed from. */
  function bigWarc(n: number): Uint8Array {
    return concat(...bigWarcRecords(n));
  }

  function bigWarcRecords(n: number): Uint8Array[] {
    const records: Uint8Array[] = [];
    for (let i = 0; i < n; i++) {
      records.push(
        warcRecord(
          [
            ['WARC-Type', 'resource'],
            ['WARC-Target-URI', `http://big.test/${i}.txt`],
            ['Content-Type', 'text/plain'],
          ],
          `record ${i} `.repeat(80),
        ),
      );
    }
    return records;
  }

  it('calls onFormat once before the first batch and flushes a batch once it holds batchSize pages', async () => {
    const data = bigWarc(300);
    expect(data.length).toBeGreaterThan(200 << 10);
    const events: string[] = [];
    const pages: number[] = [];
    await ingest(
      chunked(data, 4096),
      {
        fileName: 'big.warc',
        totalBytes: data.length,
        batchSize: 50,
        flushEveryMs: 0,
        onFormat: (f) => {
          events.push(`format:${f}`);
        },
      },
      async (b) => {
        events.push(`batch:${b.length}`);
        pages.push(...b.map((p) => p.page.seq));
      },
    );
    expect(events[0]).toBe('format:warc');
    expect(events.filter((e) => e.startsWith('format'))).toHaveLength(1);
    const sizes = events.slice(1).map((e) => Number(e.split(':')[1]));
    expect(sizes.length).toBeGreaterThan(2);
    // A batch is handed over once it reaches batchSize (it may hold more: a chunk's pages are added whole).
    for (const n of sizes.slice(0, -1)) expect(n).toBeGreaterThanOrEqual(50);
    expect(pages).toEqual([...Array(300).keys()]);
  });

  it('hands a batch over by time too: pages read slowly are stored long before a batch is full', async () => {
    const data = bigWarc(300);
    async function* slow(): AsyncIterable<Uint8Array> {
      for await (const c of chunked(data, 4096)) {
        await new Promise((ok) => setTimeout(ok, 5));
        yield c;
      }
    }
    const t0 = performance.now();
    const batches: { at: number; seqs: number[] }[] = [];
    await ingest(slow(), { fileName: 'slow.warc', totalBytes: data.length, flushEveryMs: 100 }, async (b) => {
      batches.push({ at: performance.now() - t0, seqs: b.map((p) => p.page.seq) });
    });
    // The first after half the interval, then one each interval: none waits for 500 pages.
    expect(batches.length).toBeGreaterThan(2);
    expect(batches[0].seqs.length).toBeLessThan(300);
    expect(batches[0].at).toBeLessThan(batches.at(-1)!.at);
    expect(batches.flatMap((b) => b.seqs)).toEqual([...Array(300).keys()]);
  });

  it('throws IngestCancelled when cancelled, after handing over the pages read so far', async () => {
    const data = bigWarc(300);
    let chunks = 0;
    const got: number[] = [];
    let formats = 0;
    const run = ingest(
      chunked(data, 4096),
      {
        fileName: 'big.warc',
        totalBytes: data.length,
        batchSize: 1000,
        onFormat: () => {
          formats++;
        },
        isCancelled: () => ++chunks > 30,
      },
      async (b) => {
        got.push(...b.map((p) => p.page.seq));
      },
    );
    await expect(run).rejects.toBeInstanceOf(IngestCancelled);
    expect(formats).toBe(1);
    // 30 × 4 KiB were read: the records that end (with their CRLFCRLF) in them were handed over, no more.
    let end = 0;
    const whole = bigWarcRecords(300).filter((r) => (end += r.length) <= 30 * 4096).length;
    expect(whole).toBeGreaterThan(50);
    expect(got.length).toBe(whole);
    expect(got).toEqual([...Array(got.length).keys()]);
  });

  it('fills the summary: bytes, decoded bytes, hosts', async () => {
    const gz = fixtureBytes('tiny.warc.gz');
    const { summary } = await ingestFixture('tiny.warc.gz');
    expect(summary.fileName).toBe('tiny.warc.gz');
    expect(summary.bytes).toBe(gz.length);
    expect(summary.bytesDecoded).toBe(gunzipSync(gz).length);
    expect(summary.hosts).toBe(1);
    expect(summary.warningCount).toBe(0);
  });

  it('reports progress, ending with the whole file read', async () => {
    const seen: IngestProgress[] = [];
    const data = fixtureBytes('tiny.warc');
    await ingestBytes(data, 'tiny.warc', { progressEveryMs: 0, onProgress: (p) => seen.push({ ...p }) });
    expect(seen.length).toBeGreaterThan(1);
    const last = seen[seen.length - 1];
    expect(last).toMatchObject({ bytesRead: data.length, totalBytes: data.length, records: 10, pages: 5 });
    for (let i = 1; i < seen.length; i++)
      expect(seen[i].bytesRead).toBeGreaterThanOrEqual(seen[i - 1].bytesRead);
  });
});
