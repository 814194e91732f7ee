/// <reference lib="webworker" />
import type { IngestProgress } from '../core/types';
import { Comlink, startIngestWorker } from './client';
import { exposeJob } from './expose-job';
import { runIngest, runPart, type IngestRequest, type PartRequest } from './ingest-job';
import { browserNatives } from './natives';

/**
 * Thin adapter around one ingest job, on the one job lifecycle (exposeJob; the store runs it with
 * runWorkerJob). One worker per job; for a large WARC it starts one more worker per extra core and reads
 * the file's parts in parallel (see runIngest): those workers are this one, asked to `runPart`.
 */
exposeJob(
  (req: IngestRequest, onProgress: (p: IngestProgress) => void, isCancelled) =>
    runIngest(req, onProgress, isCancelled, {
      parts: Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1)),
      runner: () => {
        const w = startIngestWorker();
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
