/**
 * The memory budget of a read, in one place: the browser's workers, the CLI and the batch read with
 * these. Crawled bytes are hostile: a 3 MB gzip member can declare 3 GiB of zeros, an HTTP body can be
 * a compression bomb, a length can be corrupted to any value. Every place where data inflates or is
 * buffered stops at one of these, so what a read holds at once is a few times the largest of them,
 * whatever the input.
 */
export const BUDGET = {
  /** A record's block is kept in memory up to this; a larger one is counted and skipped while streaming. */
  recordBytes: 64 << 20,
  /** Payload bytes decoded to text per page (a page's text is cut there, and the page noted). */
  textBytes: 8 << 20,
  /**
   * A gzip member inflated in one piece when it inflates to at most this; a larger one (or one whose
   * size is not known) is inflated as a stream, in steps of `inflateStep` input bytes.
   */
  memberBytes: 32 << 20,
  /**
   * Compressed bytes handed to a streaming inflater at once: deflate expands at most ~1032×, so one
   * step yields at most ~16 MiB.
   */
  inflateStep: 16 << 10,
  /** A record header (WARC, HTTP). */
  headerBytes: 1 << 20,
  /** A line of a line-based format (JSONL, CSV, logs, CDX). */
  lineBytes: 16 << 20,
  /** The history a zstd frame may ask a decoder to keep (zstd.ts; fzstd's own limit for correct output). */
  zstdWindow: 32 << 20,
  /** A zstd dictionary (the WARC zstd layout's first frame), as stored and once decompressed. */
  zstdDictionary: 16 << 20,
} as const;

/** Deflate's largest expansion: 258 bytes from a 2-bit code, rounded up (zlib's own bound). */
export const DEFLATE_MAX_RATIO = 1032;

/** "64 MiB" for a budget in bytes. */
export function mib(bytes: number): string {
  return `${Math.round(bytes / (1 << 20))} MiB`;
}
