import type { ChosenColumns, FormatId, IngestedPage, IngestProgress, IngestSummary } from '../types';
import { IngestError } from './errors';
import type { Natives } from './natives';
import { NotDocuments, parquetLines, type ParquetLines } from './parquet';
import { ingest } from './pipeline';
import { memberRange, memberStream, sliceSource, type ByteSource, type ZipEntry } from './wacz';

/** One stream read through the pipeline: a whole file, or one WARC member of a WACZ. */
export interface CrawlUnit {
  /** Source name: the file name, or "crawl.wacz › archive/data.warc.gz". */
  name: string;
  /** Bytes this unit reads from its file (for progress over all files). */
  size: number;
  file: ByteSource;
  /** The WACZ member; absent for a whole file. */
  entry?: ZipEntry;
  /** A Parquet table of documents (parquet.ts): read by row groups, never cut in parts. */
  parquet?: boolean;
  /** Its documents' columns as the analyst chose them (else found by name). */
  parquetColumns?: ChosenColumns;
}

export interface UnitContext {
  source: number;
  seqBase: number;
  baseUrl: string;
  isCancelled?: () => boolean;
  onProgress: (p: IngestProgress) => void;
  /** Called when the unit's format is known (the dataset is created at the first). */
  onFormat: (format: FormatId, compressed: boolean) => Promise<void>;
  /** Tags each page with its source (and marks WACZ-listed pages); call on every batch before storing. */
  tag: (batch: IngestedPage[]) => void;
  /**
   * The WACZ's pages.jsonl, for readers whose pages are tagged elsewhere (the browser's parallel parts,
   * each in its own worker): the listed URLs (normalised) to mark `listed`, and `found` to report those
   * marked. Absent when no page list was read.
   */
  pageList?: { urls(): string[]; found(urls: Iterable<string>): void };
  /** The platform's native inflate and SHA-1 (natives.ts); default fflate and text/sha1.ts. */
  natives?: Natives;
  /** Bytes of a page-numbering segment (parts.ts): parts are cut at segments. */
  segmentBytes?: number;
}

/** Reads one unit; the default streams it through `ingest`. The worker's splits a large WARC in parts. */
export type UnitReader = (
  unit: CrawlUnit,
  ctx: UnitContext,
  sink: (batch: IngestedPage[]) => Promise<void>,
) => Promise<IngestSummary>;

/**
 * The bytes of a unit as they are in its file, for a reader that cuts them in parallel parts: the whole
 * file, or a STORED WACZ member (the spec asks for STORE on the WARCs: such a member is its WARC as it
 * is, a range of the file). `start` is where they begin in the file. Null for a deflated member, and
 * for one whose local header is not where the directory says (read in order, the read reports it).
 */
export async function rangeOfUnit(unit: CrawlUnit): Promise<{ start: number; source: ByteSource } | null> {
  if (unit.parquet) return null;
  if (!unit.entry) return { start: 0, source: unit.file };
  if (unit.entry.method !== 0) return null;
  try {
    const { start, end } = await memberRange(unit.file, unit.entry);
    return { start, source: sliceSource(unit.file, start, end, unit.name) };
  } catch {
    return null;
  }
}

export const unitStream = (u: CrawlUnit): AsyncIterable<Uint8Array> =>
  u.entry ? memberStream(u.file, u.entry) : u.file.stream(0, u.file.size);

export const readUnitInOrder: UnitReader = async (unit, ctx, sink) => {
  let table: ParquetLines | null = null;
  if (unit.parquet) {
    try {
      table = await parquetLines(unit.file, unit.parquetColumns);
    } catch (e) {
      // Not a table of documents, or a footer hyparquet cannot read: the file is not a crawl.
      if (e instanceof NotDocuments) throw new IngestError(unit.name, e.message, { columns: e.columns });
      throw new IngestError(unit.name, `an unreadable Parquet file: ${(e as Error).message}`);
    }
  }
  return ingest(
    table ? table.lines : unitStream(unit),
    {
      fileName: unit.name,
      totalBytes: unit.size,
      baseUrl: ctx.baseUrl,
      seqBase: ctx.seqBase,
      segmentBytes: ctx.segmentBytes,
      isCancelled: ctx.isCancelled,
      onProgress: ctx.onProgress,
      onFormat: ctx.onFormat,
      natives: ctx.natives,
      ...(table ? { format: 'parquet' as const, filePosition: table.position } : {}),
    },
    async (batch) => {
      ctx.tag(batch);
      await sink(batch);
    },
  );
};
