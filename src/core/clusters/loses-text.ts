import { intersectionSize, shingleSet, type ShingleOptions } from '../signatures/shingles';

/**
 * Never lose text silently: a member removed from its cluster whose word shingles (the engine's, of the
 * text the signatures read) are missing from the kept copy beyond a stated share is flagged
 * `loses-text`, counted, and removed only when the policy says so (`removeLosing`). The batch computes
 * the same share in SQL (sql/dedup.sql `lost`): (|A| − |A ∩ K|) / |A| in double precision, flagged when
 * it is greater than the threshold.
 */

/** The share of a member's shingles its kept copy may lack before it is flagged (a fifth). */
export const LOSES_TEXT_DEFAULT = 0.2;

/** The share of a's shingles that b lacks: sorted, repeat-free sets; 0 for an empty a. */
export function lostShare(a: Uint32Array, b: Uint32Array): number {
  const na = a.length;
  return na === 0 ? 0 : (na - intersectionSize(a, b)) / na;
}

/** Whether a member losing `share` of its text is flagged at `threshold`. */
export function losesText(share: number, threshold: number): boolean {
  return share > threshold;
}

/** A share as exports write it: four decimals ('' when not computed). */
export function shareText(share: number | undefined): string {
  return share === undefined ? '' : share.toFixed(4);
}

/**
 * lostShare over the texts the signatures read, by page index, each text's shingle set made once (the
 * engine's shingling options): what the CLI and the tests give an export's `lost`.
 */
export function lostByShingles(
  texts: readonly string[],
  opts: Partial<ShingleOptions>,
): (member: number, kept: number) => number {
  const sets = new Map<number, Uint32Array>();
  const of = (i: number) => {
    let s = sets.get(i);
    if (!s) sets.set(i, (s = shingleSet(texts[i], opts)));
    return s;
  };
  return (member, kept) => lostShare(of(member), of(kept));
}
