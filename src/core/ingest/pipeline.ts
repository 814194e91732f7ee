import type { FormatId, IngestedPage, IngestErrorInfo, IngestProgress, IngestSummary } from '../types';
import { createAccessLogReader } from './access-log';
import { createArcReader } from './arc';
import { createCdxReader } from './cdx';
import { createCrawlLogReader } from './crawl-log';
import { createCsvReader } from './csv';
import { FormatFault, IngestCancelled, IngestError } from './errors';
import { concatBytes } from './bytes';
import { isGzip, MultiGunzip } from './gzip';
import { createJsonlReader } from './jsonl';
import type { FormatReader, ReaderContext } from './reader';
import { sniff } from './sniff';
import { createUrlListReader } from './url-list';
import { createWarcReader } from './warc';

export interface IngestOptions {
  fileName: string;
  totalBytes: number;
  /** Site for access logs, whose lines carry paths only; '' infers it from the referers. */
  baseUrl?: string;
  /**
   * @deprecated Ignored: a WARC.gz gzipped as one stream is now always read (in order), with a note on
   * the dataset. Kept until the worker and the UI stop passing it.
   */
  wholeFileGzip?: boolean;
  /** Pages per batch handed to the sink (one IndexedDB transaction each in the browser). */
  batchSize?: number;
  progressEveryMs?: number;
  onProgress?: (p: IngestProgress) => void;
  /** Called once the format is known, before the first batch: the caller creates its dataset here. */
  onFormat?: (format: FormatId, compressed: boolean) => Promise<void> | void;
  isCancelled?: () => boolean;
  /** File offset of the first byte of `source` (a part of a file read in parallel); default 0. */
  offsetBase?: number;
  /** First page seq (parts of one dataset use disjoint ranges); default 0. */
  seqBase?: number;
  onUnresolvedRevisit?: (seq: number, uri: string, digest: string) => void;
}

/**
 * One problem kind as the analyst reads it: a file written by a tool with a habit (node-warc's short
 * separator, ClueWeb09's lengths) shows it once with a count, not once per record.
 */
function warningInfo(
  fileName: string,
  w: { reason: string; offset: number; count: number },
  lines: boolean,
): IngestErrorInfo {
  const at = `${lines ? 'line' : 'byte'} ${w.offset.toLocaleString('en-US')}`;
  const reason =
    w.count > 1
      ? `${w.reason} (${w.count.toLocaleString('en-US')} ${lines ? 'lines' : 'records'}; the first at ${at})`
      : w.reason;
  return new IngestError(fileName, reason, lines ? { line: w.offset } : { offset: w.offset }).toInfo();
}

/** Formats whose readers report line numbers where the others report byte offsets. */
const LINE_FORMATS: ReadonlySet<FormatId> = new Set([
  'crawl-log',
  'access-log',
  'cdx',
  'jsonl',
  'csv',
  'tsv',
  'url-list',
]);

/** '2xx' for 200–299 …; 'other' for statuses that are not HTTP's (0 unknown, Heritrix's negative codes). */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

/** How much of the start of the file is read before deciding its format. */
const SNIFF_BYTES = 64 << 10;
const MAX_WARNINGS = 100;

function createReader(format: FormatId, ctx: ReaderContext, compressed: boolean): FormatReader {
  switch (format) {
    case 'warc':
      return createWarcReader(ctx, compressed);
    case 'arc':
      return createArcReader(ctx, compressed);
    case 'crawl-log':
      return createCrawlLogReader(ctx);
    case 'access-log':
      return createAccessLogReader(ctx);
    case 'cdx':
      return createCdxReader(ctx);
    case 'jsonl':
      return createJsonlReader(ctx);
    case 'csv':
      return createCsvReader(ctx, ',');
    case 'tsv':
      return createCsvReader(ctx, '\t');
    case 'url-list':
      return createUrlListReader(ctx);
  }
}

