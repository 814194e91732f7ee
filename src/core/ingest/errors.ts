import type { IngestErrorInfo, IngestSummary } from '../types';
import { JobCancelled } from '../jobs';

/** A parser's fault without the file name (core/format-fault.ts, which the codecs raise too), for the readers. */
export { FormatFault } from '../format-fault';

/** A fault in a crawl file: names the file, where it went wrong and why (STYLE.md: errors at the boundaries). */
export class IngestError extends Error {
  readonly fileName: string;
  readonly offset: number;
  readonly line: number;
  readonly reason: string;
  /** A Parquet table's columns, when its documents' were not found (the analyst may choose them). */
  readonly columns?: string[];

  /** `lineWord`: what `line` counts ('row' for a Parquet table). */
  constructor(
    fileName: string,
    reason: string,
    where: { offset?: number; line?: number; lineWord?: 'line' | 'row'; columns?: string[] } = {},
  ) {
    const offset = where.offset ?? -1;
    const line = where.line ?? -1;
    const at =
      line >= 0
        ? ` at ${where.lineWord ?? 'line'} ${line}`
        : offset >= 0
          ? ` at byte ${offset.toLocaleString('en-US')}`
          : '';
    super(`${fileName}${at}: ${reason}`);
    this.name = 'IngestError';
    this.fileName = fileName;
    this.offset = offset;
    this.line = line;
    this.reason = reason;
    if (where.columns) this.columns = where.columns;
  }

  toInfo(): IngestErrorInfo {
    return {
      fileName: this.fileName,
      offset: this.offset,
      line: this.line,
      reason: this.reason,
      message: this.message,
      ...(this.columns ? { columns: this.columns } : {}),
    };
  }
}

/** Thrown when the analyst cancels; not a fault of the file. The job cancellation, with what was read. */
export class IngestCancelled extends JobCancelled {
  /** What was read before the cancel (set by the pipeline). */
  readonly summary: IngestSummary | null;
  constructor(summary: IngestSummary | null = null) {
    super('ingest cancelled');
    this.name = 'IngestCancelled';
    this.summary = summary;
  }
}
