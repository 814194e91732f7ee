/// <reference lib="webworker" />
import type { IngestProgress } from '../core/types';
import { Comlink, startIngestWorker, type WorkerHandle } from './client';
import { exposeJob } from './expose-job';
import { runIngest, runPart, type IngestRequest, type IngestWorkerApi, type PartRequest } from './ingest-job';
import { WARM_PARALLEL_MIN_BYTES } from './ingest-parts';
import { browserNatives } from './natives';
import { warmUp } from './warm-up';

/**
 * Thin adapter around one ingest job, on the one job lifecycle (exposeJob; the store runs it with
 * runWorkerJob). One worker per job; for a large WARC it starts one more worker per extra core and reads
 * the file's parts in parallel (see runIngest): those workers are this one, asked to `runPart`.
 */
const PARTS = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
/**
 * A job's worker (the spare, started before the drop) starts its part workers once it has been idle for
 * WARM_AFTER_MS, and they wait for a large file to be cut: a part worker started at the cut ran its module
 * ~300 ms later in Chromium. Not at once: a drop made right after the page opened then shared the two
 * cores with their start (docsite 1.20–1.21 → 1.28–1.31 s); nor once a job has begun. A part worker starts
 * none. At the same moment it and they warm up (warm-up.ts); once all of them have, a smaller file is read
 * in parts too (WARM_PARALLEL_MIN_BYTES).
 */
const WARM_AFTER_MS = 2000;
const warm: WorkerHandle<IngestWorkerApi>[] = [];
/** A job or a part has begun in this worker: no warm-up from then on. */
let busy = false;
/** This job worker's part workers are started and warmed up. */
let partsWarm = false;
if (self.name !== 'ingest-part')
  setTimeout(() => {
    if (busy) return;
    for (let k = 1; k < PARTS; k++) warm.push(startIngestWorker('ingest-part'));
    const parts = warm.map((w) => w.api.warmUp());
    void warmUp(() => busy);
    void Promise.all(parts).then(
      (done) => (partsWarm = done.length > 0 && done.every(Boolean)),
      () => {},
    );
  }, WARM_AFTER_MS);

exposeJob(
  (req: IngestRequest, onProgress: (p: IngestProgress) => void, isCancelled) => {
    busy = true;
    return runIngest(req, onProgress, isCancelled, {
      parts: PARTS,
      ...(partsWarm && warm.length === PARTS - 1 ? { minBytes: WARM_PARALLEL_MIN_BYTES } : {}),
      runner: () => {
        const w = warm.shift() ?? startIngestWorker('ingest-part');
        return {
          run: (part, progress) => w.api.runPart(part, Comlink.proxy(progress)),
          cancel: () => void w.api.cancel(),
          terminate: () => w.terminate(),
        };
      },
    });
  },
  (isCancelled) => ({
    runPart: (req: PartRequest, onProgress: (p: IngestProgress) => void) => {
      busy = true;
      return runPart(req, onProgress, isCancelled);
    },
    // Asked by the job worker that started this one ahead of a drop.
    warmUp: () => warmUp(() => busy),
  }),
);
// The SHA-1's WebAssembly is compiled as the worker starts (a spare one starts before the drop).
void browserNatives();
