/** What `ingest()` (pipeline.ts) is told about a read: the file, its place among parts, the callbacks. */
import type { FormatId, IngestProgress } from '../types';
import type { Natives } from './natives';

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
  /**
   * A batch is handed over after this long even when it holds fewer than `batchSize` pages (default
   * 1000 ms; the first after half of it): large pages fill a batch of 500 only seconds into a read
   * (a 34 MB real crawl stored nothing for 7.7 s), and a reload before the first batch kept nothing.
   * 0 hands over only full batches.
   */
  flushEveryMs?: number;
  progressEveryMs?: number;
  onProgress?: (p: IngestProgress) => void;
  /** Called once the format is known, before the first batch: the caller creates its dataset here. */
  onFormat?: (format: FormatId, compressed: boolean) => Promise<void> | void;
  isCancelled?: () => boolean;
  /** File offset of the first byte of `source` (a part of a file read in parallel); default 0. */
  offsetBase?: number;
  /** First page seq of the source (sources of a dataset use disjoint ranges); default 0. */
  seqBase?: number;
  /**
   * Bytes of a page-numbering segment (parts.ts): WARC and ARC pages are numbered by where their records
   * lie, so that parts read in parallel number them as a read in order does. Default SEGMENT_BYTES;
   * tests make it small to cut small files in parts.
   */
  segmentBytes?: number;
  onUnresolvedRevisit?: (seq: number, uri: string, digest: string) => void;
  /** The platform's native inflate and SHA-1 (natives.ts); default: fflate and text/sha1.ts. */
  natives?: Natives;
  /** The format, when the caller knows it (a Parquet table's rows handed over as lines): not sniffed. */
  format?: FormatId;
  /**
   * Bytes of the file read so far, when `source` is not the file's own bytes (a Parquet table's rows as
   * lines): progress and the summary count these.
   */
  filePosition?: () => number;
  /**
   * Characters of HTML and text the read keeps to extract a repeated page once (extraction-cache.ts);
   * default 16 Mi, 0 extracts every page anew (the tests compare both).
   */
  bodyCacheChars?: number;
}
