import { IngestCancelled } from '../core/ingest/errors';
import { ingestOutcome } from '../core/ingest/outcome';
import { rangeOfUnit, readUnitInOrder, type UnitReader } from '../core/ingest/crawl-units';
import type { IngestOptions } from '../core/ingest/ingest-options';
import { ingestCrawl } from '../core/ingest/many-files';
import { ingest } from '../core/ingest/pipeline';
import type { Unresolved } from '../core/ingest/parts';
import { planSplits } from '../core/ingest/split';
import type { ChosenColumns, IngestErrorInfo, IngestProgress, IngestSummary } from '../core/types';
import { isQuotaError, writeBatch, flushMeter, StoreMeter } from '../db/page-writes';
import { createDataset, deleteDataset, finishDataset, updateDatasetRow } from '../db/queries';
import { writeUrlLayer } from '../db/url-layer';
import { datasetExists, DatasetGone } from '../db/orphans';
import { db, type Dataset } from '../db/schema';
import { blobSource, chunks } from './blob-source';
import type { JobApi } from './expose-job';
import { errorInfo, finishAfterFault, isStorageFull, storageFullInfo, WriteGuard } from './ingest-faults';
import { prepareSample, type PreparedSample, type SampleRequest } from './sample-read';
import {
  PARALLEL_MIN_BYTES,
  runParallel,
  type PartRequest,
  type PartResult,
  type PartRunner,
} from './ingest-parts';
import { browserNatives } from './natives';

export type { PartRequest, PartResult, PartRunner } from './ingest-parts';

export interface IngestRequest {
  /** The files of one crawl, read into ONE dataset in this order (several WARC.gz, a folder, a WACZ). */
  files: File[];
  name?: string;
  /** The Web Lock the starting tab holds while the job runs (kept on the dataset row; see markInterrupted). */
  lock?: string;
  /** The columns a Parquet table of documents is read by, as the analyst chose them. */
  parquetColumns?: ChosenColumns;
  /** Read a designed sample of the crawl by its index (a CDX/CDXJ among the files), not every record. */
  sample?: SampleRequest;
}

export type IngestResult =
  /** `row`: the dataset's row as the job left it (the page shows it at once, before its list is read again). */
  | { kind: 'done'; datasetId: number; summary: IngestSummary; row?: Dataset }
  | { kind: 'cancelled'; datasetId: number | null; pages: number }
  /** No dataset: the files are not a crawl, or (`noPage`) reading one stopped before its first page. */
  | { kind: 'rejected'; error: IngestErrorInfo; noPage?: boolean }
  /** An unexpected failure after pages were written: they are kept, the dataset is partial. */
  | { kind: 'stopped'; datasetId: number; pages: number; error: IngestErrorInfo };

/** What the ingest worker exposes: the job (run, cancel), and a part of another job's large file. */
export type IngestWorkerApi = JobApi<IngestRequest, IngestProgress, IngestResult> & {
  runPart(req: PartRequest, onProgress: (p: IngestProgress) => void): Promise<PartResult>;
  /**
   * Warm up while the tab is idle (warm-up.ts; a job's worker starts its part workers first and warms
   * them too): whether all of them have read the sample whole, without a job or a hold in between.
   */
  warmUp(): Promise<boolean>;
  /** Stop warming up (here and in the part workers) at the next piece: a job runs in the tab. */
  holdWarmUp(): void;
};

/** "crawl-00001.warc.gz and 35 more" for a crawl of many files. */
function crawlName(files: File[]): string {
  return files.length === 1 ? files[0].name : `${files[0].name} and ${files.length - 1} more`;
}

/**
 * One ingest job: the files of one crawl → core ingest (ingestCrawl: one file after another, a WACZ's
 * WARCs in turn) → Dexie in batches; the dataset is created once the first format is known. With
 * `spawn`, a large WARC(.gz)/ARC.gz is cut at verified record starts and its parts are read in
 * parallel, one worker each (this one included; see ingest-parts.ts).
 */
