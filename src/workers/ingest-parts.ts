/**
 * One large file read in parallel parts: the file is cut at verified record starts (core/ingest/split.ts)
 * and each part is read by one worker into the same dataset — the first in this worker, the others in
 * workers spawned for them. Each part numbers its pages as a read in order does (by segment,
 * core/ingest/parts.ts), so it writes its rows as it reads them. Their progress is summed into one, a
 * cancel is passed on to every part, revisits whose original lies in an earlier part are tied once all
 * are in (RevisitTies, as the CLI ties them), and the parts' summaries are merged into the file's as if
 * it had been read in one go.
 */
import { IngestCancelled } from '../core/ingest/errors';
import { bodyCacheShare } from '../core/ingest/extraction-cache';
import type { UnitContext } from '../core/ingest/crawl-units';
import { isStorageFull } from './ingest-faults';
import { mergeSummaries } from '../core/ingest/merge-summaries';
import type { SplitPlan } from '../core/ingest/split';
import { revisitFields } from '../core/ingest/warc-pages';
import { RevisitTies, sumProgress, type Unresolved } from '../core/ingest/parts';
import type { IngestErrorInfo, IngestProgress, IngestSummary } from '../core/types';
import { loadPages, updatePages } from '../db/page-rows';
import { StoreMeter } from '../db/page-writes';
import { db, type StoredPage } from '../db/schema';

/** One slice of a file, read by one worker into an existing dataset. */
export interface PartRequest {
  file: Blob;
  fileName: string;
  /** Index of the file in the dataset's sources (tagged on every page). */
  source: number;
  datasetId: number;
  offsetBase: number;
  /** The source's first seq: the part numbers its pages by segment (core/ingest/parts.ts). */
  seqBase: number;
  segmentBytes?: number;
  /** The WACZ's listed page URLs (normalised): its pages among them are marked `listed`. */
  listed?: string[];
  /** Its share of the read's cache of page bodies (characters; the parts split one budget). */
  bodyCacheChars?: number;
}

/**
 * `found`: the listed URLs (PartRequest.listed) whose pages it stored. `unstored`: the bytes it stored and
 * did not add to the dataset row's storedBytes (page-writes.ts StoreMeter): the job adds them with the
 * read's end (finishDataset), in its one transaction.
 */
export type PartResult =
  | { kind: 'done'; summary: IngestSummary; revisits: Unresolved[]; found?: string[]; unstored?: number }
  | { kind: 'cancelled'; pages: number; summary: IngestSummary | null; found?: string[] }
  /** `read`: what it read before a failed write stopped it (its records; not all its pages are stored). */
  | { kind: 'failed'; pages: number; error: IngestErrorInfo; read: IngestSummary | null; found?: string[] };

/** Runs a part in another worker (created by the caller; absent in tests and the CLI). */
export interface PartRunner {
  run(req: PartRequest, onProgress: (p: IngestProgress) => void): Promise<PartResult>;
  cancel(): void;
  terminate(): void;
}

/**
 * Files smaller than this are read by one worker: splitting costs more than it saves (a second worker
 * starts, compiles the core anew and opens the database). Measured in Chromium, medians of 5–7 drops:
 * docsite (12.9 MB) 1.27 s in one worker against 1.37 s in two; generated 20 MB 2.14 against 2.00 s,
 * 40 MB 3.76 against 3.20 s, 210 MB 18.0 against 13.4 s. With the part worker started ahead (ingest.worker.ts)
 * and the drop 3 s after load, docsite in two parts still took 1.07–1.11 s against 0.99–1.05 s in one (2026-11-28).
 */
export const PARALLEL_MIN_BYTES = 16 << 20;

/**
 * The same, once the job's worker has its part workers started and all of them warmed up (warm-up.ts):
 * what made a second worker cost more than it saved was its start and its JIT's compiles, and then it has
 * had both. Chosen on docsite (12.9 MB; drops 4 s after the page opened, 5 each, A/B in the same hour,
 * warm-up on in both): 0.934 s in one worker, 0.853 s in two parts; checked on generated crawls of other
 * seeds: 12 MB 1.070 → 0.956 s (3 each), while 6 MB lost (0.586 s in one, 0.604 s in two at a 4 MiB
 * threshold), hence between the two.
 */
export const WARM_PARALLEL_MIN_BYTES = 8 << 20;

const PROGRESS_MS = 100;

