import { create } from 'zustand';
import { DUST_DEFAULTS, type DustParams } from '../core/dust';
import type { StoredDustRun } from '../db/schema';
import { getDustRun } from '../db/results';
import { startDustWorker } from '../workers/client';
import { jobLock, onDataset, runJobInStore, type CancelSlot } from './jobs';
import { interruptedSince, markJobEnded } from './job-marks';
import { rememberSampleFiles, sampleFiles } from './sample-files';
import type { DustProgress } from '../workers/dust-job';

export type RuleSortKey = 'rank' | 'support' | 'likely' | 'status' | 'saved' | 'adds' | 'site';

interface DustState {
  datasetId: number | null;
  run: StoredDustRun | null;
  /** normalised URL → canonical URL (only where they differ), from the run. */
  canonical: Map<string, string>;
  mining: boolean;
  progress: DustProgress | null;
  error: string | null;
  /** When this dataset's last DUST job started, if a reload or a closed tab interrupted it (job-marks.ts). */
  interrupted: number | null;
  /** Forget the interrupted job without restarting it. */
  dismissInterrupted(): void;
  selectedRule: number | null;
  /** A rule id from the URL, applied once the run is loaded. */
  pendingRule: number | null;
  hostFilter: string;
  /** Text the rule's spelling or one of its instance URLs (so a host name) must contain. */
  ruleFilter: string;
  setRuleFilter(q: string): void;
  sort: { key: RuleSortKey; dir: 1 | -1 };
  /** Parameters of the next run: the last run's when there is one, else the paper's defaults. */
  params: DustParams;
  setParams(p: DustParams): void;
  load(datasetId: number | null): Promise<void>;
  /**
   * Mine the dataset's rules. A sample's partners are read from `files` (chosen again by the analyst),
   * else from the files this tab read it from (state/sample-files.ts), else not read.
   */
  mine(files?: File[]): Promise<void>;
  /** On a sample: whether the rules it could not validate are listed too (hidden by default). */
  showUnvalidated: boolean;
  setShowUnvalidated(on: boolean): void;
  cancel(): void;
  selectRule(id: number | null): void;
  setHostFilter(h: string): void;
  setSort(k: RuleSortKey): void;
}

const job: CancelSlot = { cancel: null };

export const useDust = create<DustState>((set, get) => ({
  datasetId: null,
  run: null,
  canonical: new Map(),
  mining: false,
  progress: null,
  error: null,
  interrupted: null,
  selectedRule: null,
  pendingRule: null,
  hostFilter: '',
  ruleFilter: '',
  sort: { key: 'rank', dir: 1 },
  params: { ...DUST_DEFAULTS },
  showUnvalidated: false,

  setShowUnvalidated(showUnvalidated) {
    set({ showUnvalidated });
  },

  setRuleFilter(ruleFilter) {
    set({ ruleFilter });
  },

  setParams(params) {
    set({ params });
  },

  async load(datasetId) {
    set({
      datasetId,
      run: null,
      canonical: new Map(),
      selectedRule: null,
      error: null,
      hostFilter: '',
      ruleFilter: '',
      showUnvalidated: get().datasetId === datasetId && get().showUnvalidated,
      interrupted: null,
    });
    if (datasetId === null) return;
    void interruptedSince(jobLock('dust', datasetId), get().mining).then((interrupted) => {
      if (get().datasetId === datasetId && !get().mining) set({ interrupted });
    });
    const run = await getDustRun(datasetId);
    if (get().datasetId !== datasetId) return;
    const pending = get().pendingRule;
    set({
      run,
      params: { ...DUST_DEFAULTS, ...(run?.params ?? {}) },
      canonical: new Map(run?.canonical ?? []),
      selectedRule: pending !== null && run?.rules.some((r) => r.id === pending) ? pending : null,
      pendingRule: null,
    });
  },

  async mine(chosen) {
    const id = get().datasetId;
    if (id === null) return;
    if (chosen) rememberSampleFiles(id, chosen);
    const files = sampleFiles(id);
    const on = onDataset('dust', id, get().params);
    set({ interrupted: null });
    await runJobInStore(set, get, {
      running: 'mining',
      slot: job,
      start: startDustWorker,
      ...on,
      args: { ...on.args, ...(files ? { files } : {}) },
      words: {
        doing: 'mining DUST rules',
        elsewhere: 'its rules appear here when it is done',
        worker: 'DUST',
      },
      async onDone() {
        if (get().datasetId === id) await get().load(id);
      },
    });
  },

  dismissInterrupted() {
    const id = get().datasetId;
    if (id !== null) markJobEnded(jobLock('dust', id));
    set({ interrupted: null });
  },

  cancel() {
    job.cancel?.();
  },

  selectRule(id) {
    set({ selectedRule: id });
  },

  setHostFilter(hostFilter) {
    set({ hostFilter });
  },

  setSort(key) {
    const s = get().sort;
    set({
      sort: { key, dir: s.key === key ? (-s.dir as 1 | -1) : key === 'rank' || key === 'site' ? 1 : -1 },
    });
  },
}));
