import type { WorkerHandle } from '../workers/client';
import { Comlink } from '../workers/client';
import type { JobApi } from '../workers/expose-job';

/** A job running in its own worker: its result, and cancel. */
export interface RunningJob<R> {
  result: Promise<R | { kind: 'busy' }>;
  cancel(): void;
}

/**
 * The client side of the one job lifecycle: start the job's worker, run it with progress, terminate the
 * worker at the end whatever happened. With `lock`, the job runs only while this tab holds that Web Lock
 * (`navigator.locks`, across tabs): a second tab asking for the same job on the same dataset gets
 * `{ kind: 'busy' }` at once instead of running it twice.
 */
export function runWorkerJob<A, P, R>(
  start: () => WorkerHandle<JobApi<A, P, R>>,
  args: A,
  opts: { onProgress(p: P): void; lock?: string },
): RunningJob<R> {
  let handle: WorkerHandle<JobApi<A, P, R>> | null = null;
  let cancelled = false;
  const run = async (): Promise<R> => {
    handle = start();
    try {
      if (cancelled) void handle.api.cancel();
      const api = handle.api as unknown as JobApi<A, P, R>;
      return await api.run(args, Comlink.proxy(opts.onProgress));
    } finally {
      handle.terminate();
      handle = null;
    }
  };
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  const result: Promise<R | { kind: 'busy' }> =
    opts.lock && locks
      ? (locks.request(opts.lock, { ifAvailable: true }, (l) =>
          l ? run() : { kind: 'busy' as const },
        ) as Promise<R | { kind: 'busy' }>)
      : run();
  return {
    result,
    cancel: () => {
      cancelled = true;
      if (handle) void handle.api.cancel();
    },
  };
}
