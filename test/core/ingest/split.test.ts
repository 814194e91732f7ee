import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingest } from '../../../src/core/ingest/pipeline';
import { SEGMENT_SEQS } from '../../../src/core/ingest/parts';
import { planSplits, SPLIT_WINDOW } from '../../../src/core/ingest/split';
import { seededRandom, type Rng } from '../../../src/core/random';
import type { IngestedPage, IngestSummary } from '../../../src/core/types';
import { concat, httpResponse, warcRecord } from '../helpers';

const ROOT = join(import.meta.dirname, '../../..');
const files = {
  'tiny.warc': join(ROOT, 'test/fixtures/tiny.warc'),
  'tiny.warc.gz': join(ROOT, 'test/fixtures/tiny.warc.gz'),
  'sample.warc.gz': join(ROOT, 'sample/sample.warc.gz'),
};

async function read(bytes: Uint8Array, name: string, segmentBytes: number, offsetBase = 0) {
  const pages: IngestedPage[] = [];
  const summary: IngestSummary = await ingest(
    (async function* () {
      for (let i = 0; i < bytes.length; i += 4096) yield bytes.subarray(i, i + 4096);
    })(),
    { fileName: name, totalBytes: bytes.length, offsetBase, segmentBytes },
    async (b) => void pages.push(...b),
  );
  return { pages, summary };
}

/** What must not depend on how the file was cut (revisit links are checked apart). */
const comparable = (p: IngestedPage) => ({
  seq: p.page.seq,
  url: p.page.url,
  title: p.page.recordType === 'revisit' ? '' : p.page.title,
  fingerprint: p.page.recordType === 'revisit' ? '' : p.page.fingerprint,
  status: p.page.status,
  offset: p.page.offset,
  text: p.content.text,
});

const SPLIT_SEED = Number(process.env.SPLIT_SEED ?? 20261128);

/**
 * A WARC.gz of members of every length (some longer than a test's window, some incompressible), with junk
 * between some of them: bytes that look like a gzip member's start and are not, or a member cut short.
 */
function randomGzipCrawl(rnd: Rng): Uint8Array {
  const parts: Uint8Array[] = [];
  const n = 5 + Math.floor(rnd() * 40);
  for (let i = 0; i < n; i++) {
    const size = Math.floor(rnd() ** 4 * 20000);
    let body = `<title>p${i}</title>` + 'x'.repeat(size);
    if (rnd() < 0.3) {
      const noise = new Uint8Array(size);
      for (let k = 0; k < size; k++) noise[k] = (rnd() * 256) | 0;
      body = Buffer.from(noise).toString('latin1');
    }
    const rec = warcRecord(
      [
        ['WARC-Type', rnd() < 0.1 ? 'metadata' : 'response'],
        ['WARC-Target-URI', `http://s.test/${i}`],
      ],
      httpResponse(200, [['Content-Type', 'text/html']], body),
    );
    parts.push(gzipSync(rec, { level: 1 + Math.floor(rnd() * 9) }));
    const junk = rnd();
    if (junk < 0.1)
      parts.push(
        new Uint8Array([0x1f, 0x8b, 8, 0, ...Array.from({ length: 30 }, () => Math.floor(rnd() * 256))]),
      );
    else if (junk < 0.15) parts.push(gzipSync(rec).subarray(0, 10 + Math.floor(rnd() * 40)));
  }
  return concat(...parts);
}

