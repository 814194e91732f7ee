/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import type { IngestProgress } from '../core/types';
import { runIngest, type IngestRequest, type IngestResult } from './ingest-job';

/** Thin Comlink adapter around one ingest job. One worker per job. */
const api = {
  cancelled: false,

  cancel(): void {
    api.cancelled = true;
  },

  run(req: IngestRequest, onProgress: (p: IngestProgress) => void): Promise<IngestResult> {
    return runIngest(req, onProgress, () => api.cancelled);
  },
};

export type IngestWorkerApi = typeof api;
Comlink.expose(api);
