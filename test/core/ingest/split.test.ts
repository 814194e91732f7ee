import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingest } from '../../../src/core/ingest/pipeline';
import { planSplits } from '../../../src/core/ingest/split';
import type { IngestedPage, IngestSummary } from '../../../src/core/types';

const ROOT = join(import.meta.dirname, '../../..');
const files = {
  'tiny.warc': join(ROOT, 'test/fixtures/tiny.warc'),
  'tiny.warc.gz': join(ROOT, 'test/fixtures/tiny.warc.gz'),
  'sample.warc.gz': join(ROOT, 'sample/sample.warc.gz'),
};

async function read(bytes: Uint8Array, name: string, offsetBase = 0, seqBase = 0) {
  const pages: IngestedPage[] = [];
  const summary: IngestSummary = await ingest(
    (async function* () {
      for (let i = 0; i < bytes.length; i += 4096) yield bytes.subarray(i, i + 4096);
    })(),
    { fileName: name, totalBytes: bytes.length, offsetBase, seqBase },
    async (b) => void pages.push(...b),
  );
  return { pages, summary };
}

/** What must not depend on how the file was cut (seq and revisit links are checked apart). */
const comparable = (p: IngestedPage) => ({
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
      it(`${name} cut in ${parts} parts reads the same pages, at the same file offsets`, async () => {
        const bytes = new Uint8Array(readFileSync(path));
        const plan = await planSplits(
          { size: bytes.length, read: async (a, b) => bytes.subarray(a, b) },
          parts,
        );
        expect(plan).not.toBeNull();
        expect(plan!.bounds[0]).toBe(0);
        expect(plan!.bounds.at(-1)).toBe(bytes.length);
        const whole = await read(bytes, name);
        const pieces: IngestedPage[] = [];
        const types: Record<string, number> = {};
        for (let k = 0; k + 1 < plan!.bounds.length; k++) {
          const [a, b] = [plan!.bounds[k], plan!.bounds[k + 1]];
          const r = await read(bytes.subarray(a, b), name, a, k * 2 ** 32);
          expect(r.summary.error).toBeNull();
          for (const [t, n] of Object.entries(r.summary.recordsByType)) types[t] = (types[t] ?? 0) + n;
          pieces.push(...r.pages);
        }
        expect(types).toEqual(whole.summary.recordsByType);
        expect(pieces.map((p) => ({ ...comparable(p), recordType: p.page.recordType }))).toEqual(
          whole.pages.map((p) => ({ ...comparable(p), recordType: p.page.recordType })),
        );
        // Seqs stay in file order across parts.
        const seqs = pieces.map((p) => p.page.seq);
        expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
      });
    }
  }

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
