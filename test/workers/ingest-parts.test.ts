/**
 * The browser's parallel parts (src/workers/ingest-parts.ts runParallel): the progress the parts report is
 * passed on summed, at most once per 100 ms (each sum is a render of the page).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ingest } from '../../src/core/ingest/pipeline';
import type { IngestProgress, IngestSummary } from '../../src/core/types';
import { runParallel, type PartResult, type PartRunner } from '../../src/workers/ingest-parts';
import { concat, httpResponse, warcRecord } from '../core/helpers';

/** A real summary of a one-page WARC (what a part answers), read by the core. */
async function summaryOf(name: string): Promise<IngestSummary> {
  const warc = concat(
    warcRecord(
      [
        ['WARC-Type', 'response'],
        ['WARC-Target-URI', `http://example.test/${name}`],
        ['WARC-Date', '2024-01-15T10:00:00Z'],
      ],
      httpResponse(200, [['Content-Type', 'text/html']], `<title>${name}</title><p>text</p>`),
    ),
  );
  return ingest(
    (async function* () {
      yield warc;
    })(),
    { fileName: name, totalBytes: warc.length },
    async () => {},
  );
}

const progress = (bytesRead: number): IngestProgress => ({
  bytesRead,
  totalBytes: 1000,
  bytesDecoded: bytesRead,
  records: 0,
  pages: 0,
  elapsedMs: 0,
});

describe('runParallel', () => {
  it('passes the parts’ progress on at most every 100 ms', async () => {
    const done = (s: IngestSummary): PartResult => ({ kind: 'done', summary: s, revisits: [] });
    const [a, b] = await Promise.all([summaryOf('a'), summaryOf('b')]);
    const sent: number[] = [];
    const burst = async (report: (p: IngestProgress) => void) => {
      // 50 reports at once, then one more 150 ms later.
      for (let i = 0; i < 50; i++) report(progress(i));
      await new Promise((r) => setTimeout(r, 150));
      report(progress(100));
    };
    const spawn = (): PartRunner => ({
      run: async (_req, onProgress) => {
        await burst(onProgress);
        return done(b);
      },
      cancel: () => {},
      terminate: () => {},
    });
    await runParallel(
      new File([new Uint8Array(1000)], 'crawl.warc'),
      1,
      { format: 'warc', compressed: false, bounds: [0, 500, 1000] },
      {
        source: 0,
        seqBase: 0,
        baseUrl: '',
        onProgress: () => sent.push(performance.now()),
        onFormat: async () => {},
        tag: () => {},
      },
      () => false,
      spawn,
      async (_req, onProgress) => {
        await burst(onProgress);
        return done(a);
      },
    );
    // 102 reports: one sum at once, one after the pause (both parts report within the same 100 ms).
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(3);
    for (let i = 1; i < sent.length; i++) expect(sent[i] - sent[i - 1]).toBeGreaterThanOrEqual(99);
  });
});
