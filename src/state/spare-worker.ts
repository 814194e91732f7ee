/** The spare ingest worker: started ahead of the next job, taken by it. */
import { startIngestWorker, type WorkerHandle } from '../workers/client';
import type { IngestWorkerApi } from '../workers/ingest-job';

/**
 * An ingest worker started ahead of the next drop (its module fetched, compiled and run while the
 * analyst picks a file), taken by the next job; a new one is started once that job has ended.
 */
let spare: WorkerHandle<IngestWorkerApi> | null = null;
export function startSpare(): void {
  if (spare === null && typeof Worker !== 'undefined') spare = startIngestWorker();
}

/** The spare for a job that starts, or a worker of its own when there is none. */
export function takeSpare(): WorkerHandle<IngestWorkerApi> {
  const taken = spare ?? startIngestWorker();
  spare = null;
  return taken;
}
