/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import type { DustParams } from '../core/dust';
import { runDust, type DustJobResult, type DustProgress } from './dust-job';

/** Thin Comlink adapter: DustBuster over one dataset, stored in Dexie. */
const api = {
  cancelled: false,
  cancel(): void {
    api.cancelled = true;
  },
  run(
    datasetId: number,
    params: Partial<DustParams>,
    onProgress: (p: DustProgress) => void,
  ): Promise<DustJobResult> {
    return runDust(datasetId, params, onProgress, () => api.cancelled);
  },
};

export type DustWorkerApi = typeof api;
Comlink.expose(api);
