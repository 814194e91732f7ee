/// <reference lib="webworker" />
import type { IngestProgress } from '../core/types';
import { Comlink, startIngestWorker, type WorkerHandle } from './client';
import { exposeJob } from './expose-job';
import { runIngest, runPart, type IngestRequest, type IngestWorkerApi, type PartRequest } from './ingest-job';
import { browserNatives } from './natives';

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
 * none.
 */
const WARM_AFTER_MS = 2000;
const warm: WorkerHandle<IngestWorkerApi>[] = [];
let jobBegun = false;
if (self.name !== 'ingest-part')
  setTimeout(() => {
    if (!jobBegun) for (let k = 1; k < PARTS; k++) warm.push(startIngestWorker('ingest-part'));
  }, WARM_AFTER_MS);

exposeJob(
  (req: IngestRequest, onProgress: (p: IngestProgress) => void, isCancelled) => {
    jobBegun = true;
    return runIngest(req, onProgress, isCancelled, {
      parts: PARTS,
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
    runPart: (req: PartRequest, onProgress: (p: IngestProgress) => void) =>
      runPart(req, onProgress, isCancelled),
  }),
);
// The SHA-1's WebAssembly is compiled as the worker starts (a spare one starts before the drop).
void browserNatives();
