/**
 * Cross-tab locks of ingest jobs (Web Locks): the tab running a job holds its lock, so a dataset another
 * tab left 'ingesting' is known to be interrupted once its lock is free.
 */
import { markInterrupted } from '../db/queries';
import { db, type Dataset } from '../db/schema';

/** Locks of the jobs this tab runs; locks of other tabs' jobs being watched. */
export const ourLocks = new Set<string>();
const watchedLocks = new Set<string>();

/** Names of the Web Locks held in this origin now (all tabs), or null without Web Locks. */
export async function heldLocks(): Promise<Set<string> | null> {
  if (typeof navigator === 'undefined' || !navigator.locks?.query) return null;
  const q = await navigator.locks.query();
  return new Set([...(q.held ?? []), ...(q.pending ?? [])].map((l) => l.name ?? ''));
}

/**
 * A dataset another tab is reading stays 'ingesting' while that tab holds its lock. Wait for the lock:
 * when it is granted, that tab is gone (or finished); if the row is still 'ingesting', it was interrupted.
 */
export function watchOtherJobs(datasets: readonly Dataset[]): void {
  if (typeof navigator === 'undefined' || !navigator.locks) return;
  for (const d of datasets) {
    const lock = d.lock;
    if (d.status !== 'ingesting' || !lock || ourLocks.has(lock) || watchedLocks.has(lock)) continue;
    watchedLocks.add(lock);
    void navigator.locks.request(lock, async () => {
      watchedLocks.delete(lock);
      const held = (await heldLocks()) ?? new Set<string>();
      held.delete(lock);
      await markInterrupted(db(), Date.now(), held);
    });
  }
}
