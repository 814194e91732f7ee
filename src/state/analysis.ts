import { create } from 'zustand';
import { ENGINE_DEFAULTS } from '../core/candidates/engine';
import { DEFAULT_THRESHOLDS, type MethodId, type Thresholds } from '../core/candidates/methods';
import { db, type StoredAnalysis } from '../db/schema';
import { Comlink, startSignaturesWorker, type WorkerHandle } from '../workers/client';
import type { AnalysisProgress } from '../workers/signatures-job';
import { paramsKey } from '../workers/signatures-job';
import type { SignaturesWorkerApi } from '../workers/signatures.worker';

export type ClusterMode = 'components' | 'star';

interface AnalysisState {
  datasetId: number | null;
  analysis: StoredAnalysis | null;
  loading: boolean;
  progress: AnalysisProgress | null;
  computing: boolean;
  error: string | null;
  method: MethodId;
  thresholds: Thresholds;
  mode: ClusterMode;
  /** Index of the selected cluster in the current cluster list. */
  selectedCluster: number | null;
  load(datasetId: number | null): Promise<void>;
  compute(): Promise<void>;
  cancel(): void;
  setMethod(m: MethodId): void;
  setThreshold<K extends keyof Thresholds>(k: K, v: Thresholds[K]): void;
  setMode(m: ClusterMode): void;
  selectCluster(i: number | null): void;
}

let handle: WorkerHandle<SignaturesWorkerApi> | null = null;

export const useAnalysis = create<AnalysisState>((set, get) => ({
  datasetId: null,
  analysis: null,
  loading: false,
  progress: null,
  computing: false,
  error: null,
  method: 'rp-hm',
  thresholds: DEFAULT_THRESHOLDS,
  mode: 'components',
  selectedCluster: null,

  async load(datasetId) {
    set({ datasetId, analysis: null, loading: datasetId !== null, selectedCluster: null, error: null });
    if (datasetId === null) return;
    const key = paramsKey(ENGINE_DEFAULTS);
    const analysis = (await db().analyses.get([datasetId, key])) ?? null;
    if (get().datasetId === datasetId) set({ analysis, loading: false });
  },

  async compute() {
    const id = get().datasetId;
    if (id === null || get().computing) return;
    set({ computing: true, progress: null, error: null });
    handle = startSignaturesWorker();
    try {
      const r = await handle.api.run(
        id,
        ENGINE_DEFAULTS,
        Comlink.proxy((p: AnalysisProgress) => set({ progress: p })),
      );
      if (r.kind === 'failed') set({ error: `Computing signatures failed: ${r.message}` });
      if (r.kind === 'done' && get().datasetId === id) {
        const analysis = (await db().analyses.get([id, r.paramsKey])) ?? null;
        set({ analysis, selectedCluster: null });
      }
    } catch (e) {
      set({ error: `The signatures worker failed: ${(e as Error).message}` });
    } finally {
      handle?.terminate();
      handle = null;
      set({ computing: false, progress: null });
    }
  },

  cancel() {
    void handle?.api.cancel();
  },

  setMethod(method) {
    set({ method, selectedCluster: null });
  },

  setThreshold(k, v) {
    set({ thresholds: { ...get().thresholds, [k]: v } });
  },

  setMode(mode) {
    set({ mode, selectedCluster: null });
  },

  selectCluster(i) {
    set({ selectedCluster: i });
  },
}));