describe('planSplits', () => {
  for (const [name, path] of Object.entries(files)) {
    for (const parts of [2, 3, 4]) {
      it(`${name} cut in ${parts} parts reads the same pages, numbered alike, at the same file offsets`, async () => {
        const bytes = new Uint8Array(readFileSync(path));
        // Sixteen numbering segments: the cuts fall on their boundaries.
        const segmentBytes = Math.ceil(bytes.length / 16);
        const plan = await planSplits(
          { size: bytes.length, read: async (a, b) => bytes.subarray(a, b) },
          parts,
          segmentBytes,
        );
        expect(plan).not.toBeNull();
        expect(plan!.bounds[0]).toBe(0);
        expect(plan!.bounds.at(-1)).toBe(bytes.length);
        const whole = await read(bytes, name, segmentBytes);
        const pieces: IngestedPage[] = [];
        const types: Record<string, number> = {};
        for (let k = 0; k + 1 < plan!.bounds.length; k++) {
          const [a, b] = [plan!.bounds[k], plan!.bounds[k + 1]];
          const r = await read(bytes.subarray(a, b), name, segmentBytes, a);
          expect(r.summary.error).toBeNull();
          for (const [t, n] of Object.entries(r.summary.recordsByType)) types[t] = (types[t] ?? 0) + n;
          pieces.push(...r.pages);
        }
        expect(types).toEqual(whole.summary.recordsByType);
        expect(pieces.map((p) => ({ ...comparable(p), recordType: p.page.recordType }))).toEqual(
          whole.pages.map((p) => ({ ...comparable(p), recordType: p.page.recordType })),
        );
        // Seqs stay in file order across parts, segment by segment.
        const seqs = pieces.map((p) => p.page.seq);
        expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
        expect(new Set(pieces.map((p) => Math.floor(p.page.seq / SEGMENT_SEQS))).size).toBeGreaterThan(1);
      });
    }
  }

  it('numbers pages alike in parts and in order, over random crawls, segment sizes and part counts', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rnd = seededRandom(seed);
      const gz = rnd() < 0.5;
      const records: Uint8Array[] = [];
      const n = 20 + Math.floor(rnd() * 200);
      for (let i = 0; i < n; i++) {
        // Records of 100 B to 6 KB: some longer than a segment, some segments without a record start.
        const body = `<title>p${i}</title>` + 'x'.repeat(Math.floor(rnd() ** 3 * 6000));
        const r = warcRecord(
          [
            ['WARC-Type', rnd() < 0.1 ? 'metadata' : 'response'],
            ['WARC-Target-URI', `http://s.test/${i}`],
          ],
          httpResponse(200, [['Content-Type', 'text/html']], body),
        );
        records.push(gz ? gzipSync(r) : r);
      }
      const bytes = concat(...records);
      const segmentBytes = 256 + Math.floor(rnd() * 8192);
      const parts = 2 + Math.floor(rnd() * 5);
      const name = gz ? 'r.warc.gz' : 'r.warc';
      const plan = await planSplits(
        { size: bytes.length, read: async (a, b) => bytes.subarray(a, b) },
        parts,
        segmentBytes,
      );
      const whole = await read(bytes, name, segmentBytes);
      const pieces: IngestedPage[] = [];
      const bounds = plan?.bounds ?? [0, bytes.length];
      for (let k = 0; k + 1 < bounds.length; k++)
        pieces.push(
          ...(await read(bytes.subarray(bounds[k], bounds[k + 1]), name, segmentBytes, bounds[k])).pages,
        );
      expect(pieces.map(comparable), `seed ${seed}`).toEqual(whole.pages.map(comparable));
    }
  });

  it(`cuts where one read of the whole window cuts, whatever its first read (SPLIT_SEED=${SPLIT_SEED})`, async () => {
    const outcomes = { cut: 0, none: 0, grew: 0 };
    for (let t = 0; t < 150; t++) {
      const rnd = seededRandom(SPLIT_SEED + t);
      const bytes = randomGzipCrawl(rnd);
      const max = 512 + Math.floor(rnd() * 16384);
      const first = 1 + Math.floor(rnd() * max);
      const parts = 2 + Math.floor(rnd() * 4);
      const segmentBytes = 64 + Math.floor(rnd() * 4096);
      const reads: number[] = [];
      const src = {
        size: bytes.length,
        read: async (a: number, b: number) => {
          reads.push(b - a);
          return bytes.subarray(a, b);
        },
      };
      const got = await planSplits(src, parts, segmentBytes, { first, max });
      const want = await planSplits(src, parts, segmentBytes, { first: max, max });
      expect(got, `case ${t} (seed ${SPLIT_SEED + t}): first ${first}, max ${max}`).toEqual(want);
      expect(Math.max(...reads), `case ${t}`).toBeLessThanOrEqual(Math.max(max, first));
      outcomes[want ? 'cut' : 'none']++;
      if (reads.some((n) => n > first)) outcomes.grew++;
    }
    // The cases cover both answers, and reads that had to grow.
    expect(outcomes.cut).toBeGreaterThan(30);
    expect(outcomes.none).toBeGreaterThan(10);
    expect(outcomes.grew).toBeGreaterThan(30);
    // The app's windows on the fixtures: the same cuts as one 4 MiB read.
    const sample = new Uint8Array(readFileSync(files['sample.warc.gz']));
    const src = { size: sample.length, read: async (a: number, b: number) => sample.subarray(a, b) };
    for (const parts of [2, 3, 4])
      expect(await planSplits(src, parts, 4096)).toEqual(
        await planSplits(src, parts, 4096, { first: SPLIT_WINDOW.max, max: SPLIT_WINDOW.max }),
      );
  });

  it('does not split a whole-file gzip or a non-WARC file', async () => {
    for (const f of ['tiny-single-member.warc.gz', 'crawl.log', 'access.log']) {
      const bytes = new Uint8Array(readFileSync(join(ROOT, 'test/fixtures', f)));
      expect(
        await planSplits({ size: bytes.length, read: async (a, b) => bytes.subarray(a, b) }, 2),
        f,
      ).toBeNull();
    }
  });
});
