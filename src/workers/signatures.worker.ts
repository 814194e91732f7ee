/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import type { EngineParams } from '../core/candidates/engine';
import { runAnalysis, type AnalysisProgress, type AnalysisResult } from './signatures-job';

/** Thin Comlink adapter: signatures + candidates of one dataset, stored in Dexie. */
const api = {
  cancelled: false,
  cancel(): void {
    api.cancelled = true;
  },
  run(
    datasetId: number,
    params: Partial<EngineParams>,
    onProgress: (p: AnalysisProgress) => void,
  ): Promise<AnalysisResult> {
    return runAnalysis(datasetId, params, onProgress, () => api.cancelled);
  },
};

export type SignaturesWorkerApi = typeof api;
Comlink.expose(api);
