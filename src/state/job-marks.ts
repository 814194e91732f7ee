/**
 * Marks of running jobs that outlive their tab. A signatures or DUST job runs in a worker of the tab that
 * started it; a reload or a closed tab ends it without a word, and its result is never written. While a
 * job runs (under its Web Lock, jobs.ts), its mark stays in localStorage; it is removed however the job
 * ends in its tab (done, failed, cancelled). A mark whose lock no tab holds is a job that was interrupted:
 * the pane says so and offers to restart it, as an interrupted read does (db/queries.ts markInterrupted).
 */
import { heldLocks } from './ingest-locks';

const PREFIX = 'dw-job-mark:';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** A job under `lock` has started now. */
export function markJobStarted(lock: string, now = Date.now()): void {
  try {
    storage()?.setItem(PREFIX + lock, String(now));
  } catch {
    // A full or refused storage: the job runs all the same, only an interruption goes unsaid.
  }
}

/** The job under `lock` ended in its tab (whatever the outcome), or its restart was asked for. */
export function markJobEnded(lock: string): void {
  storage()?.removeItem(PREFIX + lock);
}

/**
 * When the job under `lock` started, if it was interrupted: its mark is there and no tab holds its lock
 * (a job another tab runs now holds it). Without Web Locks, a mark left is taken as interrupted once
 * this tab runs no such job (`runningHere`).
 */
export async function interruptedSince(lock: string, runningHere = false): Promise<number | null> {
  const v = storage()?.getItem(PREFIX + lock);
  if (!v || runningHere) return null;
  const held = await heldLocks();
  if (held?.has(lock)) return null;
  const t = Number(v);
  return Number.isFinite(t) ? t : null;
}
