/**
 * Captures of one URL — a crawler's re-fetches, a page visited again — are one page with N captures:
 * four fetches of …/bugs.html are not a cluster of four replicas. Unless the analyst asks to compare
 * captures (`each`), the first capture of a URL that takes part in signatures stands for it, and the
 * others are listed with it (what the clusters, their counts and graphs show; the capture list in a
 * page's detail). Captures are told apart by the normalised URL (src/core/url/normalize.ts).
 */

export type CaptureMode = 'url' | 'each';

/** The captures that do not stand for their URL: each one's page index, and its own seq. */
export interface Captures {
  /** Index (in signature order) of the page standing for the URL, per extra capture. */
  of: Uint32Array;
  /** The extra capture's seq. */
  seqs: Float64Array;
}

/** Decides, page by page in read order, whether a page stands for its URL or is another capture of it. */
export class CaptureIndex {
  private readonly first = new Map<string, number>();
  private readonly of: number[] = [];
  private readonly seqs: number[] = [];

  constructor(readonly mode: CaptureMode) {}

  /**
   * The page index standing for this URL when the page is another capture of a URL already added
   * (the capture is then recorded), else -1: the caller adds the page, as index `next`.
   */
  standsFor(normUrl: string, seq: number, next: number): number {
    if (this.mode === 'each') return -1;
    const i = this.first.get(normUrl);
    if (i === undefined) {
      this.first.set(normUrl, next);
      return -1;
    }
    this.of.push(i);
    this.seqs.push(seq);
    return i;
  }

  /** Extra captures recorded. */
  get count(): number {
    return this.of.length;
  }

  result(): Captures {
    return { of: Uint32Array.from(this.of), seqs: Float64Array.from(this.seqs) };
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
