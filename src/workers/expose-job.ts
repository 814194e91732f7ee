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
export function exposeJob<A, P, R, X extends object = object>(
  job: (args: A, onProgress: (p: P) => void, isCancelled: () => boolean) => Promise<R>,
  /** More methods of the worker (the ingest worker's `runPart`), cancelled by the same `cancel()`. */
  more?: (isCancelled: () => boolean) => X,
): JobApi<A, P, R> & X {
  let cancelled = false;
  const isCancelled = () => cancelled;
  const api = {
    ...(more?.(isCancelled) as X),
    run: (args: A, onProgress: (p: P) => void) => {
      cancelled = false;
      return job(args, onProgress, isCancelled);
    },
    cancel: () => {
      cancelled = true;
    },
  };
  Comlink.expose(api);
  return api;
}
