/** One run of `ingest()` (pipeline.ts): its counters, reader, decoders and the steps the driver calls. */
import { lineWord, type FormatId, type IngestedPage, type ProblemKind, type IngestSummary } from '../types';
import { digestWarnings } from './digest-report';
import { DigestCheck } from './digests';
import { FormatFault, IngestError } from './errors';
import { ExtractionCache } from './extraction-cache';
import { createReader } from './format-readers';
import { isGzip, MultiGunzip } from '../codecs/gzip';
import type { IngestOptions } from './ingest-options';
import { warningInfo, type Problem } from './ingest-problems';
import { SegmentNumbering } from './parts';
import type { FormatReader, ReaderContext } from './reader';
import { sniff } from './sniff';
import { statusClass } from './status';
import { isZstd, ZstdFrames } from '../codecs/zstd';

/** How much of the start of the file is read before deciding its format. */
/** Damaged spans noted one by one; the ones after are counted in one note. */
const LISTED_SPANS = 20;
const SNIFF_BYTES = 64 << 10;
const MAX_WARNINGS = 100;

/**
 * One run of `ingest`: its counters and the five steps a file goes through, each a method —
 * sniff the gzip lead (`lead`), decode (`decoded`, gzip members or raw bytes), sniff the format
 * (`sniffFormat`), parse records into pages (the format reader, which calls `ctx.page` with each
 * built page), and batch pages to the sink (`flush`). `ingest` (pipeline.ts) drives them over the source.
 */
export class IngestRun {
  readonly t0 = performance.now();
  readonly batchSize: number;
  readonly flushEveryMs: number;
  /** When a batch was last handed to the sink (the read's start before the first). */
  lastFlush = this.t0;
  readonly recordsByType: Record<string, number> = {};
  readonly skipped: Record<string, number> = {};
  readonly statusCounts: Record<string, number> = {};
  readonly hosts = new Set<string>();
  readonly problems = new Map<string, Problem>();
  batch: IngestedPage[] = [];
  pages = 0;
  records = 0;
  /** Seq of the next page of a format without record offsets. */
  seq: number;
  readonly numbering: SegmentNumbering;
  readonly offsetBase: number;
  bytesRead = 0;
  bytesDecoded = 0;
  lastProgress = 0;
  format: FormatId | null = null;
  compressed = false;
  reader: FormatReader | null = null;
  gunzip: MultiGunzip | null = null;
  /** Frames of a zstd file (zstd.ts); `compressed` is true too: readers see frames as gzip members. */
  zstd: ZstdFrames | null = null;
  /** Decoded bytes held back until the format is known. */
  held: { data: Uint8Array; offset: number; gap?: boolean }[] = [];
  heldBytes = 0;
  error: IngestError | null = null;
  /** Time spent waiting for the sink (storage), reported apart from parsing. */
  sinkMs = 0;
  /** The reader whose end() already ran (and threw): not ended twice. */
  faulted: FormatReader | null = null;
  /**
   * One batch may be stored while the next is parsed (IndexedDB commits on its own thread), so
   * storage overlaps parsing; memory holds at most two batches.
   */
  storing: Promise<void> = Promise.resolve();
  readonly ctx: ReaderContext;
  /** The stated digests checked against the records' bytes (digests.ts). */
  readonly digests: DigestCheck;

  constructor(
    readonly opts: IngestOptions,
    readonly sink: (batch: IngestedPage[]) => Promise<void>,
  ) {
    this.batchSize = opts.batchSize ?? 500;
    this.flushEveryMs = opts.flushEveryMs ?? 1000;
    this.seq = opts.seqBase ?? 0;
    this.numbering = new SegmentNumbering(this.seq, opts.segmentBytes);
    this.offsetBase = opts.offsetBase ?? 0;
    this.digests = new DigestCheck(opts.fileName, opts.natives);
    this.ctx = {
      fileName: opts.fileName,
      baseUrl: opts.baseUrl ?? '',
      warn: (reason, offset, kind) => {
        const key = kind ?? reason;
        const seen = this.problems.get(key);
        if (seen) seen.count++;
        else if (this.problems.size < MAX_WARNINGS)
          this.problems.set(key, kind ? { reason, offset, count: 1, kind } : { reason, offset, count: 1 });
      },
      page: (p) => {
        this.pages++;
        const c = statusClass(p.page.status);
        this.statusCounts[c] = (this.statusCounts[c] ?? 0) + 1;
        if (p.page.host) this.hosts.add(p.page.host);
        this.batch.push(p);
      },
      record: (type) => {
        this.records++;
        this.recordsByType[type] = (this.recordsByType[type] ?? 0) + 1;
      },
      skip: (reason) => {
        this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
      },
      nextSeq: (offset) => (offset === undefined ? this.seq++ : this.numbering.next(offset)),
      offsetBase: this.offsetBase,
      unresolvedRevisit: opts.onUnresolvedRevisit,
      sha1: opts.natives?.sha1,
      bodies: new ExtractionCache(opts.bodyCacheChars),
      digests: this.digests,
    };
  }

