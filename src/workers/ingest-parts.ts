/**
 * One large file read in parallel parts: the file is cut at verified record starts (core/ingest/split.ts)
 * and each part is read by one worker into the same dataset — the first in this worker, the others in
 * workers spawned for them. Their progress is summed into one, a cancel is passed on to every part,
 * revisits whose original lies in an earlier part are resolved once all are in, and the parts' summaries
 * are merged into the file's as if it had been read in one go.
 */
import { IngestCancelled } from '../core/ingest/errors';
import { bodyCacheShare } from '../core/ingest/extraction-cache';
import { mergeSummaries, type UnitContext } from '../core/ingest/many-files';
import type { SplitPlan } from '../core/ingest/split';
import { revisitFields } from '../core/ingest/warc';
import type { IngestErrorInfo, IngestProgress, IngestSummary } from '../core/types';
import { normaliseUrl } from '../core/url/normalize';
import { loadPages, updatePages } from '../db/queries';
import { db, type StoredPage } from '../db/schema';

/** One slice of a file, read by one worker into an existing dataset. */
export interface PartRequest {
  file: Blob;
  fileName: string;
  /** Index of the file in the dataset's sources (tagged on every page). */
  source: number;
  datasetId: number;
  offsetBase: number;
  seqBase: number;
  /** The WACZ's listed page URLs (normalised): its pages among them are marked `listed`. */
  listed?: string[];
  /** Its share of the read's cache of page bodies (characters; the parts split one budget). */
  bodyCacheChars?: number;
}

/** `found`: the listed URLs (PartRequest.listed) whose pages it stored. */
export type PartResult =
  | { kind: 'done'; summary: IngestSummary; revisits: UnresolvedRevisit[]; found?: string[] }
  | { kind: 'cancelled'; pages: number; summary: IngestSummary | null; found?: string[] }
  /** `read`: what it read before a failed write stopped it (its records; not all its pages are stored). */
  | { kind: 'failed'; pages: number; error: IngestErrorInfo; read: IngestSummary | null; found?: string[] };

/** A revisit whose original was not in its part: resolved across parts once all are in. */
export interface UnresolvedRevisit {
  seq: number;
  uri: string;
  digest: string;
}

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
 * 40 MB 3.76 against 3.20 s, 210 MB 18.0 against 13.4 s.
 */
export const PARALLEL_MIN_BYTES = 16 << 20;
/** Parts use disjoint page seq ranges of this width. */
export const SEQ_STRIDE = 2 ** 32;

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
): Promise<IngestSummary> {
  const t0 = performance.now();
  const n = plan.bounds.length - 1;
  const progress: (IngestProgress | null)[] = new Array(n).fill(null);
  const runners: (PartRunner | null)[] = [];
  let cancelSent = false;
  const report = (k: number, p: IngestProgress) => {
    progress[k] = p;
    if (isCancelled() && !cancelSent) {
      cancelSent = true;
      for (const r of runners) r?.cancel();
    }
    const sum = (f: (x: IngestProgress) => number) => progress.reduce((a, x) => a + (x ? f(x) : 0), 0);
    ctx.onProgress({
      bytesRead: sum((x) => x.bytesRead),
      totalBytes: file.size,
      bytesDecoded: sum((x) => x.bytesDecoded),
      records: sum((x) => x.records),
      pages: sum((x) => x.pages),
      elapsedMs: performance.now() - t0,
    });
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
        seqBase: ctx.seqBase + k * SEQ_STRIDE,
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
  for (const r of results) if (r.found) ctx.pageList?.found(r.found);
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
  if (!(summary.error && /storage .*is full/.test(summary.error.reason)))
    await resolveRevisits(datasetId, results);
  return summary;
}

/**
 * Revisits whose original lies in an earlier part: found by URL and payload digest once all parts are
 * in — the first earlier page of that URL and digest that is not itself a revisit. One read of the
 * dataset's page rows, only when some part left a revisit unresolved.
 */
async function resolveRevisits(datasetId: number, results: PartResult[]): Promise<void> {
  const open = results.flatMap((r) => (r.kind === 'done' ? r.revisits : []));
  if (open.length === 0) return;
  const d = db();
  const originals = new Map<string, StoredPage>();
  const bySeq = new Map<number, StoredPage>();
  for (const p of await loadPages(d, datasetId)) {
    bySeq.set(p.seq, p);
    const key = p.normUrl + ' ' + p.digest;
    if (p.recordType !== 'revisit' && p.digest && !originals.has(key)) originals.set(key, p);
  }
  const changes = new Map<number, Partial<StoredPage>>();
  for (const v of open) {
    const orig = originals.get(normaliseUrl(v.uri).href + ' ' + v.digest);
    if (!orig || orig.seq >= v.seq) continue;
    changes.set(v.seq, { ...revisitFields(orig, bySeq.get(v.seq)?.mime ?? ''), note: '' });
  }
  await updatePages(d, datasetId, changes);
}
