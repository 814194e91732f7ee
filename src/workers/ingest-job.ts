import { IngestCancelled, IngestError } from '../core/ingest/errors';
import { ingestOutcome } from '../core/ingest/outcome';
import {
  ingestCrawl,
  mergeSummaries,
  readUnitInOrder,
  type UnitContext,
  type UnitReader,
} from '../core/ingest/many-files';
import { streamInflater } from '../core/ingest/gzip';
import type { Natives } from '../core/ingest/natives';
import { ingest, type IngestOptions } from '../core/ingest/pipeline';
import { revisitFields } from '../core/ingest/warc';
import type { ByteSource } from '../core/ingest/wacz';
import { planSplits, type SplitPlan } from '../core/ingest/split';
import type { IngestErrorInfo, IngestProgress, IngestSummary } from '../core/types';
import { normaliseUrl } from '../core/url/normalize';
import {
  countStoredRows,
  createDataset,
  deleteDataset,
  dropLastPages,
  finishDataset,
  isQuotaError,
  loadPages,
  updatePages,
  writeBatch,
  flushMeter,
  StoreMeter,
} from '../db/queries';
import { db, type StoredPage } from '../db/schema';

export interface IngestRequest {
  /** The files of one crawl, read into ONE dataset in this order (several WARC.gz, a folder, a WACZ). */
  files?: File[];
  /** One file (kept for callers that read one). */
  file?: File;
  name?: string;
  baseUrl?: string;
  /** The Web Lock the starting tab holds while the job runs (kept on the dataset row; see markInterrupted). */
  lock?: string;
}

export type IngestResult =
  | { kind: 'done'; datasetId: number; summary: IngestSummary }
  | { kind: 'cancelled'; datasetId: number | null; pages: number }
  | { kind: 'rejected'; error: IngestErrorInfo }
  /** An unexpected failure after pages were written: they are kept, the dataset is partial. */
  | { kind: 'stopped'; datasetId: number; pages: number; error: IngestErrorInfo };

/** One slice of a file, read by one worker into an existing dataset. */
export interface PartRequest {
  file: Blob;
  fileName: string;
  /** Index of the file in the dataset's sources (tagged on every page). */
  source: number;
  datasetId: number;
  offsetBase: number;
  seqBase: number;
}

export type PartResult =
  | { kind: 'done'; summary: IngestSummary; revisits: UnresolvedRevisit[] }
  | { kind: 'cancelled'; pages: number; summary: IngestSummary | null }
  | { kind: 'failed'; pages: number; error: IngestErrorInfo };

interface UnresolvedRevisit {
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
const PARALLEL_MIN_BYTES = 16 << 20;
/** Parts use disjoint page seq ranges of this width. */
export const SEQ_STRIDE = 2 ** 32;

/**
 * The browser's native gzip (DecompressionStream, one member at a time; see core/ingest/gzip.ts), when
 * there is one: jsdom's component tests have none and use fflate.
 */
function natives(): Natives {
  return { inflate: typeof DecompressionStream === 'function' ? streamInflater : undefined };
}

/** The bytes of a Blob as a stream (jsdom's Blob has no stream(): component tests read it whole). */
function chunks(file: Blob): AsyncIterable<Uint8Array> {
  if (typeof file.stream === 'function')
    return yieldingEvery(file.stream() as unknown as AsyncIterable<Uint8Array>, YIELD_MS);
  return (async function* () {
    yield new Uint8Array(await file.arrayBuffer());
  })();
}

/** How long the reader may hold the worker's thread before it lets other tasks run. */
const YIELD_MS = 30;

/**
 * The chunks of `src`, with a return to the worker's event loop whenever `ms` have passed since the
 * last: a Blob's stream can hand over chunks it holds without one, and a worker that never returns to
 * its event loop holds up what only the loop runs — the part worker it spawned does not start (docsite's
 * two halves ran one after the other: 1.36 s, then 1.04 s, measured by a CDP trace), and a cancel
 * message waits. A MessageChannel round trip, not setTimeout (clamped to 4 ms when nested).
 */
async function* yieldingEvery(src: AsyncIterable<Uint8Array>, ms: number): AsyncIterable<Uint8Array> {
  let last = performance.now();
  for await (const c of src) {
    if (performance.now() - last > ms) {
      await new Promise<void>((resolve) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          ch.port1.close();
          resolve();
        };
        ch.port2.postMessage(null);
      });
      last = performance.now();
    }
    yield c;
  }
}