/**
 * Stream a crawl file through sniffing, (gzip,) the format's parser and page extraction, handing
 * pages to `sink` in batches. Memory holds one batch and the parser's buffers, whatever the file size.
 *
 * - A file whose format is unknown throws IngestError before `onFormat`: no dataset is made.
 * - A fault later stops reading; pages read before it have been handed to the sink and the summary
 *   carries the error (the dataset is partial).
 * - Cancel throws IngestCancelled after the pages read so far were handed to the sink.
 */
export async function ingest(
  source: AsyncIterable<Uint8Array>,
  opts: IngestOptions,
  sink: (batch: IngestedPage[]) => Promise<void>,
): Promise<IngestSummary> {
  const t0 = performance.now();
  const batchSize = opts.batchSize ?? 500;
  const everyMs = opts.progressEveryMs ?? 100;
  const recordsByType: Record<string, number> = {};
  const skipped: Record<string, number> = {};
  const statusCounts: Record<string, number> = {};
  const hosts = new Set<string>();
  /** Problems read past, one entry per kind: the first occurrence and how many times it happened. */
  const problems = new Map<string, { reason: string; offset: number; count: number }>();
  let batch: IngestedPage[] = [];
  let pages = 0;
  let records = 0;
  let seq = opts.seqBase ?? 0;
  const offsetBase = opts.offsetBase ?? 0;
  let bytesRead = 0;
  let bytesDecoded = 0;
  let lastProgress = 0;
  let format: FormatId | null = null;
  let compressed = false;
  let reader: FormatReader | null = null;
  let gunzip: MultiGunzip | null = null;
  /** Decoded bytes held back until the format is known. */
  let held: { data: Uint8Array; offset: number }[] = [];
  let heldBytes = 0;

  const ctx: ReaderContext = {
    fileName: opts.fileName,
    baseUrl: opts.baseUrl ?? '',
    warn(reason, offset, kind = reason) {
      const seen = problems.get(kind);
      if (seen) seen.count++;
      else if (problems.size < MAX_WARNINGS) problems.set(kind, { reason, offset, count: 1 });
    },
    page(p) {
      pages++;
      const c = statusClass(p.page.status);
      statusCounts[c] = (statusCounts[c] ?? 0) + 1;
      if (p.page.host) hosts.add(p.page.host);
      batch.push(p);
    },
    record(type) {
      records++;
      recordsByType[type] = (recordsByType[type] ?? 0) + 1;
    },
    skip(reason) {
      skipped[reason] = (skipped[reason] ?? 0) + 1;
    },
    nextSeq: () => seq++,
    offsetBase,
    unresolvedRevisit: opts.onUnresolvedRevisit,
  };

  const progress = (force: boolean) => {
    const now = performance.now();
    if (!opts.onProgress || (!force && now - lastProgress < everyMs)) return;
    lastProgress = now;
    opts.onProgress({
      bytesRead,
      totalBytes: opts.totalBytes,
      bytesDecoded,
      records,
      pages,
      elapsedMs: now - t0,
    });
  };

  const decoded = (data: Uint8Array, offset: number) => {
    bytesDecoded += data.length;
    if (reader) reader.push(data, offset);
    else {
      held.push({ data, offset });
      heldBytes += data.length;
    }
  };

  /** Decide the format from what is held, create the reader and replay the held bytes. */
  const decide = async (final: boolean): Promise<void> => {
    if (reader || (heldBytes < SNIFF_BYTES && !final)) return;
    const head = new Uint8Array(Math.min(heldBytes, SNIFF_BYTES));
    let o = 0;
    for (const h of held) {
      if (o >= head.length) break;
      head.set(h.data.subarray(0, head.length - o), o);
      o += Math.min(h.data.length, head.length - o);
    }
    const s = sniff(head, opts.fileName);
    if (!s.ok) {
      const reason = compressed && head.length === 0 ? 'the gzip data holds nothing' : s.reason;
      throw new IngestError(opts.fileName, compressed ? `${reason} (inside gzip)` : reason);
    }
    format = s.format;
    await opts.onFormat?.(format, compressed);
    reader = createReader(format, ctx, compressed);
    const replay = held;
    held = [];
    heldBytes = 0;
    for (const h of replay) reader.push(h.data, h.offset);
  };

  let error: IngestError | null = null;
  /** Time spent waiting for the sink (storage), reported apart from parsing. */
  let sinkMs = 0;
  /** The reader whose end() already ran (and threw): not ended twice. */
  let faulted: FormatReader | null = null;
  /**
   * One batch may be stored while the next is parsed (IndexedDB commits on its own thread), so
   * storage overlaps parsing; memory holds at most two batches.
   */
  let storing: Promise<void> = Promise.resolve();
  const flush = async (last = false) => {
    const t = performance.now();
    await storing;
    sinkMs += performance.now() - t;
    if (batch.length > 0) {
      const b = batch;
      batch = [];
      storing = sink(b);
      storing.catch(() => {}); // awaited at the next flush; not an unhandled rejection meanwhile
    }
    if (last) {
      const t2 = performance.now();
      await storing;
      sinkMs += performance.now() - t2;
    }
  };

  const summary = (): IngestSummary => ({
    fileName: opts.fileName,
    format: format!,
    compressed,
    bytes: bytesRead,
    bytesDecoded,
    recordsByType,
    pages,
    hosts: hosts.size,
    hostNames: [...hosts],
    skipped,
    error: error ? (error as IngestError).toInfo() : null,
    warnings: [...problems.values()].map((w) =>
      warningInfo(opts.fileName, w, format !== null && LINE_FORMATS.has(format)),
    ),
    warningCount: problems.size,
    elapsedMs: performance.now() - t0,
    sinkMs,
    statusCounts,
  });

  try {
    let first = true;
    let lead: Uint8Array | null = null;
    for await (let chunk of source) {
      if (opts.isCancelled?.()) throw new IngestCancelled();
      if (first) {
        // Whether the file is gzip needs its first 3 bytes, which may come in more than one chunk.
        lead = lead ? concatBytes(lead, chunk) : chunk;
        if (lead.length < 3) continue;
        first = false;
        compressed = isGzip(lead);
        if (compressed) gunzip = new MultiGunzip(decoded, offsetBase);
        chunk = lead;
        lead = null;
      }
      const at = bytesRead;
      bytesRead += chunk.length;
      if (gunzip) gunzip.push(chunk, false);
      else decoded(chunk, offsetBase + at);
      await decide(false);
      if (batch.length >= batchSize) await flush();
      progress(false);
    }
    if (first && lead) {
      // A file of 1–2 bytes: too short to be gzip.
      first = false;
      bytesRead = lead.length;
      decoded(lead, offsetBase);
    }
    if (first) throw new IngestError(opts.fileName, 'the file is empty (0 bytes)');
    gunzip?.push(new Uint8Array(0), true);
    await decide(true);
    faulted = reader;
    reader!.end();
  } catch (e) {
    if (e instanceof FormatFault) {
      const err = new IngestError(opts.fileName, e.message, { offset: e.offset, line: e.line });
      // A gzip fault can come before the format was decided: decide on the members that were whole.
      if (!reader && heldBytes > 0) await decide(true).catch(() => {});
      if (reader && reader !== faulted) {
        try {
          (reader as FormatReader).end();
        } catch {
          /* the first fault is the one reported */
        }
      }
      // A fault before the format is known, or before any record, leaves nothing to keep.
      if (!reader || pages === 0) throw err;
      error = err;
    } else if (e instanceof IngestCancelled) {
      await flush(true);
      throw new IngestCancelled(summary());
    } else throw e;
  }
  await flush(true);
  progress(true);
  return summary();
}
