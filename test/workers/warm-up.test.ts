/**
 * An idle ingest worker's warm-up (src/workers/warm-up.ts): it reads the embedded sample whole through the
 * core, keeps and writes nothing, and gives way to a job — it stops within one piece of input once busy.
 */
import 'fake-indexeddb/auto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random';
import { db } from '../../src/db/schema';
import { embeddedSampleBytes } from '../../src/workers/embedded-sample';
import { warmUp } from '../../src/workers/warm-up';
import { concat, httpResponse, warcRecord } from '../core/helpers';

/** A WARC.gz of `n` HTML captures with seeded words (each record its own gzip member, as crawlers write). */
function crawl(seed: number, n: number): Uint8Array {
  const rnd = seededRandom(seed);
  const word = () => Math.floor(rnd() * 1e9).toString(36);
  const members: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 200 + Math.floor(rnd() * 400) }, word).join(' ');
    const html = `<html><head><title>${word()}</title></head><body><p>${words}</p><a href="/${word()}">x</a></body></html>`;
    members.push(
      new Uint8Array(
        gzipSync(
          warcRecord(
            [
              ['WARC-Type', 'response'],
              ['WARC-Target-URI', `http://example.org/${i}/${word()}`],
              ['WARC-Date', '2024-01-01T00:00:00Z'],
            ],
            httpResponse(200, [['Content-Type', 'text/html; charset=utf-8']], html),
          ),
        ),
      ),
    );
  }
  return concat(...members);
}

describe('warm-up of an idle ingest worker', () => {
  it('reads the embedded sample whole and stores nothing', async () => {
    let asked = 0;
    const done = await warmUp(() => (asked++, false));
    expect(done).toBe(true);
    // It asked before each 16 KiB piece of the sample, in each of its reads.
    expect(asked).toBeGreaterThan(3 * ((await embeddedSampleBytes()).length >> 14));
    expect(await db().datasets.count()).toBe(0);
    expect(await db().chunks.count()).toBe(0);
  });

  it('gives way to a job within one piece of input, on random crawls', async () => {
    const seed = Number(process.env.WARM_SEED ?? Date.now() % 100_000);
    const rnd = seededRandom(seed);
    for (let round = 0; round < 4; round++) {
      const bytes = crawl(Math.floor(rnd() * 1e9), 100 + Math.floor(rnd() * 200));
      const pieces = Math.ceil(bytes.length / (1 << 14));
      // A job begins after the k-th question: the warm-up asks at most once more, then stops.
      const k = 1 + Math.floor(rnd() * Math.max(1, pieces - 1));
      let asked = 0;
      const done = await warmUp(
        () => ++asked > k,
        async () => bytes,
      );
      expect(done, `seed ${seed} round ${round}: stopped for the job`).toBe(false);
      expect(asked, `seed ${seed} round ${round}: asked ${asked} times, job at ${k}`).toBe(k + 1);
    }
  });

  it("stops for a job's message (a task) within a piece: it gives the event loop a turn", async () => {
    const bytes = crawl(7, 400);
    let busy = false;
    let asked = 0;
    // The job's message, as the worker receives it: a task queued before the warm-up starts.
    setTimeout(() => (busy = true), 0);
    const done = await warmUp(
      () => (asked++, busy),
      async () => bytes,
    );
    expect(done).toBe(false);
    expect(asked, `asked ${asked} times of ${bytes.length >> 14} pieces`).toBeLessThanOrEqual(4);
  });

  it('does nothing when a job has begun, and never throws', async () => {
    let loaded = false;
    expect(
      await warmUp(
        () => true,
        async () => ((loaded = true), new Uint8Array(0)),
      ),
    ).toBe(false);
    expect(loaded).toBe(false);
    expect(
      await warmUp(
        () => false,
        async () => {
          throw new Error('no sample');
        },
      ),
    ).toBe(false);
  });
});
