import { create } from 'zustand';
import type { BatchResultView } from '../core/batch/result';
import type { LabelValue } from '../core/eval/estimators';
import { startBatchResultWorker } from '../workers/client';
import { runJobInStore, type CancelSlot } from './jobs';

/**
 * The "Batch result" view: a result folder of `npm run batch` opened from disk, read in a worker, and
 * labels on its sampled pairs. Labels stay in memory: the result is not a dataset of this browser (no
 * page text at scale, only URLs), and a reload re-opens the folder and draws the same seeded sample.
 */
interface BatchState {
  open: boolean;
  reading: boolean;
  progress: { phase: string } | null;
  error: string | null;
  view: BatchResultView | null;
  files: string[];
  /** Label per sampled pair (index into view.sampledPairs). */
  labels: (LabelValue | undefined)[];
  cursor: number;
  openFiles(files: File[]): Promise<void>;
  close(): void;
  label(i: number, v: LabelValue | undefined): void;
  move(i: number): void;
}

const job: CancelSlot = { cancel: null };

export const useBatch = create<BatchState>((set, get) => ({
  open: false,
  reading: false,
  progress: null,
  error: null,
  view: null,
  files: [],
  labels: [],
  cursor: 0,

  async openFiles(files) {
    set({ open: true, view: null, files: [], labels: [], cursor: 0 });
    await runJobInStore(set, get, {
      running: 'reading',
      slot: job,
      start: startBatchResultWorker,
      args: { files },
      lock: 'batch-result',
      words: {
        doing: 'reading the batch result',
        elsewhere: 'open it again when it is done',
        worker: 'batch result',
      },
      onDone: (r) => set({ view: r.view, files: r.files, labels: r.view.sampledPairs.map(() => undefined) }),
    });
  },

  close() {
    job.cancel?.();
    set({ open: false, view: null, files: [], labels: [], cursor: 0, error: null });
  },

  label(i, v) {
    const labels = get().labels.slice();
    if (i < 0 || i >= labels.length) return;
    labels[i] = v;
    set({ labels, cursor: Math.min(i + 1, labels.length - 1) });
  },

  move(i) {
    const n = get().labels.length;
    if (n) set({ cursor: Math.max(0, Math.min(n - 1, i)) });
  },
}));
