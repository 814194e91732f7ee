import { IngestCancelled, IngestError } from '../core/ingest/errors';
import { ingestOutcome } from '../core/ingest/outcome';
import { ingest, type IngestOptions } from '../core/ingest/pipeline';
import { planSplits, type SplitPlan } from '../core/ingest/split';
import type { IngestErrorInfo, IngestProgress, IngestSummary } from '../core/types';
import { normaliseUrl } from '../core/url/normalize';
import {
  countStoredPages,
  createDataset,
  deleteDataset,
  dropLastPages,
  finishDataset,
  isQuotaError,
  writeBatch,
} from '../db/queries';
import { db } from '../db/schema';

export interface IngestRequest {
  file: File;
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

/** Files smaller than this are read by one worker: splitting costs more than it saves. */
const PARALLEL_MIN_BYTES = 8 << 20;
/** Parts use disjoint page seq ranges of this width. */
export const SEQ_STRIDE = 2 ** 32;

/** The bytes of a Blob as a stream (jsdom's Blob has no stream(): component tests read it whole). */
function chunks(file: Blob): AsyncIterable<Uint8Array> {
  if (typeof file.stream === 'function') return file.stream() as unknown as AsyncIterable<Uint8Array>;
  return (async function* () {
    yield new Uint8Array(await file.arrayBuffer());
  })();
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

/**
 * One ingest job: core ingest → Dexie in batches; the dataset is created once the format is known.
 * With `spawn` and a large WARC(.gz)/ARC.gz, the file is cut at verified record starts and the parts
 * are read in parallel, one worker each (this one included).
 */
export async function runIngest(
  req: IngestRequest,
  onProgress: (p: IngestProgress) => void,
  isCancelled: () => boolean,
  spawn?: { parts: number; runner: () => PartRunner },
): Promise<IngestResult> {
  if (spawn && spawn.parts > 1 && req.file.size >= PARALLEL_MIN_BYTES) {
    const plan = await planSplits(
      {
        size: req.file.size,
        read: async (a, b) => new Uint8Array(await req.file.slice(a, b).arrayBuffer()),
      },
      spawn.parts,
    );
    if (plan) return runParallel(req, plan, onProgress, isCancelled, spawn.runner);
  }
  return runSingle(req, onProgress, isCancelled);
}

async function runSingle(
  req: IngestRequest,
  onProgress: (p: IngestProgress) => void,
  isCancelled: () => boolean,
): Promise<IngestResult> {
  const d = db();
  let datasetId: number | null = null;
  let pages = 0;
  try {
    const summary = await ingest(
      chunks(req.file),
      {
        fileName: req.file.name,
        totalBytes: req.file.size,
        baseUrl: req.baseUrl,
        onProgress,
        isCancelled,
        onFormat: async (format, compressed) => {
          datasetId = await createDataset(d, {
            name: req.name ?? req.file.name,
            fileName: req.file.name,
            bytes: req.file.size,
            format,
            compressed,
            lock: req.lock,
          });
        },
      },
      async (batch) => {
        await writeBatch(d, datasetId!, batch);
        pages += batch.length;
      },
    );
    const outcome = ingestOutcome(summary);
    await finishDataset(d, datasetId!, outcome.status, { ...summary, error: outcome.error });
    return { kind: 'done', datasetId: datasetId!, summary };
  } catch (e) {
    if (e instanceof IngestCancelled) {
      if (datasetId !== null) await finishDataset(d, datasetId, 'cancelled', e.summary ?? { pages });
      return { kind: 'cancelled', datasetId, pages };
    }
    const info = isQuotaError(e) ? storageFullInfo(req.file.name, pages) : errorInfo(req.file.name, e);
    // Nothing usable was read: roll the dataset back as a whole.
    if (datasetId !== null) {
      if (pages > 0) {
        const kept = await finishAfterFault(d, datasetId, info, req.file.name);
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
  const opts: IngestOptions = {
    fileName: req.fileName,
    totalBytes: req.file.size,
    offsetBase: req.offsetBase,
    seqBase: req.seqBase,
    onProgress,
    isCancelled,
    onUnresolvedRevisit: (seq, uri, digest) => revisits.push({ seq, uri, digest }),
  };
  try {
    const summary = await ingest(chunks(req.file), opts, async (batch) => {
      await writeBatch(d, req.datasetId, batch);
      pages += batch.length;
    });
    return { kind: 'done', summary, revisits };
  } catch (e) {
    if (e instanceof IngestCancelled) return { kind: 'cancelled', pages, summary: e.summary };
    const error = isQuotaError(e) ? storageFullInfo(req.fileName, pages) : errorInfo(req.fileName, e);
    return { kind: 'failed', pages, error };
  }
}

async function runParallel(
  req: IngestRequest,
  plan: SplitPlan,
  onProgress: (p: IngestProgress) => void,
  isCancelled: () => boolean,
  spawn: () => PartRunner,
): Promise<IngestResult> {
  const d = db();
  const t0 = performance.now();
  const datasetId = await createDataset(d, {
    name: req.name ?? req.file.name,
    fileName: req.file.name,
    bytes: req.file.size,
    format: plan.format,
    compressed: plan.compressed,
    lock: req.lock,
  });
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
    onProgress({
      bytesRead: sum((x) => x.bytesRead),
      totalBytes: req.file.size,
      bytesDecoded: sum((x) => x.bytesDecoded),
      records: sum((x) => x.records),
      pages: sum((x) => x.pages),
      elapsedMs: performance.now() - t0,
    });
  };
  const results = await Promise.all(
    plan.bounds.slice(0, -1).map((start, k) => {
      const part: PartRequest = {
        file: req.file.slice(start, plan.bounds[k + 1]),
        fileName: req.file.name,
        datasetId,
        offsetBase: start,
        seqBase: k * SEQ_STRIDE,
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
  const pages = results.reduce((a, r) => a + (r.kind === 'done' ? r.summary.pages : r.pages), 0);
  const summary = mergeSummaries(req.file, plan, results, performance.now() - t0);
  if (results.some((r) => r.kind === 'cancelled')) {
    await finishDataset(d, datasetId, 'cancelled', summary);
    return { kind: 'cancelled', datasetId, pages };
  }
  if (summary.pages === 0 && summary.error) {
    await deleteDataset(d, datasetId);
    return { kind: 'rejected', error: summary.error };
  }
  if (summary.error && /storage .*is full/.test(summary.error.reason)) {
    // Out of space: no revisit resolution (it writes), keep what is stored and say so.
    const kept = await finishAfterFault(d, datasetId, summary.error, req.file.name, summary);
    return { kind: 'stopped', datasetId, pages: kept.pages, error: kept.error };
  }
  await resolveRevisits(datasetId, results);
  const outcome = ingestOutcome(summary);
  await finishDataset(d, datasetId, outcome.status, { ...summary, error: outcome.error });
  return { kind: 'done', datasetId, summary };
}

function mergeSummaries(
  file: File,
  plan: SplitPlan,
  results: PartResult[],
  elapsedMs: number,
): IngestSummary {
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
  };
  const s: IngestSummary = {
    fileName: file.name,
    format: plan.format,
    compressed: plan.compressed,
    bytes: file.size,
    bytesDecoded: 0,
    recordsByType: {},
    pages: 0,
    hosts: 0,
    hostNames: [],
    skipped: {},
    error: null,
    warnings: [],
    warningCount: 0,
    elapsedMs,
    sinkMs: 0,
  };
  const hosts = new Set<string>();
  for (const r of results) {
    const p = r.kind === 'done' ? r.summary : r.kind === 'cancelled' ? r.summary : null;
    if (p) {
      s.bytesDecoded += p.bytesDecoded;
      add(s.recordsByType, p.recordsByType);
      add(s.skipped, p.skipped);
      s.pages += p.pages;
      for (const h of p.hostNames) hosts.add(h);
      s.warnings.push(...p.warnings);
      s.warningCount += p.warningCount;
      s.sinkMs = Math.max(s.sinkMs, p.sinkMs);
      s.error ??= p.error;
    } else if (r.kind !== 'done') {
      s.pages += r.pages;
      if (r.kind === 'failed') s.error ??= r.error;
    }
  }
  s.hosts = hosts.size;
  s.hostNames = [...hosts];
  s.warnings = s.warnings.slice(0, 100);
  return s;
}

/** Revisits whose original lies in an earlier part: found by URL and payload digest once all parts are in. */
async function resolveRevisits(datasetId: number, results: PartResult[]): Promise<void> {
  const d = db();
  for (const r of results) {
    if (r.kind !== 'done') continue;
    for (const v of r.revisits) {
      const url = normaliseUrl(v.uri).href;
      const candidates = await d.pages.where('[datasetId+normUrl]').equals([datasetId, url]).toArray();
      const orig = candidates.find(
        (p) => p.recordType !== 'revisit' && p.digest === v.digest && p.seq < v.seq,
      );
      if (!orig) continue;
      await d.pages.update([datasetId, v.seq], {
        revisitOf: orig.seq,
        title: orig.title,
        fingerprint: orig.fingerprint,
        textLength: orig.textLength,
        mime: orig.mime,
        note: '',
      });
    }
  }
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
    const pages = await countStoredPages(d, datasetId);
    const error = /storage .*is full/.test(info.reason) ? storageFullInfo(fileName, pages) : info;
    try {
      await finishDataset(d, datasetId, 'partial', { ...(summary ?? {}), pages, error });
      return { pages, error };
    } catch (e) {
      if (!isQuotaError(e) || attempt >= 3 || pages === 0) throw e;
      await dropLastPages(d, datasetId, 500);
    }
  }
}
