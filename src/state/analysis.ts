import { create } from 'zustand';
import { ENGINE_DEFAULTS, type EngineParams } from '../core/candidates/engine-params';
import {
  DEFAULT_METHOD,
  DEFAULT_THRESHOLDS,
  type MethodId,
  type Thresholds,
} from '../core/candidates/methods';
import { DEFAULT_CLUSTERING, type ClusterMode } from '../core/clusters/view';
import { DEFAULT_KEEP, type KeepKey } from '../core/clusters/kept';
import { LOSES_TEXT_DEFAULT } from '../core/clusters/loses-text';
import type { StoredAnalysis } from '../db/schema';
import { analysesOf, getAnalysis } from '../db/results';
import { startSignaturesWorker } from '../workers/client';
import { jobLock, onDataset, runJobInStore, type CancelSlot } from './jobs';
import { interruptedSince, markJobEnded } from './job-marks';
import type { AnalysisProgress } from '../workers/signatures-job';
import { paramsKey } from '../workers/signatures-job';

export type { ClusterMode };

interface AnalysisState {
  datasetId: number | null;
  analysis: StoredAnalysis | null;
  loading: boolean;
  progress: AnalysisProgress | null;
  computing: boolean;
  error: string | null;
  /** When this dataset's last signatures job started, if a reload or a closed tab interrupted it (job-marks.ts). */
  interrupted: number | null;
  /** Forget the interrupted job without restarting it. */
  dismissInterrupted(): void;
  method: MethodId;
  thresholds: Thresholds;
  mode: ClusterMode;
  /** The kept-copy policy (core/clusters/kept.ts), in the order its keys apply. */
  keep: readonly KeepKey[];
  /** A removed member whose text the kept copy lacks beyond this share is flagged (loses-text.ts). */
  losesText: number;
  /** Flagged members are removed all the same. */
  removeLosing: boolean;
  /**
   * The selected cluster's id (state/clusters.ts clusterId: the seq of the page it is known by), never
   * its row: a slider, method or clustering change re-sorts the list, and the selection stays on the
   * cluster holding that page (ClusterList follows it, src/state/selection.ts).
   */
  selectedClusterId: number | null;
  /** A cluster id from the URL, applied once the analysis is loaded. */
  pendingClusterId: number | null;
  /** Signature parameters; changing one needs a recomputation (thresholds do not). */
  params: EngineParams;
  /** The shown analysis was computed with other parameters than `params`. */
  stale: boolean;
  setParams(p: EngineParams): void;
  load(datasetId: number | null): Promise<void>;
  compute(): Promise<void>;
  cancel(): void;
  setMethod(m: MethodId): void;
  setThreshold<K extends keyof Thresholds>(k: K, v: Thresholds[K]): void;
  setMode(m: ClusterMode): void;
  setKeep(k: readonly KeepKey[]): void;
  setLosesText(share: number, remove: boolean): void;
  selectCluster(id: number | null): void;
}

const job: CancelSlot = { cancel: null };

export const useAnalysis = create<AnalysisState>((set, get) => ({
  datasetId: null,
  analysis: null,
  loading: false,
  progress: null,
  computing: false,
  error: null,
  interrupted: null,
  method: DEFAULT_METHOD,
  thresholds: DEFAULT_THRESHOLDS,
  mode: DEFAULT_CLUSTERING,
  keep: DEFAULT_KEEP,
  losesText: LOSES_TEXT_DEFAULT,
  removeLosing: false,
  selectedClusterId: null,
  pendingClusterId: null,
  params: ENGINE_DEFAULTS,
  stale: false,

  setParams(params) {
    const a = get().analysis;
    set({ params, stale: !!a && a.paramsKey !== paramsKey(params) });
    // An analysis stored earlier for these parameters is shown at once; else the pane offers to recompute.
    const id = get().datasetId;
    if (id !== null) {
      void getAnalysis(id, paramsKey(params)).then((found) => {
        if (found && get().datasetId === id && paramsKey(get().params) === found.paramsKey) {
          set({ analysis: found, stale: false, selectedClusterId: null });
        }
      });
    }
  },

  async load(datasetId) {
    set({
      datasetId,
      analysis: null,
      loading: datasetId !== null,
      selectedClusterId: null,
      error: null,
      stale: false,
      interrupted: null,
    });
    if (datasetId === null) return;
    void interruptedSince(jobLock('signatures', datasetId), get().computing).then((interrupted) => {
      if (get().datasetId === datasetId && !get().computing) set({ interrupted });
    });
    const key = paramsKey(get().params);
    // The analysis for the current parameters, else the latest one of this dataset (marked stale).
    let analysis = await getAnalysis(datasetId, key);
    let stale = false;
    if (!analysis) {
      const all = await analysesOf(datasetId);
      all.sort((x, y) => (x.created < y.created ? 1 : -1));
      analysis = all[0] ?? null;
      stale = analysis !== null;
    }
    if (get().datasetId === datasetId) {
      set({
        analysis,
        stale,
        loading: false,
        selectedClusterId: analysis ? get().pendingClusterId : null,
        pendingClusterId: null,
      });
    }
  },

  async compute() {
    const id = get().datasetId;
    if (id === null) return;
    set({ interrupted: null });
    await runJobInStore(set, get, {
      running: 'computing',
      slot: job,
      start: startSignaturesWorker,
      ...onDataset('signatures', id, get().params),
      words: {
        doing: 'computing signatures',
        elsewhere: 'they appear here when it is done',
        worker: 'signatures',
      },
      async onDone(r) {
        if (get().datasetId !== id) return;
        const analysis = await getAnalysis(id, r.paramsKey);
        set({ analysis, selectedClusterId: null, stale: false });
      },
    });
  },

  dismissInterrupted() {
    const id = get().datasetId;
    if (id !== null) markJobEnded(jobLock('signatures', id));
    set({ interrupted: null });
  },

  cancel() {
    job.cancel?.();
  },

  setMethod(method) {
    set({ method });
  },

  setThreshold(k, v) {
    set({ thresholds: { ...get().thresholds, [k]: v } });
  },

  setMode(mode) {
    set({ mode });
  },

  setKeep(keep) {
    set({ keep });
  },

  setLosesText(losesText, removeLosing) {
    set({ losesText, removeLosing });
  },

  selectCluster(id) {
    set({ selectedClusterId: id });
  },
}));
