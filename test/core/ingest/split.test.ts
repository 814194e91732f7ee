import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingest } from '../../../src/core/ingest/pipeline';
import { SEGMENT_SEQS } from '../../../src/core/ingest/parts';
import { planSplits } from '../../../src/core/ingest/split';
import { seededRandom } from '../../../src/core/random';
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