/** A File read by ranges: slices, never the whole file (a WACZ's directory is read from its end). */
export function blobSource(file: File): ByteSource {
  return {
    name: file.name,
    size: file.size,
    read: async (a, b) => new Uint8Array(await file.slice(a, b).arrayBuffer()),
    stream: (a, b) => chunks(a === 0 && b === file.size ? file : file.slice(a, b)),
  };
}

function errorInfo(fileName: string, e: unknown): IngestErrorInfo {
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

/** "crawl-00001.warc.gz and 35 more" for a crawl of many files. */
function crawlName(files: File[]): string {
  return files.length === 1 ? files[0].name : `${files[0].name} and ${files.length - 1} more`;
}

/**
 * One ingest job: the files of one crawl → core ingest (ingestCrawl: one file after another, a WACZ's
 * WARCs in turn) → Dexie in batches; the dataset is created once the first format is known. With
 * `spawn`, a large WARC(.gz)/ARC.gz is cut at verified record starts and its parts are read in
 * parallel, one worker each (this one included).
 */
export async function runIngest(
  req: IngestRequest,
  onProgress: (p: IngestProgress) => void,
  isCancelled: () => boolean,
  spawn?: { parts: number; runner: () => PartRunner; minBytes?: number },
): Promise<IngestResult> {
  const files = req.files ?? (req.file ? [req.file] : []);
  const label = crawlName(files);
  const d = db();
  let datasetId: number | null = null;
  let pages = 0;
  const meter = new StoreMeter();
  const sources = files.map(blobSource);
  const fileOf = new Map(sources.map((x, i) => [x, files[i]]));
  const readUnit: UnitReader = async (unit, ctx, sink) => {
    if (spawn && spawn.parts > 1 && !unit.entry && unit.size >= (spawn.minBytes ?? PARALLEL_MIN_BYTES)) {
      const plan = await planSplits({ size: unit.size, read: unit.file.read }, spawn.parts);
      if (plan) {
        await ctx.onFormat(plan.format, plan.compressed);
        const file = fileOf.get(unit.file)!;
        const s = await runParallel(file, datasetId!, plan, ctx, isCancelled, spawn.runner);
        pages += s.pages;
        return s;
      }
    }
    return readUnitInOrder(unit, ctx, sink);
  };
  try {
    const summary = await ingestCrawl(
      sources,
      {
        baseUrl: req.baseUrl,
        isCancelled,
        onProgress,
        readUnit,
        natives: natives(),
        onFormat: async (format, compressed) => {
          datasetId = await createDataset(d, {
            name: req.name ?? label,
            fileName: label,
            bytes: files.reduce((a, f) => a + f.size, 0),
            format,
            compressed,
            lock: req.lock,
          });
        },
      },
      async (batch) => {
        await writeBatch(d, datasetId!, batch, meter);
        pages += batch.length;
      },
    );
    await flushMeter(d, datasetId!, meter);
    if (summary.pages === 0 && summary.error) {
      // Every part failed before a page: nothing to keep.
      await deleteDataset(d, datasetId!);
      return { kind: 'rejected', error: summary.error };
    }
    if (summary.error && /storage .*is full/.test(summary.error.reason)) {
      const kept = await finishAfterFault(d, datasetId!, summary.error, label, summary);
      return { kind: 'stopped', datasetId: datasetId!, pages: kept.pages, error: kept.error };
    }
    const outcome = ingestOutcome(summary);
    await finishDataset(d, datasetId!, outcome.status, { ...summary, error: outcome.error });
    return { kind: 'done', datasetId: datasetId!, summary };
  } catch (e) {
    if (datasetId !== null) await flushMeter(d, datasetId, meter);
    if (e instanceof IngestCancelled) {
      if (datasetId !== null) await finishDataset(d, datasetId, 'cancelled', e.summary ?? { pages });
      return { kind: 'cancelled', datasetId, pages: e.summary?.pages ?? pages };
    }
    const info = isQuotaError(e) ? storageFullInfo(label, pages) : errorInfo(label, e);
    // Nothing usable was read: roll the dataset back as a whole.
    if (datasetId !== null) {
      if (pages > 0) {
        const kept = await finishAfterFault(d, datasetId, info, label);
        return { kind: 'stopped', datasetId, pages: kept.pages, error: kept.error };
      }
      await deleteDataset(d, datasetId);
    }
    return { kind: 'rejected', error: info };
  }
}

/** Read one part of a file into an existing dataset (in this worker or a spawned one). */
export async function runPart(
  req: PartRequest,
  onProgress: (p: IngestProgress) => void,
  isCancelled: () => boolean,
): Promise<PartResult> {
  const d = db();
  let pages = 0;
  const revisits: UnresolvedRevisit[] = [];
  const meter = new StoreMeter();
  const opts: IngestOptions = {
    fileName: req.fileName,
    totalBytes: req.file.size,
    offsetBase: req.offsetBase,
    seqBase: req.seqBase,
    onProgress,
    isCancelled,
    onUnresolvedRevisit: (seq, uri, digest) => revisits.push({ seq, uri, digest }),
    natives: natives(),
  };
  try {
    const summary = await ingest(chunks(req.file), opts, async (batch) => {
      for (const p of batch) p.page.source = req.source;
      await writeBatch(d, req.datasetId, batch, meter);
      pages += batch.length;
    });
    await flushMeter(d, req.datasetId, meter);
    return { kind: 'done', summary, revisits };
  } catch (e) {
    await flushMeter(d, req.datasetId, meter);
    if (e instanceof IngestCancelled) return { kind: 'cancelled', pages, summary: e.summary };
    const error = isQuotaError(e) ? storageFullInfo(req.fileName, pages) : errorInfo(req.fileName, e);
    return { kind: 'failed', pages, error };
  }
}

/** One large file read in parallel parts into the dataset; its summary as if read in one go. */
async function runParallel(
  file: File,
  datasetId: number,
  plan: SplitPlan,
  ctx: UnitContext,
  isCancelled: () => boolean,
  spawn: () => PartRunner,
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
  const results = await Promise.all(
    plan.bounds.slice(0, -1).map((start, k) => {
      const part: PartRequest = {
        file: file.slice(start, plan.bounds[k + 1]),
        fileName: file.name,
        source: ctx.source,
        datasetId,
        offsetBase: start,
        seqBase: ctx.seqBase + k * SEQ_STRIDE,
      };
      if (k === 0) {
        runners.push(null);
        return runPart(part, (p) => report(0, p), isCancelled);
      }
      const r = spawn();
      runners.push(r);
      return r.run(part, (p) => report(k, p)).finally(() => r.terminate());
    }),
  );
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

/** The storage-full message: what happened, how many pages are kept, what to do. */
function storageFullInfo(fileName: string, pages: number): IngestErrorInfo {
  // No quota figure: navigator.storage.estimate() in a worker can report the disk, not the limit hit.
  const reason =
    `the browser's storage for this site is full: the read stopped with ${pages.toLocaleString('en-US')} ` +
    'pages stored, which are kept. Delete datasets you no longer need or free disk space, then read the file again';
  return { fileName, offset: -1, line: -1, reason, message: `${fileName}: ${reason}` };
}

/**
 * Finish a dataset after a fault with the rows actually stored. When the disk is full even this small
 * write can fail: then the last pages written are given back (a few hundred) to make room, and the
 * counts and the message say what is really kept. The row always ends finished, never 'ingesting'.
 */
async function finishAfterFault(
  d: ReturnType<typeof db>,
  datasetId: number,
  info: IngestErrorInfo,
  fileName: string,
  summary?: IngestSummary,
): Promise<{ pages: number; error: IngestErrorInfo }> {
  for (let attempt = 0; ; attempt++) {
    // Pages, hosts and status counts from the rows stored: a summary counts pages parsed but never stored
    // (a failed write, the pages given back below), has no hosts or statuses of parallel parts that
    // failed, and there is none after a throw. What rows cannot tell (records by type) is the summary's.
    const { pages, hosts, statusCounts } = await countStoredRows(d, datasetId);
    const error = /storage .*is full/.test(info.reason) ? storageFullInfo(fileName, pages) : info;
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