/** Reads a part in this worker (runPart of ingest-job.ts, passed in: that module imports this one). */
export type RunPart = (req: PartRequest, onProgress: (p: IngestProgress) => void) => Promise<PartResult>;

/**
 * One large file (or a stored WACZ member, as a File of its own) read in parallel parts into the
 * dataset; its summary as if read in one go.
 */
export async function runParallel(
  file: File,
  datasetId: number,
  plan: SplitPlan,
  ctx: UnitContext,
  isCancelled: () => boolean,
  spawn: () => PartRunner,
  here: RunPart,
  /** The job's meter: each part's `unstored` bytes are added to it. */
  meter: StoreMeter = new StoreMeter(),
): Promise<IngestSummary> {
  const t0 = performance.now();
  const n = plan.bounds.length - 1;
  const progress: (IngestProgress | null)[] = new Array(n).fill(null);
  const runners: (PartRunner | null)[] = [];
  let cancelSent = false;
  let sent = -Infinity;
  const report = (k: number, p: IngestProgress) => {
    progress[k] = p;
    if (isCancelled() && !cancelSent) {
      cancelSent = true;
      for (const r of runners) r?.cancel();
    }
    // Each part reports every 100 ms: one sum per 100 ms goes on, as a read in one worker reports (each
    // sum is a render of the page, which shares the cores with the parts).
    const now = performance.now();
    if (now - sent < PROGRESS_MS) return;
    sent = now;
    ctx.onProgress(sumProgress(progress, file.size, now - t0));
  };
  const listed = ctx.pageList?.urls();
  const results = await Promise.all(
    plan.bounds.slice(0, -1).map((start, k) => {
      const part: PartRequest = {
        file: file.slice(start, plan.bounds[k + 1]),
        fileName: file.name,
        source: ctx.source,
        datasetId,
        offsetBase: start,
        seqBase: ctx.seqBase,
        ...(ctx.segmentBytes ? { segmentBytes: ctx.segmentBytes } : {}),
        bodyCacheChars: bodyCacheShare(n),
        ...(listed ? { listed } : {}),
      };
      if (k === 0) {
        runners.push(null);
        return here(part, (p) => report(0, p));
      }
      const r = spawn();
      runners.push(r);
      return r.run(part, (p) => report(k, p)).finally(() => r.terminate());
    }),
  );
  for (const r of results) {
    if (r.found) ctx.pageList?.found(r.found);
    if (r.kind === 'done') meter.pending += r.unstored ?? 0;
  }
  const done = results.flatMap((r) =>
    r.kind === 'done' ? [r.summary] : r.kind === 'cancelled' && r.summary ? [r.summary] : [],
  );
  const summary = mergeSummaries(
    { fileName: file.name, format: plan.format, compressed: plan.compressed, bytes: file.size },
    done,
    performance.now() - t0,
    { parallel: true },
  );
  for (const r of results) {
    if (r.kind === 'failed') {
      summary.pages += r.pages;
      summary.error ??= r.error;
      // Its records read; its pages, hosts and statuses are those of its rows stored (counted after).
      for (const [k, v] of Object.entries(r.read?.recordsByType ?? {}))
        summary.recordsByType[k] = (summary.recordsByType[k] ?? 0) + v;
    } else if (r.kind === 'cancelled' && !r.summary) summary.pages += r.pages;
  }
  if (results.some((r) => r.kind === 'cancelled')) throw new IngestCancelled(summary);
  // Out of space: no revisit resolution (it writes); the caller keeps what is stored and says so.
  if (!isStorageFull(summary.error)) await resolveRevisits(datasetId, results);
  return summary;
}

/**
 * Revisits whose original lies in an earlier part, tied once all parts are in as a read in order ties
 * them (RevisitTies): one read of the dataset's page rows, in seq order, only when some part left a
 * revisit unresolved.
 */
async function resolveRevisits(datasetId: number, results: PartResult[]): Promise<void> {
  const ties = new RevisitTies<StoredPage>();
  ties.leave(results.flatMap((r) => (r.kind === 'done' ? r.revisits : [])));
  if (ties.pending === 0) return;
  const d = db();
  const changes = new Map<number, Partial<StoredPage>>();
  for (const p of await loadPages(d, datasetId)) {
    const orig = ties.see(p);
    if (orig) changes.set(p.seq, { ...revisitFields(orig, p.mime), note: '' });
  }
  await updatePages(d, datasetId, changes);
}
