import type { WorkerHandle } from '../workers/client';
import { Comlink } from '../workers/client';
import type { JobOutcome } from '../core/jobs';
import type { JobApi } from '../workers/expose-job';
import { whenDatasetGone } from '../db/orphans';
import { db } from '../db/schema';
import { jobEnded, jobStarted } from './spare-worker';
import { markJobEnded, markJobStarted } from './job-marks';

/** A job running in its own worker: its result, and cancel. */
export interface RunningJob<R> {
  result: Promise<R | { kind: 'busy' }>;
  cancel(): void;
}

/**
 * The client side of the one job lifecycle: start the job's worker, run it with progress, terminate the
 * worker at the end whatever happened. With `lock`, the job runs only while this tab holds that Web Lock
 * (`navigator.locks`, across tabs): a second tab asking for the same job on the same dataset gets
 * `{ kind: 'busy' }` at once instead of running it twice. (An ingest job holds its own lock, in its
 * worker: src/workers/ingest.worker.ts.) With `datasetId`, the job is cancelled when that dataset is
 * deleted, in this tab or another (its writes check too: src/db/orphans.ts).
 */
export function runWorkerJob<A, P, R>(
  start: () => WorkerHandle<JobApi<A, P, R>>,
  args: A,
  opts: { onProgress(p: P): void; lock?: string; datasetId?: number },
): RunningJob<R> {
  let handle: WorkerHandle<JobApi<A, P, R>> | null = null;
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    if (handle) void handle.api.cancel();
  };
  const run = async (): Promise<R> => {
    // The spare ingest worker holds off its warm-up while any job runs (spare-worker.ts).
    jobStarted();
    if (opts.lock) markJobStarted(opts.lock);
    try {
      handle = start();
      const unwatch = opts.datasetId === undefined ? null : whenDatasetGone(db(), opts.datasetId, cancel);
      try {
        if (cancelled) void handle.api.cancel();
        const api = handle.api as unknown as JobApi<A, P, R>;
        return await api.run(args, Comlink.proxy(opts.onProgress));
      } finally {
        unwatch?.();
        handle.terminate();
        handle = null;
      }
    } finally {
      jobEnded();
      if (opts.lock) markJobEnded(opts.lock);
    }
  };
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  const result: Promise<R | { kind: 'busy' }> =
    opts.lock && locks
      ? (locks.request(opts.lock, { ifAvailable: true }, (l) =>
          l ? run() : { kind: 'busy' as const },
        ) as Promise<R | { kind: 'busy' }>)
      : run();
  return { result, cancel };
}

/** Where a store keeps the cancel of its running job (a store runs one job of a kind at a time). */
export interface CancelSlot {
  cancel: (() => void) | null;
}

/** How a store's messages speak of its job (words only here, at the edge where they are shown). */
export interface JobWords {
  /** What the job does: "computing signatures", "mining DUST rules". */
  doing: string;
  /** Where its result appears once another tab has finished it ("they appear here when it is done"). */
  elsewhere: string;
  /** The worker's name in a crash message: "signatures", "DUST". */
  worker: string;
}

/**
 * A job on one dataset: its arguments (the dataset and the parameters), the dataset whose deletion
 * cancels it, and its Web Lock (one such job a dataset, across tabs).
 */
export function onDataset<P>(kind: string, datasetId: number, params: P) {
  return { args: { datasetId, params }, datasetId, lock: jobLock(kind, datasetId) };
}

/** The Web Lock of a job of one kind on one dataset (also the name of its mark, job-marks.ts). */
export function jobLock(kind: string, datasetId: number): string {
  return `dw-${kind}-${datasetId}`;
}

/** The fields of a store that show its job: its progress and its last error. */
type JobPatch<P> = { progress?: P | null; error?: string | null };
/** The store's flag for its running job (`computing`, `mining`). */
type Flag<K extends string> = { [F in K]: boolean };

/**
 * A store's side of a worker job (signatures, DUST): one at a time per store, `running` set while it
 * runs, progress shown as it comes, what went wrong said in `error` (another tab holds the job's lock,
 * the job failed, the worker crashed), `onDone` once it is done, and the store left idle whatever
 * happened. A cancelled job ends quietly: the analyst asked for it.
 */
export async function runJobInStore<K extends string, A, P, D extends object>(
  set: (partial: JobPatch<P> | (JobPatch<P> & Flag<K>)) => void,
  get: () => Flag<K>,
  job: {
    running: K;
    slot: CancelSlot;
    start: () => WorkerHandle<JobApi<A, P, JobOutcome<D>>>;
    args: A;
    lock: string;
    /** The dataset the job works on: its deletion (any tab) cancels the job. */
    datasetId?: number;
    words: JobWords;
    onDone(r: { kind: 'done' } & D): Promise<void> | void;
  },
): Promise<void> {
  if (get()[job.running]) return;
  // A computed key widens to an index signature: the one cast says it is the `running` flag.
  const flag = (on: boolean) => ({ [job.running]: on }) as Flag<K>;
  set({ ...flag(true), progress: null, error: null });
  const running = runWorkerJob(job.start, job.args, {
    lock: job.lock,
    datasetId: job.datasetId,
    onProgress: (p: P) => set({ progress: p }),
  });
  job.slot.cancel = running.cancel;
  const w = job.words;
  try {
    const r = await running.result;
    if (r.kind === 'busy') set({ error: `Another tab is ${w.doing} for this dataset: ${w.elsewhere}.` });
    else if (r.kind === 'failed')
      set({ error: `${w.doing[0].toUpperCase()}${w.doing.slice(1)} failed: ${r.message}` });
    else if (r.kind === 'done') await job.onDone(r);
  } catch (e) {
    set({ error: `The ${w.worker} worker failed: ${(e as Error).message}` });
  } finally {
    job.slot.cancel = null;
    set({ ...flag(false), progress: null });
  }
}
