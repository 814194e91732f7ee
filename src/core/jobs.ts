/**
 * One way to run a long job (ingest, signatures, DUST rules): the job polls `isCancelled` between batches
 * and throws JobCancelled, the one cancellation type; its result is one of these kinds.
 */
export type JobOutcome<T extends object = object> =
  ({ kind: 'done' } & T) | { kind: 'cancelled' } | { kind: 'failed'; message: string };

/** Thrown by a job when the analyst cancels it (not a fault). Subclasses carry what was done so far. */
export class JobCancelled extends Error {
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'JobCancelled';
  }
}

/** Throw JobCancelled when the job was cancelled (call between batches). */
export function checkCancelled(isCancelled: () => boolean): void {
  if (isCancelled()) throw new JobCancelled();
}
