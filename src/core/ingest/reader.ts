import type { DigestCheck } from './digests';
import type { ExtractionCache } from './extraction-cache';
import type { Sha1 } from './natives';
import type { IngestedPage, ProblemKind } from '../types';
import { BUDGET, mib } from '../codecs/budget';
import { FormatFault } from './errors';

/** What a format reader reports to the pipeline. */
export interface ReaderContext {
  fileName: string;
  /** Base URL for formats that give paths only (access logs); '' to infer. */
  baseUrl: string;
  page(p: IngestedPage): void;
  /**
   * A problem the reader recovered from (kept with the dataset, shown to the analyst). Repeats of one
   * `kind` (default: the reason itself) are noted once, with how many records had it and the first offset.
   */
  warn(reason: string, offset: number, kind?: ProblemKind): void;
  record(type: string): void;
  skip(reason: string): void;
  /**
   * The next page's seq: by where its record starts (`offset`, for WARC and ARC records: parts.ts
   * SegmentNumbering), or in order (formats without record offsets of their own).
   */
  nextSeq(offset?: number): number;
  /** File offset of the first byte this reader sees (parallel parts read a slice of the file). */
  offsetBase: number;
  /** A revisit whose original was not read by this reader (another part may hold it). */
  unresolvedRevisit?(seq: number, uri: string, digest: string): void;
  /** The platform's synchronous SHA-1, for payloads without a recorded digest (natives.ts). */
  sha1?: Sha1;
  /** The read's page bodies: the same HTML is extracted once (extraction-cache.ts). */
  bodies?: ExtractionCache;
  /** Checks the digests a record states against its bytes (digests.ts); WARC readers hand it every record. */
  digests?: DigestCheck;
}

/** A format reader is a push parser over the decoded byte stream. */
export interface FormatReader {
  push(chunk: Uint8Array, sourceOffset: number): void;
  /** No more input: flush what is buffered (and throw if the file ended mid-record). */
  end(): void;
  /**
   * The decoded stream jumps here: damaged compressed data was read past (codecs/gzip.ts onSkip), and
   * what follows starts a new member. A record or line the jump cuts is dropped (and said); what comes
   * next is read as the start of a record. Readers without it read on as if nothing happened.
   */
  gap?(offset: number): void;
  /** How many records/lines were read. */
  readonly count: number;
}

/** A line reader's onLong that notes the skipped line (the lines after it are read). */
export function skipLongLines(ctx: Pick<ReaderContext, 'warn'>): (lineNo: number) => void {
  return (n) =>
    ctx.warn(
      `line ${n.toLocaleString('en-US')} is longer than ${mib(BUDGET.lineBytes)}: skipped`,
      n,
      'long-line',
    );
}

/**
 * Lines of a text format, decoded as UTF-8 in a streaming way. `onLine` gets each line without its
 * line break and its 1-based number.
 */
export class LineReader implements FormatReader {
  private decoder = new TextDecoder('utf-8');
  private carry = '';
  private lineNo = 0;
  /** Inside a line over the budget: its bytes are dropped up to its line break. */
  private longLine = false;
  count = 0;

  constructor(
    private readonly onLine: (line: string, lineNo: number) => void,
    /** A line over BUDGET.lineBytes, skipped (its number); without it such a line is a fault. */
    private readonly onLong?: (lineNo: number) => void,
  ) {}

  push(chunk: Uint8Array): void {
    let s = this.decoder.decode(chunk, { stream: true });
    if (this.longLine) {
      const nl = s.indexOf('\n');
      if (nl < 0) return;
      this.longLine = false;
      s = s.slice(nl + 1);
    } else s = this.carry + s;
    let from = 0;
    for (let nl = s.indexOf('\n'); nl >= 0; nl = s.indexOf('\n', from)) {
      this.line(s.slice(from, nl));
      from = nl + 1;
    }
    this.carry = s.slice(from);
    if (this.carry.length > BUDGET.lineBytes) {
      if (!this.onLong)
        throw new FormatFault(`a line longer than ${mib(BUDGET.lineBytes)}`, { line: this.lineNo + 1 });
      // Not held: dropped up to its line break, counted, and the lines after it read.
      this.lineNo++;
      this.onLong(this.lineNo);
      this.carry = '';
      this.longLine = true;
    }
  }

  /** A jump in the stream: the line it cuts is dropped, the next chunk starts a line. */
  gap(): void {
    this.decoder.decode();
    this.carry = '';
    this.longLine = false;
  }

  end(): void {
    const rest = this.carry + this.decoder.decode();
    this.carry = '';
    if (rest !== '' && !this.longLine) this.line(rest);
  }

  private line(raw: string): void {
    this.lineNo++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (this.lineNo === 1 && line.charCodeAt(0) === 0xfeff) {
      this.count++;
      this.onLine(line.slice(1), 1);
      return;
    }
    this.count++;
    this.onLine(line, this.lineNo);
  }
}
