import { ingestCrawl } from '../core/ingest/many-files';
import type { ByteSource } from '../core/ingest/wacz';
import { prepareBatch } from '../db/page-writes';
import { eventLoopTurn } from './blob-source';
import { embeddedSampleBytes } from './embedded-sample';
import { browserNatives } from './natives';
import { warmUpCrawl } from './warm-up-crawl';

/**
 * An idle ingest worker reads the embedded sample and then warm-up-crawl.ts's crawl (pages in the HTML forms
 * real pages take and the sample's do not), ROUNDS times — the same core, natives and packing of contents as
 * a drop's read — and keeps nothing: nothing is stored, nothing is posted. Why: V8 compiles a read's hot
 * functions (Maglev, then TurboFan, on the renderer's thread pool) while they first run, and a worker
 * reading a drop cold shared the two cores of this machine with those compiles — 0.35 of the 1.46 CPU-s
 * all Chromium processes spent on docsite's drop went to the thread pool, the JIT's compiles most of it
 * (a trace: TurboFan 0.35 s, Maglev 0.14 s of the pool's tasks). A read that finds its functions compiled
 * is what an analyst's drop gets once the page has been open a few seconds.
 *
 * Measured in Chromium (drops 4 s after the page opened, medians of 5, alternated against the build before
 * the warm-up, 2026-11-28): a generated 6 MB crawl, read by one worker either way, 0.577 → 0.545 s; with
 * the smaller files read in parts once warm (ingest-parts.ts WARM_PARALLEL_MIN_BYTES) docsite 0.974 →
 * 0.789 s, a generated 12 MB crawl 0.990 → 0.739 s. A drop made as the page opens gets no warm-up
 * (docsite 1.118 / 1.081 s); one made while the workers warm up (2.3 s after the page opened) waits for
 * their current piece and shares the cores with them that long (docsite 0.995 / 1.029 s). The reads take
 * ~0.9 s of a core per worker, once, while the tab is idle (the page's call: state/spare-worker.ts).
 *
 * Stops at its next 16 KiB of input once `busy()` says a job or a part has begun in this worker (the job
 * shares the thread with it for at most that much); answers whether it read the sample whole.
 */
export async function warmUp(
  busy: () => boolean,
  sample: () => Promise<Uint8Array> = embeddedSampleBytes,
): Promise<boolean> {
  try {
    if (busy()) return false;
    const bytes = await sample();
    const natives = await browserNatives();
    if (busy()) return false;
    const crawls = [bytes, await warmUpCrawl()].map((b): ByteSource => ({
      name: 'warm-up.warc.gz',
      size: b.length,
      read: async (start, end) => b.slice(start, end),
      stream: (start, end) => pieces(b, start, end, busy),
    }));
    for (let round = 0; round < ROUNDS; round++)
      for (const src of crawls)
        await ingestCrawl([src], { natives }, async (batch) => {
          // What the ingest job's sink does before it writes (db/page-writes.ts), written nowhere.
          prepareBatch(0, batch);
        });
    return !busy();
  } catch {
    // Stopped for a job (WarmUpStopped), or anything else: a warm-up never reports.
    return false;
  }
}

/**
 * Reads of the sample. TurboFan still compiled 0.42 s (Maglev 0.18 s) on the pool during docsite's drop
 * after one read (a trace); after three, docsite dropped 4 s after the page opened in 0.845 s against
 * 0.898 s after one (medians of 7, alternated), a generated 12 MB crawl 0.817 against 0.857 s (of 5).
 */
const ROUNDS = 3;

class WarmUpStopped extends Error {}

/**
 * The sample is handed on 16 KiB at a time, each after a turn of the event loop: a job's message is a
 * task, which a read that only awaits promises would hold back to its end (three reads, ~0.9 s).
 */
const PIECE = 1 << 14;

async function* pieces(bytes: Uint8Array, start: number, end: number, busy: () => boolean) {
  for (let at = start; at < end; at += PIECE) {
    await eventLoopTurn();
    if (busy()) throw new WarmUpStopped();
    yield bytes.subarray(at, Math.min(end, at + PIECE));
  }
}
