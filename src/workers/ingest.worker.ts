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
 * A job's worker (the spare, started before the drop) starts its part workers with it, idle until a
 * large file is cut: a part worker started at the cut ran its module ~300 ms later in Chromium, the
 * wait that kept files under PARALLEL_MIN_BYTES in one worker. A part worker starts none.
 */
const warm: WorkerHandle<IngestWorkerApi>[] =
  self.name === 'ingest-part'
    ? []
    : Array.from({ length: PARTS - 1 }, () => startIngestWorker('ingest-part'));

exposeJob(
  (req: IngestRequest, onProgress: (p: IngestProgress) => void, isCancelled) =>
    runIngest(req, onProgress, isCancelled, {
      parts: PARTS,
      runner: () => {
        const w = warm.shift() ?? startIngestWorker('ingest-part');
        return {
          run: (part, progress) => w.api.runPart(part, Comlink.proxy(progress)),
          cancel: () => void w.api.cancel(),
          terminate: () => w.terminate(),
        };
      },
    }),
  (isCancelled) => ({
    runPart: (req: PartRequest, onProgress: (p: IngestProgress) => void) =>
      runPart(req, onProgress, isCancelled),
  }),
);
// The SHA-1's WebAssembly is compiled as the worker starts (a spare one starts before the drop).
void browserNatives();
