import { ingestCrawl } from '../core/ingest/many-files';
import type { ByteSource } from '../core/ingest/wacz';
import { packChunk } from '../db/chunks';
import { embeddedSampleBytes } from './embedded-sample';
import { browserNatives } from './natives';

/**
 * An idle ingest worker reads the embedded sample once — the same core, natives and packing of contents as
 * a drop's read — and keeps nothing: nothing is stored, nothing is posted. Why: V8 compiles a read's hot
 * functions (Maglev, then TurboFan, on the renderer's thread pool) while they first run, and a worker
 * reading a drop cold shared the two cores of this machine with those compiles — 0.35 of the 1.46 CPU-s
 * all Chromium processes spent on docsite's drop went to the thread pool, the JIT's compiles most of it
 * (a trace: TurboFan 0.35 s, Maglev 0.14 s of the pool's tasks). A read that finds its functions compiled
 * is what an analyst's drop gets once the page has been open a few seconds.
 *
 * Measured in Chromium (drops 4 s after the page opened, medians, alternated against the previous build,
 * 2026-11-28): a generated 6 MB crawl, read by one worker either way, 0.661 → 0.587 s (5 drops each);
 * with the smaller files read in parts once warm (ingest-parts.ts WARM_PARALLEL_MIN_BYTES) docsite
 * 0.986 → 0.902 s (7 each), a generated 12 MB crawl 1.018 → 0.853 s (5 each). A drop made as the page
 * opens is neither helped nor slowed (docsite 1.10 / 1.09 s). The sample read takes ~0.3 s of a core,
 * once per worker.
 *
 * Stops at its next 64 KiB of input once `busy()` says a job or a part has begun in this worker (the job
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
    const src: ByteSource = {
      name: 'warm-up.warc.gz',
      size: bytes.length,
      read: async (start, end) => bytes.slice(start, end),
      stream: (start, end) => pieces(bytes, start, end, busy),
    };
    let chunk = 0;
    await ingestCrawl([src], { natives }, async (batch) => {
      // What the ingest job's sink does before it writes (db/page-writes.ts), written nowhere.
      packChunk(
        0,
        chunk++,
        batch.map((p) => p.content),
      );
    });
    return !busy();
  } catch {
    // Stopped for a job (WarmUpStopped), or anything else: a warm-up never reports.
    return false;
  }
}

class WarmUpStopped extends Error {}

const PIECE = 1 << 16;

async function* pieces(bytes: Uint8Array, start: number, end: number, busy: () => boolean) {
  for (let at = start; at < end; at += PIECE) {
    if (busy()) throw new WarmUpStopped();
    yield bytes.subarray(at, Math.min(end, at + PIECE));
  }
}