  progress(force: boolean): void {
    const now = performance.now();
    const opts = this.opts;
    if (!opts.onProgress || (!force && now - this.lastProgress < (opts.progressEveryMs ?? 100))) return;
    this.lastProgress = now;
    opts.onProgress({
      bytesRead: opts.filePosition?.() ?? this.bytesRead,
      totalBytes: opts.totalBytes,
      bytesDecoded: this.bytesDecoded,
      records: this.records,
      pages: this.pages,
      elapsedMs: now - this.t0,
    });
  }

  /** Step 1, sniff gzip: the file's first bytes (at least 3) decide whether it is gzip. */
  lead(lead: Uint8Array): void {
    if (isZstd(lead)) {
      this.compressed = true;
      this.zstd = new ZstdFrames(this.decoded, this.offsetBase, this.skippedSpan);
      return;
    }
    this.compressed = isGzip(lead);
    if (this.compressed)
      this.gunzip = new MultiGunzip(
        this.decoded,
        this.offsetBase,
        this.opts.natives?.inflate,
        this.skippedSpan,
      );
  }

  private spans = 0;
  /** A damaged span of compressed data read past: noted with its offsets (the first ones one by one). */
  readonly skippedSpan = (from: number, to: number, reason: string, salvaged: number): void => {
    this.spans++;
    const span = `bytes ${from}–${to} (${(to - from).toLocaleString('en-US')} bytes) skipped: ${reason}`;
    const rest =
      salvaged > 0
        ? `; the ${salvaged.toLocaleString('en-US')} bytes the damaged part inflated to were read, the records whole in them kept`
        : '';
    const where = this.spans <= LISTED_SPANS ? `damaged span ${this.spans}` : 'damaged spans';
    const said =
      this.spans <= LISTED_SPANS
        ? `${span}${rest}; reading resumed after it`
        : 'more damaged spans read past';
    this.ctx.warn(said, from, where as ProblemKind);
    // What follows starts a new member: a record or line the damage cut is dropped by the reader.
    if (this.reader) this.reader.gap?.(to);
    else this.held.push({ data: new Uint8Array(0), offset: to, gap: true });
  };

  /** Step 2, decode: a chunk of the file, through gunzip when compressed. */
  async decode(chunk: Uint8Array, final = false): Promise<void> {
    const at = this.bytesRead;
    this.bytesRead += chunk.length;
    if (this.gunzip) await this.gunzip.push(chunk, final);
    else if (this.zstd) await this.zstd.push(chunk, final);
    else if (chunk.length > 0) this.decoded(chunk, this.offsetBase + at);
  }

  /** Decoded bytes go to the format's reader (step 4, parse records and build pages), or are held. */
  readonly decoded = (data: Uint8Array, offset: number): void => {
    this.bytesDecoded += data.length;
    if (this.reader) this.reader.push(data, offset);
    else {
      this.held.push({ data, offset });
      this.heldBytes += data.length;
      // One chunk of a file can inflate to gigabytes (a bomb in its first member): the reader is made
      // as soon as there is enough to sniff, so what follows streams through it instead of being held.
      if (this.heldBytes >= SNIFF_BYTES) this.sniffNow(false);
    }
  };

  /** Step 3, sniff the format from what is held; create the reader and replay the held bytes. */
  async sniffFormat(final: boolean): Promise<void> {
    if (!this.reader) this.sniffNow(final);
    if (this.reader && !this.formatTold) {
      this.formatTold = true;
      await this.opts.onFormat?.(this.format!, this.compressed);
    }
  }

  /** Whether onFormat was called (the reader may be made inside a decode, onFormat is awaited after). */
  private formatTold = false;

