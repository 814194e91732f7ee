import { create } from 'zustand';
import type { BatchResultView, SampledCluster, SampledPair } from '../core/batch/result';
import type { MemberText } from '../workers/batch-result.worker';
import type { LabelValue } from '../core/eval/estimators';
import { startBatchResultWorker } from '../workers/client';
import { runJobInStore, type CancelSlot } from './jobs';

/**
 * The "Batch result" view: a result folder of `npm run batch` opened from disk, read in a worker, and
 * labels on its sampled pairs. Labels stay in memory: the result is not a dataset of this browser (no
 * page text at scale, only URLs), and a reload re-opens the folder and draws the same seeded sample.
 */
/**
 * The pairs labelled: a simple random sample of the verified pairs (its labels estimate the precision
 * at scale), or for review the least similar accepted pairs, or the most similar rejected ones.
 */
export type BatchQueue = 'sample' | 'weakest' | 'rejected';

/** The pairs of a queue. */
export function queuePairs(view: BatchResultView, q: BatchQueue): readonly SampledPair[] {
  return q === 'sample'
    ? view.sampledPairs
    : q === 'weakest'
      ? view.weakestAccepted
      : (view.strongestRejected ?? []);
}

interface BatchState {
  open: boolean;
  reading: boolean;
  progress: { phase: string } | null;
  error: string | null;
  view: BatchResultView | null;
  files: string[];
  /** The queue shown; labels and cursor are its own (each queue keeps its labels while another shows). */
  queue: BatchQueue;
  /** Label per pair of the queue shown (index into queuePairs). */
  labels: (LabelValue | undefined)[];
  cursor: number;
  /** The other queues' labels and cursors, kept while they are not shown. */
  stash: Partial<Record<BatchQueue, { labels: (LabelValue | undefined)[]; cursor: number }>>;
  setQueue(q: BatchQueue): void;
  /** The crawl files opened with the result, to read members' texts from (by shard name and offset). */
  crawl: File[];
  /** Members' texts read, by cluster; the cluster being read; why a read failed. */
  texts: Record<string, MemberText[]>;
  readingTexts: string | null;
  textsError: string | null;
  openCrawl(files: File[]): void;
  readTexts(cluster: SampledCluster): Promise<void>;
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
  queue: 'sample',
  labels: [],
  cursor: 0,
  stash: {},
  crawl: [],
  texts: {},
  readingTexts: null,
  textsError: null,

  openCrawl(files) {
    set({ crawl: files, texts: {}, textsError: null });
  },

  async readTexts(cluster) {
    const { crawl, texts } = get();
    if (crawl.length === 0 || texts[cluster.cluster] || get().readingTexts) return;
    set({ readingTexts: cluster.cluster, textsError: null });
    const worker = startBatchResultWorker();
    try {
      const read = await worker.api.readTexts(
        crawl,
        cluster.urls.map((url, i) => ({ url, ...cluster.places[i] })),
      );
      set({ texts: { ...get().texts, [cluster.cluster]: read } });
    } catch (e) {
      set({ textsError: e instanceof Error ? e.message : String(e) });
    } finally {
      worker.terminate();
      set({ readingTexts: null });
    }
  },

  async openFiles(files) {
    set({ open: true, view: null, files: [], labels: [], cursor: 0, queue: 'sample', stash: {} });
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
    set({
      open: false,
      view: null,
      files: [],
      labels: [],
      cursor: 0,
      error: null,
      queue: 'sample',
      stash: {},
    });
  },

  setQueue(q) {
    const { view, queue, labels, cursor, stash } = get();
    if (!view || q === queue) return;
    const kept = { ...stash, [queue]: { labels, cursor } };
    const next = kept[q] ?? { labels: queuePairs(view, q).map(() => undefined), cursor: 0 };
    set({ queue: q, labels: next.labels, cursor: next.cursor, stash: kept });
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
