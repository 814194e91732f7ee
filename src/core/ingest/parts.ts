/**
 * One large WARC(.gz) or ARC.gz read in parallel parts, the same whichever platform reads it — the
 * browser's ingest workers (workers/ingest-parts.ts) or the CLI's threads (cli/parts.ts) — and the same
 * as a read in order. The platforms choose how many parts and from what file size, and run them; what
 * the parts' pages are called and tied to is decided here:
 *
 * - **Page numbers from where a record lies.** A file is cut into segments of `segmentBytes`; a page's
 *   seq is its source's base + its segment × SEGMENT_SEQS + its rank among the segment's pages
 *   (SegmentNumbering). Parts begin where segments begin (split.ts places each cut at the first record
 *   start at or after a segment boundary), so a part numbers its pages as a read in order does, without
 *   waiting for the parts before it, and the browser's parts write their rows as they read them.
 * - **Revisits tied as a read in order ties them.** A revisit whose original lies in an earlier part is
 *   tied, once the parts before it are in, to the last earlier page of the same normalised URL and
 *   payload digest that is not itself a revisit (RevisitTies), as origins.ts does within a read.
 * - **One progress** summed over the parts (sumProgress).
 */
import type { IngestProgress } from '../types';
import { normaliseUrl } from '../url/normalize';
import { FormatFault } from './errors';

/**
 * Bytes of a segment: the unit of page numbering, and where a file can be cut in parts (small enough for
 * parts of even size: a cut is at most a segment off an even share).
 */
export const SEGMENT_BYTES = 1 << 20;
/**
 * Seqs of a segment: more than its pages can be (a page's record takes 40 bytes at the least: at most
 * ~26k in 1 MiB). A source's 2^38 seqs (many-files.ts) hold 2^22 segments: files up to 4 TiB.
 */
export const SEGMENT_SEQS = 2 ** 16;

/** Page numbers by where their records start (see above); offsets only grow in a read. */
export class SegmentNumbering {
  private segment = -1;
  private rank = 0;

  constructor(
    private readonly base: number,
    private readonly segmentBytes = SEGMENT_BYTES,
  ) {}

  /** The seq of the next page, whose record starts at file offset `offset`. */
  next(offset: number): number {
    const s = Math.floor(offset / this.segmentBytes);
    if (s > this.segment) {
      this.segment = s;
      this.rank = 0;
    }
    if (this.rank >= SEGMENT_SEQS)
      throw new FormatFault(`more than ${SEGMENT_SEQS} records in ${this.segmentBytes} bytes`, { offset });
    return this.base + this.segment * SEGMENT_SEQS + this.rank++;
  }
}

/** A revisit whose original was not in its part (an earlier part may hold it). */
export interface Unresolved {
  seq: number;
  uri: string;
  digest: string;
}

/** What a tie reads of a page. */
export interface TiePage {
  seq: number;
  normUrl: string;
  digest: string;
  recordType: string;
}

/**
 * Ties the revisits that parts left open: pages are shown in seq order (`see`), each open revisit gets
 * the last page seen before it with its normalised URL and payload digest that is not a revisit.
 */
export class RevisitTies<P extends TiePage> {
  private readonly originals = new Map<string, P>();
  private readonly open = new Map<number, Unresolved>();

  /** Revisits left open by a part (told with its pages or before them). */
  leave(revisits: Iterable<Unresolved>): void {
    for (const r of revisits) this.open.set(r.seq, r);
  }

  get pending(): number {
    return this.open.size;
  }

  /** The original `page` is tied to, if it is an open revisit and one is known; then `page` is remembered. */
  see(page: P): P | undefined {
    let tied: P | undefined;
    const r = this.open.get(page.seq);
    if (r) {
      this.open.delete(page.seq);
      tied = this.originals.get(normaliseUrl(r.uri).href + ' ' + r.digest);
    }
    if (page.recordType !== 'revisit' && page.digest)
      this.originals.set(page.normUrl + ' ' + page.digest, page);
    return tied;
  }
}

type PartProgress = Pick<IngestProgress, 'bytesRead' | 'bytesDecoded' | 'records' | 'pages'>;

/** The parts' progress as one read's (parts not yet heard from count nothing). */
export function sumProgress(
  parts: readonly (PartProgress | null | undefined)[],
  totalBytes: number,
  elapsedMs: number,
): IngestProgress {
  const sum = (f: (x: PartProgress) => number) => parts.reduce((a, x) => a + (x ? f(x) : 0), 0);
  return {
    bytesRead: sum((x) => x.bytesRead),
    totalBytes,
    bytesDecoded: sum((x) => x.bytesDecoded),
    records: sum((x) => x.records),
    pages: sum((x) => x.pages),
    elapsedMs,
  };
}
