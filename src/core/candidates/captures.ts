/**
 * Captures of one URL — a crawler's re-fetches, a page visited again — are one page with N captures:
 * four fetches of …/bugs.html are not a cluster of four replicas. Unless the analyst asks to compare
 * captures (`each`), the earliest capture of a URL that takes part in signatures stands for it (an
 * unknown time last, then the first read: earliestCaptures), and the others are listed with it (what
 * the clusters, their counts and graphs show; the capture list in a page's detail). The batch folds
 * them alike (sql/dedup.sql `stands`), whatever the order its shards are read in. Captures are told
 * apart by the normalised URL (src/core/url/normalize.ts).
 */

export type CaptureMode = 'url' | 'each';

/** The captures that do not stand for their URL: each one's page index, and its own seq. */
export interface Captures {
  /** Index (in signature order) of the page standing for the URL, per extra capture. */
  of: Uint32Array;
  /** The extra capture's seq. */
  seqs: Float64Array;
}

/** A capture as earliestCaptures reads it. */
export interface CaptureTime {
  normUrl: string;
  seq: number;
  /** ISO 8601; '' unknown. */
  fetchedAt: string;
}

/**
 * The capture standing for each URL captured more than once: the earliest (an unknown time last), the
 * first read among equal times. Given in read order; normalised URL → its seq.
 */
export function earliestCaptures(captures: Iterable<CaptureTime>): Map<string, number> {
  const best = new Map<string, CaptureTime>();
  const many = new Set<string>();
  for (const c of captures) {
    const b = best.get(c.normUrl);
    if (!b) {
      best.set(c.normUrl, c);
      continue;
    }
    many.add(c.normUrl);
    const earlier = b.fetchedAt === '' ? c.fetchedAt !== '' : c.fetchedAt !== '' && c.fetchedAt < b.fetchedAt;
    if (earlier) best.set(c.normUrl, c);
  }
  const out = new Map<string, number>();
  for (const u of many) out.set(u, best.get(u)!.seq);
  return out;
}

/**
 * Decides, page by page in read order, whether a page stands for its URL or is another capture of it:
 * the one `standing` names for a URL captured more than once (earliestCaptures over the same pages),
 * else its first capture read.
 */
export class CaptureIndex {
  private readonly first = new Map<string, number>();
  /** Captures read before the one standing for their URL: resolved by result(). */
  private readonly urls: string[] = [];
  private readonly seqs: number[] = [];

  constructor(
    readonly mode: CaptureMode,
    private readonly standing: ReadonlyMap<string, number> | null = null,
  ) {}

  /**
   * Whether the page is another capture of its URL (≥ 0: it is recorded, the page standing for the URL
   * is or will be added), else -1: the caller adds the page, as index `next`.
   */
  standsFor(normUrl: string, seq: number, next: number): number {
    if (this.mode === 'each') return -1;
    const chosen = this.standing?.get(normUrl);
    const stands = chosen === undefined ? !this.first.has(normUrl) : chosen === seq;
    if (stands && !this.first.has(normUrl)) {
      this.first.set(normUrl, next);
      return -1;
    }
    this.urls.push(normUrl);
    this.seqs.push(seq);
    return 0;
  }

  /** Extra captures recorded. */
  get count(): number {
    return this.seqs.length;
  }

  result(): Captures {
    const of = new Uint32Array(this.urls.length);
    // A capture whose standing page was never added (not in `standing`'s pages) is dropped.
    const seqs: number[] = [];
    let n = 0;
    this.urls.forEach((u, k) => {
      const i = this.first.get(u);
      if (i === undefined) return;
      of[n++] = i;
      seqs.push(this.seqs[k]);
    });
    return { of: of.slice(0, n), seqs: Float64Array.from(seqs) };
  }
}

/**
 * Page index → the seqs of its captures, its own first (only pages with more than one capture). Old
 * analyses, made before captures were told apart, have none.
 */
export function capturesByPage(
  seqs: ArrayLike<number>,
  captures: Captures | undefined,
): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (!captures) return out;
  for (let k = 0; k < captures.of.length; k++) {
    const i = captures.of[k];
    let list = out.get(i);
    if (!list) out.set(i, (list = [seqs[i]]));
    list.push(captures.seqs[k]);
  }
  return out;
}
