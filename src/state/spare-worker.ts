/** The spare ingest worker: started ahead of the next job, taken by it, warmed up while the tab is idle. */
import { startIngestWorker, type WorkerHandle } from '../workers/client';
import type { IngestWorkerApi } from '../workers/ingest-job';

/**
 * An ingest worker started ahead of the next drop (its module fetched, compiled and run while the
 * analyst picks a file), taken by the next job; a new one is started once that job has ended.
 */
let spare: WorkerHandle<IngestWorkerApi> | null = null;
export function startSpare(): void {
  if (spare === null && typeof Worker !== 'undefined') spare = startIngestWorker();
  whenIdle();
}

/** The spare for a job that starts, or a worker of its own when there is none. */
export function takeSpare(): WorkerHandle<IngestWorkerApi> {
  const taken = spare ?? startIngestWorker();
  spare = null;
  return taken;
}

/**
 * Once no job has run in this tab for WARM_AFTER_MS, the spare starts its part workers and all of them
 * warm up (src/workers/warm-up.ts); a job of any kind that starts holds them off at once (its worker
 * keeps the cores), and the next idle spell resumes them; a hidden tab waits until it is shown. Not at
 * once after the page opens: a drop made then shared the two cores with the part workers' start (docsite
 * 1.20–1.21 → 1.28–1.31 s).
 */
const WARM_AFTER_MS = 2000;
/**
 * The User Timing mark put each time the spare and its part workers have all read the sample whole: from
 * then on a smaller file is read in parts (ingest-parts.ts WARM_PARALLEL_MIN_BYTES). What a test waits for
 * (test/e2e/warm-parts.e2e.ts) and a trace shows.
 */
export const INGEST_WARM_MARK = 'dedup-workbench:ingest-warm';
let jobs = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

function whenIdle(): void {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (jobs > 0) return;
    // A tab in the background spends no CPU on it: it warms up once it is shown again and idle.
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') {
      document.addEventListener('visibilitychange', whenIdle, { once: true });
      return;
    }
    void Promise.resolve(spare?.api.warmUp?.()).then(
      (warm) => {
        if (warm) performance.mark(INGEST_WARM_MARK);
      },
      () => {
        // A worker that failed warms nothing: the next job starts its own.
      },
    );
  }, WARM_AFTER_MS);
}

/** A job (any kind: state/jobs.ts runWorkerJob) starts in this tab. */
export function jobStarted(): void {
  jobs++;
  clearTimeout(timer);
  void spare?.api.holdWarmUp?.();
}

/** A job has ended. */
export function jobEnded(): void {
  jobs = Math.max(0, jobs - 1);
  if (jobs === 0) whenIdle();
}
