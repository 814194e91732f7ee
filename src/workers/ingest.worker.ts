/// <reference lib="webworker" />
import type { IngestProgress } from '../core/types';
import { Comlink, startIngestWorker, type WorkerHandle } from './client';
import { exposeJob } from './expose-job';
import { runIngest, runPart, type IngestRequest, type IngestWorkerApi, type PartRequest } from './ingest-job';
import { WARM_PARALLEL_MIN_BYTES } from './ingest-parts';
import { db } from '../db/schema';
import { browserNatives } from './natives';
import { warmUp } from './warm-up';

/**
 * Thin adapter around one ingest job, on the one job lifecycle (exposeJob; the store runs it with
 * runWorkerJob). One worker per job; for a large WARC it starts one more worker per extra core and reads
 * the file's parts in parallel (see runIngest): those workers are this one, asked to `runPart`.
 */
const PARTS = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
/**
 * Part workers started ahead by this job worker (the spare) when the page asks it to warm up
 * (state/spare-worker.ts: once the tab has been idle 2 s). They wait for a large file to be cut: a part
 * worker started at the cut ran its module ~300 ms later in Chromium. A part worker starts none.
 */
const warm: WorkerHandle<IngestWorkerApi>[] = [];
let partsStarted = false;
/** A job or a part has begun in this worker: no warm-up from then on. */
let busy = false;
/** The page asked to hold off: a job (of any kind) runs in the tab. The next warmUp() lifts it. */
let held = false;
/** This worker has read the sample whole (warm-up.ts); its part workers have (a smaller file is then cut). */
let selfWarm = false;
let partsWarm = false;

let warming: Promise<boolean> | null = null;
function warmUpAll(): Promise<boolean> {
  held = false;
  return (warming ??= warmUpOnce().finally(() => (warming = null)));
}

async function warmUpOnce(): Promise<boolean> {
  if (busy) return false;
  // The database opened now, not by the job's first write: a large file's parts began only once its
  // dataset was made, and opening the connection (IndexedDB's open, Dexie's schema) took ~5 ms of that.
  db()
    .open()
    .catch(() => {
      // The job opens it again and reports what fails.
    });
  if (self.name !== 'ingest-part' && !partsStarted) {
    partsStarted = true;
    for (let k = 1; k < PARTS; k++) warm.push(startIngestWorker('ingest-part'));
  }
  const parts = Promise.all(warm.map((w) => w.api.warmUp())).then(
    (done) => (partsWarm = done.length > 0 && done.every(Boolean)),
    () => false,
  );
  if (!selfWarm) selfWarm = await warmUp(() => busy || held);
  await parts;
  return selfWarm && (self.name === 'ingest-part' || PARTS === 1 || partsWarm);
}

/**
 * The job holds its Web Lock (unique to it, named by the page: state/datasets.ts) here, in its worker,
 * while it runs: other tabs and the next load tell a dataset still being read from one a closed tab left
 * 'ingesting' (state/ingest-locks.ts), and a worker's locks go with it. Taken here rather than by the page
 * before it posts the job: the page's grant came after its render of the progress panel, and the read
 * waited ~7 ms for it (docsite, 2026-11-28).
 */
function holding<T>(lock: string | undefined, job: () => Promise<T>): Promise<T> {
  return lock && navigator.locks ? (navigator.locks.request(lock, job) as Promise<T>) : job();
}

function holdParts(): void {
  for (const w of warm) void w.api.holdWarmUp();
}

exposeJob(
  (req: IngestRequest, onProgress: (p: IngestProgress) => void, isCancelled) => {
    busy = true;
    // Its part workers stop warming up too (the page asked already; this worker does not rely on it).
    holdParts();
    return holding(req.lock, () =>
      runIngest(req, onProgress, isCancelled, {
        parts: PARTS,
        ...(partsWarm && warm.length === PARTS - 1 ? { minBytes: WARM_PARALLEL_MIN_BYTES } : {}),
        runner: () => {
          const w = warm.shift() ?? startIngestWorker('ingest-part');
          return {
            run: (part, progress) => w.api.runPart(part, Comlink.proxy(progress)),
            cancel: () => void w.api.cancel(),
            terminate: () => w.terminate(),
          };
        },
      }),
    );
  },
  (isCancelled) => ({
    runPart: (req: PartRequest, onProgress: (p: IngestProgress) => void) => {
      busy = true;
      return runPart(req, onProgress, isCancelled);
    },
    warmUp: warmUpAll,
    holdWarmUp: () => {
      held = true;
      holdParts();
    },
  }),
);
// The SHA-1's WebAssembly is compiled as the worker starts (a spare one starts before the drop).
void browserNatives();