  /** The synchronous part of step 3 (no-op until SNIFF_BYTES are held, unless `final`). */
  private sniffNow(final: boolean): void {
    if (this.reader || (this.heldBytes < SNIFF_BYTES && !final)) return;
    const head = new Uint8Array(Math.min(this.heldBytes, SNIFF_BYTES));
    let o = 0;
    for (const h of this.held) {
      if (o >= head.length) break;
      head.set(h.data.subarray(0, head.length - o), o);
      o += Math.min(h.data.length, head.length - o);
    }
    const { fileName } = this.opts;
    const s = this.opts.format ? { ok: true as const, format: this.opts.format } : sniff(head, fileName);
    if (!s.ok) {
      const codec = this.zstd ? 'zstd' : 'gzip';
      const reason = this.compressed && head.length === 0 ? `the ${codec} data holds nothing` : s.reason;
      throw new IngestError(fileName, this.compressed ? `${reason} (inside ${codec})` : reason);
    }
    this.format = s.format;
    const reader = createReader(s.format, this.ctx, this.compressed);
    this.reader = reader;
    const replay = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const h of replay) {
      if (h.gap) reader.gap?.(h.offset);
      else reader.push(h.data, h.offset);
    }
  }

  /** Whether the batch is due: full, or holding pages read `flushEveryMs` since the last hand-over. */
  due(): boolean {
    const n = this.batch.length;
    if (n >= this.batchSize) return true;
    if (n === 0 || this.flushEveryMs <= 0) return false;
    const limit = this.lastFlush === this.t0 ? this.flushEveryMs / 2 : this.flushEveryMs;
    return performance.now() - this.lastFlush >= limit;
  }

  /** Step 5, batch to the sink: hand the current batch over once the previous one is stored. */
  async flush(last = false): Promise<void> {
    const t = performance.now();
    await this.storing;
    this.sinkMs += performance.now() - t;
    if (this.batch.length > 0) {
      const b = this.batch;
      this.batch = [];
      this.lastFlush = performance.now();
      this.storing = this.sink(b);
      this.storing.catch(() => {}); // awaited at the next flush; not an unhandled rejection meanwhile
    }
    if (last) {
      const t2 = performance.now();
      await this.storing;
      this.sinkMs += performance.now() - t2;
    }
  }

  /** The end of the file: the last gzip member, the format of a short file, the reader's last record. */
  async end(): Promise<void> {
    await this.gunzip?.push(new Uint8Array(0), true);
    await this.zstd?.push(new Uint8Array(0), true);
    await this.sniffFormat(true);
    this.faulted = this.reader;
    this.reader!.end();
  }

  /**
   * A format fault stops reading: the pages read before it are kept and the summary carries the
   * error, unless nothing usable was read (then it is thrown: no dataset is kept).
   */
  async fault(e: FormatFault): Promise<void> {
    const err = new IngestError(this.opts.fileName, e.message, {
      offset: e.offset,
      line: e.line,
      lineWord: lineWord(this.format),
    });
    // A gzip fault can come before the format was decided: decide on the members that were whole.
    if (!this.reader && this.heldBytes > 0) await this.sniffFormat(true).catch(() => {});
    const reader = this.reader;
    if (reader && reader !== this.faulted) {
      try {
        reader.end();
      } catch {
        /* the first fault is the one reported */
      }
    }
    // A fault before the format is known, or before any record, leaves nothing to keep.
    if (!reader || this.pages === 0) throw err;
    // The fault came as the held start of the file was replayed into the reader (a small file, its
    // fault within its first 64 KiB): the format is told now, so the pages read before it are kept.
    if (!this.formatTold) {
      this.formatTold = true;
      await this.opts.onFormat?.(this.format!, this.compressed);
    }
    this.error = err;
  }

  summary(): IngestSummary {
    const { fileName } = this.opts;
    const format = this.format;
    const digests = this.digests.result();
    // Digest mismatches are one problem per field with the read's count (digests.ts), not one per record.
    const digestProblems = digestWarnings(digests);
    return {
      fileName,
      format: format!,
      compressed: this.compressed,
      ...(this.zstd ? { compression: 'zstd' as const } : {}),
      bytes: this.opts.filePosition?.() ?? this.bytesRead,
      bytesDecoded: this.bytesDecoded,
      recordsByType: this.recordsByType,
      pages: this.pages,
      hosts: this.hosts.size,
      hostNames: [...this.hosts],
      skipped: this.skipped,
      error: this.error ? this.error.toInfo() : null,
      warnings: [
        ...[...this.problems.values()].map((w) => warningInfo(fileName, w, format)),
        ...digestProblems,
      ],
      warningCount: this.problems.size + digestProblems.length,
      elapsedMs: performance.now() - this.t0,
      sinkMs: this.sinkMs,
      statusCounts: this.statusCounts,
      ...(digests ? { digests } : {}),
    };
  }
}