export async function runIngest(
  req: IngestRequest,
  onProgress: (p: IngestProgress) => void,
  isCancelled: () => boolean,
  /** `segmentBytes`: of page numbering (core/ingest/parts.ts), small in tests to cut small files. */
  spawnParts?: { parts: number; runner: () => PartRunner; minBytes?: number; segmentBytes?: number },
): Promise<IngestResult> {
  let spawn = spawnParts;
  const files = req.files;
  const label = crawlName(files);
  const d = db();
  let datasetId: number | null = null;
  let sample: (PreparedSample & { kind: 'ready' }) | null = null;
  if (req.sample) {
    // A sample's dataset exists from the start: its URL layer is stored while the index is read.
    datasetId = await createDataset(d, {
      name: req.name ?? label,
      fileName: label,
      bytes: files.reduce((a, f) => a + f.size, 0),
      format: 'warc',
      compressed: false,
      lock: req.lock,
    });
    const id = datasetId;
    let prepared: PreparedSample;
    try {
      const t0 = performance.now();
      const natives = await browserNatives();
      prepared = await prepareSample(files, req.sample, {
        onLayer: (chunk, lines) => writeUrlLayer(d, id, chunk, lines),
        isCancelled,
        inflate: natives.inflate,
        // Building an index (no CDX given): the pass over each file, as the read's progress.
        onScan: (file, bytesRead, totalBytes) =>
          onProgress({
            bytesRead,
            totalBytes,
            bytesDecoded: 0,
            records: 0,
            pages: 0,
            elapsedMs: performance.now() - t0,
            file,
          }),
      });
    } catch (e) {
      if (!(await datasetExists(d, id))) return { kind: 'cancelled', datasetId: null, pages: 0 };
      await deleteDataset(d, id);
      if (e instanceof IngestCancelled || e instanceof DatasetGone)
        return { kind: 'cancelled', datasetId: null, pages: 0 };
      return { kind: 'rejected', error: isQuotaError(e) ? storageFullInfo(label, 0) : errorInfo(label, e) };
    }
    if (prepared.kind === 'rejected') {
      await deleteDataset(d, id);
      return { kind: 'rejected', error: prepared.error };
    }
    await updateDatasetRow(d, id, { sample: prepared.info });
    sample = prepared;
    // Parts read in parallel write their own batches: a sample (a few ranges of each file) is read in order.
    spawn = undefined;
  }
  let pages = 0;
  const meter = new StoreMeter();
  const sources = sample ? sample.sources : files.map(blobSource);
  const fileOf = new Map(sources.map((x, i) => [x, files[i]]));
  const writes = new WriteGuard(isCancelled);
  const stopped = writes.stopped;
  const readUnit: UnitReader = async (unit, ctx, sink) => {
    if (writes.fault) throw new IngestCancelled();
    if (spawn && spawn.parts > 1 && unit.size >= (spawn.minBytes ?? PARALLEL_MIN_BYTES)) {
      // A file, or a WACZ's stored WARC (a range of the file), is cut in parts; a deflated member is not.
      const range = await rangeOfUnit(unit);
      const plan = range && (await planSplits(range.source, spawn.parts, ctx.segmentBytes));
      if (range && plan) {
        await ctx.onFormat(plan.format, plan.compressed);
        const whole = fileOf.get(unit.file)!;
        // A File of its own for the member (a slice of the file: nothing is copied), named as the source.
        const file = unit.entry
          ? new File([whole.slice(range.start, range.start + range.source.size)], unit.name)
          : whole;
        const here = (part: PartRequest, p: (x: IngestProgress) => void) => runPart(part, p, stopped);
        const s = await runParallel(file, datasetId!, plan, ctx, stopped, spawn.runner, here, meter);
        pages += s.pages;
        return s;
      }
    }
    return readUnitInOrder(unit, ctx, sink);
  };
  /** The read stopped by a fault: keep the pages stored (and `read`, what was read) or roll back. */
  const stop = async (e: unknown, read?: IngestSummary): Promise<IngestResult> => {
    // The dataset was deleted while it was read (any tab): its writes were refused, nothing is left.
    if (e instanceof DatasetGone) return { kind: 'cancelled', datasetId: null, pages: 0 };
    const info = isQuotaError(e) ? storageFullInfo(label, pages) : errorInfo(label, e);
    // Nothing usable was read: roll the dataset back as a whole.
    if (datasetId !== null) {
      if (pages > 0) {
        // Not the files' page counts nor the page list's matches: they count pages parsed, stored or not.
        const summary = read && { ...read, sources: undefined, pageList: undefined };
        const kept = await finishAfterFault(d, datasetId, info, label, summary);
        return { kind: 'stopped', datasetId, pages: kept.pages, error: kept.error };
      }
      await deleteDataset(d, datasetId);
    }
    return { kind: 'rejected', error: info };
  };
  try {
    const summary = await ingestCrawl(
      sources,
      {
        isCancelled: stopped,
        onProgress,
        readUnit,
        parquetColumns: req.parquetColumns,
        natives: await browserNatives(),
        segmentBytes: spawnParts?.segmentBytes,
        onFormat: async (format, compressed, container) => {
          if (datasetId !== null) {
            // A sample's dataset, made before its index was read.
            await updateDatasetRow(d, datasetId, { format, compressed, ...(container ? { container } : {}) });
            return;
          }
          datasetId = await createDataset(d, {
            name: req.name ?? label,
            fileName: label,
            bytes: files.reduce((a, f) => a + f.size, 0),
            format,
            compressed,
            ...(container ? { container } : {}),
            lock: req.lock,
          });
        },
      },
      async (batch) => {
        sample?.place(batch);
        if (await writes.write(() => writeBatch(d, datasetId!, batch, meter))) pages += batch.length;
      },
    );
    // The last write failed: the read had ended with it.
    if (writes.fault) {
      await flushMeter(d, datasetId!, meter);
      return await stop(writes.fault.error, summary);
    }
    if (summary.pages === 0 && summary.error) {
      // Every part failed before a page: nothing to keep.
      await deleteDataset(d, datasetId!);
      return { kind: 'rejected', error: summary.error, noPage: true };
    }
    if (isStorageFull(summary.error)) {
      await flushMeter(d, datasetId!, meter);
      const kept = await finishAfterFault(d, datasetId!, summary.error, label, summary);
      return { kind: 'stopped', datasetId: datasetId!, pages: kept.pages, error: kept.error };
    }
    const outcome = ingestOutcome(summary);
    // The bytes stored since the row was last touched (this worker's and its parts') go with the end.
    const row = await finishDataset(
      d,
      datasetId!,
      outcome.status,
      { ...summary, error: outcome.error },
      meter.pending,
    );
    meter.pending = 0;
    return { kind: 'done', datasetId: datasetId!, summary, ...(row ? { row } : {}) };
  } catch (e) {
    if (datasetId !== null) await flushMeter(d, datasetId, meter);
    const read = e instanceof IngestCancelled ? (e.summary ?? undefined) : undefined;
    if (writes.fault) return await stop(writes.fault.error, read);
    if (e instanceof IngestCancelled) {
      // A part's write found the dataset deleted (DatasetGone stopped that part as a cancel).
      if (datasetId !== null && !(await datasetExists(d, datasetId)))
        return { kind: 'cancelled', datasetId: null, pages: 0 };
      if (datasetId !== null) await finishDataset(d, datasetId, 'cancelled', e.summary ?? { pages });
      return { kind: 'cancelled', datasetId, pages: e.summary?.pages ?? pages };
    }
    return await stop(e);
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
  const revisits: Unresolved[] = [];
  const meter = new StoreMeter();
  const writes = new WriteGuard(isCancelled);
  const listed = req.listed ? new Set(req.listed) : null;
  const found = new Set<string>();
  const opts: IngestOptions = {
    fileName: req.fileName,
    totalBytes: req.file.size,
    offsetBase: req.offsetBase,
    bodyCacheChars: req.bodyCacheChars,
    seqBase: req.seqBase,
    segmentBytes: req.segmentBytes,
    onProgress,
    isCancelled: writes.stopped,
    onUnresolvedRevisit: (seq, uri, digest) => revisits.push({ seq, uri, digest }),
    natives: await browserNatives(),
  };
  try {
    const summary = await ingest(chunks(req.file), opts, async (batch) => {
      const marked: string[] = [];
      for (const p of batch) {
        p.page.source = req.source;
        if (listed?.has(p.page.normUrl)) {
          p.page.listed = true;
          marked.push(p.page.normUrl);
        }
      }
      if (await writes.write(() => writeBatch(d, req.datasetId, batch, meter))) {
        pages += batch.length;
        for (const u of marked) found.add(u);
      }
    });
    if (writes.fault) {
      await flushMeter(d, req.datasetId, meter);
      return failed(writes.fault.error, summary);
    }
    // Its bytes not yet on the row go to the job, which adds them with the read's end (one transaction).
    return { kind: 'done', summary, revisits, unstored: meter.pending, ...foundOnes() };
  } catch (e) {
    await flushMeter(d, req.datasetId, meter);
    const read = e instanceof IngestCancelled ? e.summary : null;
    if (writes.fault) return failed(writes.fault.error, read);
    if (e instanceof IngestCancelled) return { kind: 'cancelled', pages, summary: e.summary, ...foundOnes() };
    return failed(e, null);
  }
  function foundOnes(): { found?: string[] } {
    return found.size > 0 ? { found: [...found] } : {};
  }
  function failed(e: unknown, read: IngestSummary | null): PartResult {
    // The dataset was deleted while it was read (any tab): a cancel, the whole read stops.
    if (e instanceof DatasetGone) return { kind: 'cancelled', pages, summary: read, ...foundOnes() };
    const error = isQuotaError(e) ? storageFullInfo(req.fileName, pages) : errorInfo(req.fileName, e);
    return { kind: 'failed', pages, error, read, ...foundOnes() };
  }
}
