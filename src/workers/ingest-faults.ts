/**
 * What an ingest job does when a read or a write fails: the error said plainly (the storage full, an
 * internal error), the writes stopped after a failed one, and the dataset finished with the rows stored.
 */
import { IngestError } from '../core/ingest/errors';
import type { IngestErrorInfo, IngestSummary, ProblemKind } from '../core/types';
import { countStoredRows } from '../db/page-rows';
import { dropLastPages, isQuotaError } from '../db/page-writes';
import { finishDataset } from '../db/queries';
import type { db } from '../db/schema';

export function errorInfo(fileName: string, e: unknown): IngestErrorInfo {
  if (e instanceof IngestError) return e.toInfo();
  const m = (e as Error)?.message ?? String(e);
  return {
    fileName,
    offset: -1,
    line: -1,
    reason: `internal error: ${m}`,
    message: `${fileName}: internal error: ${m}`,
  };
}

/**
 * A failed write (the storage full) stops the read as a cancel does, not by the sink's throw: the
 * pipeline then still hands back its summary — the records read, by type, which stored rows cannot
 * tell. Batches after it are not written (the pages kept are the rows stored before it).
 */
export class WriteGuard {
  fault: { error: unknown } | null = null;
  constructor(private readonly isCancelled: () => boolean) {}
  /** The read's isCancelled: cancelled, or a write failed. */
  readonly stopped = (): boolean => this.fault !== null || this.isCancelled();
  /** Write one batch unless a write failed before; whether it was written. */
  async write(put: () => Promise<void>): Promise<boolean> {
    if (this.fault) return false;
    try {
      await put();
      return true;
    } catch (error) {
      this.fault = { error };
      return false;
    }
  }
}

/** The kind of the fault a full disk stops a read with (a typed status, not the sentence's words). */
const STORAGE_FULL = 'storage-full' satisfies ProblemKind;

export function isStorageFull(info: IngestErrorInfo | null | undefined): info is IngestErrorInfo {
  return info?.kind === STORAGE_FULL;
}

/** The storage-full message: what happened, how many pages are kept, what to do. */
export function storageFullInfo(fileName: string, pages: number): IngestErrorInfo {
  // No quota figure: navigator.storage.estimate() in a worker can report the disk, not the limit hit.
  // With no page stored, nothing is kept: the words must not say "0 pages stored, which are kept".
  const stopped =
    pages === 0
      ? 'the read stopped before any page was stored'
      : `the read stopped with ${pages.toLocaleString('en-US')} page${pages === 1 ? ' stored, which is' : 's stored, which are'} kept`;
  const reason =
    `the browser's storage for this site is full: ${stopped}. ` +
    'Delete datasets you no longer need or free disk space, then read the file again';
  return { fileName, offset: -1, line: -1, reason, message: `${fileName}: ${reason}`, kind: STORAGE_FULL };
}

/**
 * Finish a dataset after a fault with the rows actually stored. When the disk is full even this small
 * write can fail: then the last pages written are given back (a few hundred) to make room, and the
 * counts and the message say what is really kept. The row always ends finished, never 'ingesting'.
 */
export async function finishAfterFault(
  d: ReturnType<typeof db>,
  datasetId: number,
  info: IngestErrorInfo,
  fileName: string,
  summary?: IngestSummary,
): Promise<{ pages: number; error: IngestErrorInfo }> {
  for (let attempt = 0; ; attempt++) {
    // Pages, hosts and status counts from the rows stored: a summary counts pages parsed but never stored
    // (a failed write, the pages given back below), has no hosts or statuses of parallel parts that
    // failed, and there is none after an unexpected throw (a failed write stops the read with its
    // summary: see runIngest). What rows cannot tell (records read, by type) is the summary's.
    const { pages, hosts, statusCounts } = await countStoredRows(d, datasetId);
    const error = isStorageFull(info) ? storageFullInfo(fileName, pages) : info;
    try {
      await finishDataset(d, datasetId, 'partial', {
        ...(summary ?? {}),
        pages,
        hosts,
        statusCounts,
        error,
      });
      return { pages, error };
    } catch (e) {
      if (!isQuotaError(e) || attempt >= 3 || pages === 0) throw e;
      await dropLastPages(d, datasetId, 500);
    }
  }
}
