/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import type { IngestProgress } from '../core/types';
import { startIngestWorker } from './client';
import {
  runIngest,
  runPart,
  type IngestRequest,
  type IngestResult,
  type PartRequest,
  type PartResult,
} from './ingest-job';
import { browserNatives } from './natives';

/**
 * Thin Comlink adapter around one ingest job. One worker per job; for a large WARC it starts one more
 * worker per extra core and reads the file's parts in parallel (see runIngest).
 */
const api = {
  cancelled: false,

  cancel(): void {
    api.cancelled = true;
  },

  run(req: IngestRequest, onProgress: (p: IngestProgress) => void): Promise<IngestResult> {
    const parts = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
    return runIngest(req, onProgress, () => api.cancelled, {
      parts,
      runner: () => {
        const w = startIngestWorker();
        return {
          run: (part, progress) => w.api.runPart(part, Comlink.proxy(progress)),
          cancel: () => void w.api.cancel(),
          terminate: () => w.terminate(),
        };
      },
    });
  },

  runPart(req: PartRequest, onProgress: (p: IngestProgress) => void): Promise<PartResult> {
    return runPart(req, onProgress, () => api.cancelled);
  },
};

export type IngestWorkerApi = typeof api;
Comlink.expose(api);
// The SHA-1's WebAssembly is compiled as the worker starts (a spare one starts before the drop).
void browserNatives();
