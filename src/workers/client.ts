import * as Comlink from 'comlink';
import type { IngestWorkerApi } from './ingest-job';
import type { SignaturesWorkerApi } from './signatures.worker';
import type { DustWorkerApi } from './dust.worker';
import type { BatchResultWorkerApi } from './batch-result.worker';
import type { ArchiveExportWorkerApi } from './archive-export.worker';

/**
 * The one place that creates workers (jsdom has no Worker: component tests mock this module).
 * Each ingest job gets its own worker, terminated when the job ends (the next one is started ahead
 * of the next drop: state/datasets.ts). The ingest worker starts its parallel parts from here; the
 * signatures worker starts its signers from signers.ts (a worker that referred to this module would
 * refer to itself, which Vite refuses).
 */
export interface WorkerHandle<T> {
  api: Comlink.Remote<T>;
  terminate(): void;
}

/** Ingest workers: a job's (`ingest`) or one of its parallel parts' (`ingest-part`, which starts none). */
export function startIngestWorker(name: 'ingest' | 'ingest-part' = 'ingest'): WorkerHandle<IngestWorkerApi> {
  const w = new Worker(new URL('./ingest.worker.ts', import.meta.url), { type: 'module', name });
  return { api: Comlink.wrap<IngestWorkerApi>(w), terminate: () => w.terminate() };
}

export { Comlink };

export function startSignaturesWorker(): WorkerHandle<SignaturesWorkerApi> {
  const w = new Worker(new URL('./signatures.worker.ts', import.meta.url), {
    type: 'module',
    name: 'signatures',
  });
  return { api: Comlink.wrap<SignaturesWorkerApi>(w), terminate: () => w.terminate() };
}

export function startDustWorker(): WorkerHandle<DustWorkerApi> {
  const w = new Worker(new URL('./dust.worker.ts', import.meta.url), { type: 'module', name: 'dust' });
  return { api: Comlink.wrap<DustWorkerApi>(w), terminate: () => w.terminate() };
}

export function startBatchResultWorker(): WorkerHandle<BatchResultWorkerApi> {
  const w = new Worker(new URL('./batch-result.worker.ts', import.meta.url), {
    type: 'module',
    name: 'batch-result',
  });
  return { api: Comlink.wrap<BatchResultWorkerApi>(w), terminate: () => w.terminate() };
}

export function startArchiveExportWorker(): WorkerHandle<ArchiveExportWorkerApi> {
  const w = new Worker(new URL('./archive-export.worker.ts', import.meta.url), {
    type: 'module',
    name: 'archive-export',
  });
  return { api: Comlink.wrap<ArchiveExportWorkerApi>(w), terminate: () => w.terminate() };
}
