import { JobCancelled } from '../core/jobs';
import { isQuotaError } from '../db/page-writes';

/**
 * A job's end after a throw: a cancel, a full disk (the result is one Dexie put, so nothing half-stored
 * is left: say it did not fit), or another fault with its message.
 */
export function jobFailure(
  e: unknown,
  what: string,
): { kind: 'cancelled' } | { kind: 'failed'; message: string } {
  if (e instanceof JobCancelled) return { kind: 'cancelled' };
  if (isQuotaError(e))
    return {
      kind: 'failed',
      message:
        `the browser's storage for this site is full: ${what} were computed but do not fit, and nothing of ` +
        'them was stored. Delete datasets you no longer need or free disk space, then run it again',
    };
  return { kind: 'failed', message: (e as Error)?.message ?? String(e) };
}
