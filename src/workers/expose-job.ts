import * as Comlink from 'comlink';

/** What a job worker exposes: one run with progress, and cancel. */
export interface JobApi<A, P, R> {
  run(args: A, onProgress: (p: P) => void): Promise<R>;
  cancel(): void;
}

/** The API a job function is exposed as. */
export type JobApiOf<F> = F extends (
  args: infer A,
  onProgress: (p: infer P) => void,
  isCancelled: () => boolean,
) => Promise<infer R>
  ? JobApi<A, P, R>
  : never;

/**
 * The worker side of the one job lifecycle: expose `run(args, onProgress)` and `cancel()` over Comlink;
 * the job gets `isCancelled`, polls it between batches and throws the core's JobCancelled.
 */
export function exposeJob<A, P, R>(
  job: (args: A, onProgress: (p: P) => void, isCancelled: () => boolean) => Promise<R>,
): JobApi<A, P, R> {
  let cancelled = false;
  const api: JobApi<A, P, R> = {
    run: (args, onProgress) => {
      cancelled = false;
      return job(args, onProgress, () => cancelled);
    },
    cancel: () => {
      cancelled = true;
    },
  };
  Comlink.expose(api);
  return api;
}
