/**
 * Where WARC records start and end in the bytes WarcParser (warc.ts) reads: version lines, the next
 * record header, a block's terminator.
 */

/** How far around a wrong Content-Length to look for the next record header. */
export const RESYNC_WINDOW = 64 << 10;

/**
 * A record's version line at `i`: "WARC/" in any case (some writers emit "warc/1.0"), then a digit and
 * a dot — WARC/1.0, 1.1 and the pre-standard WARC/0.18 that ClueWeb09 was written in.
 */
export function isVersionLine(b: Uint8Array, i: number): boolean {
  return (
    startsWithWarc(b, i) && b[i + 5] >= 0x30 && b[i + 5] <= 0x39 && b[i + 6] === 0x2e // digit "."
  );
}

/**
 * The first record header at a line start in data[from, to), or -1: where a record whose length is
 * wrong (or not given) really ends.
 */
export function firstRecordStart(data: Uint8Array, from: number, to = data.length): number {
  const end = Math.min(to, data.length);
  for (
    let nl = data.indexOf(10, Math.max(0, from - 1));
    nl >= 0 && nl + 1 < end;
    nl = data.indexOf(10, nl + 1)
  )
    if (isVersionLine(data, nl + 1)) return nl + 1;
  return -1;
}

/** The version line start nearest to `at` (before or after, at a line start), or -1. */
export function nearestRecordStart(data: Uint8Array, at: number): number {
  let best = -1;
  const lo = Math.max(0, at - RESYNC_WINDOW);
  const hi = Math.min(data.length, at + RESYNC_WINDOW);
  // Line starts, not a letter: the version line may be upper or lower case. Rare path (a wrong length).
  for (let nl = data.indexOf(10, lo); nl >= 0 && nl + 1 < hi; nl = data.indexOf(10, nl + 1)) {
    const i = nl + 1;
    if (isVersionLine(data, i)) {
      if (best < 0 || Math.abs(i - at) < Math.abs(best - at)) best = i;
      if (i > at) break;
    }
  }
  return best;
}

/** Where a block ends before the record header at `next`: before its terminator (CRLF CRLF, or LF LF). */
export function blockEndBefore(data: Uint8Array, next: number): number {
  if (
    next >= 4 &&
    data[next - 4] === 13 &&
    data[next - 3] === 10 &&
    data[next - 2] === 13 &&
    data[next - 1] === 10
  )
    return next - 4;
  if (next >= 2 && data[next - 2] === 10 && data[next - 1] === 10) return next - 2;
  return next;
}

/** The length of data without its trailing line breaks. */
export function trimBreaks(data: Uint8Array): number {
  let n = data.length;
  while (n > 0 && (data[n - 1] === 10 || data[n - 1] === 13)) n--;
  return n;
}

/** A version line at `i` after a blank line (LF LF or CRLF CRLF before it). */
export function afterBlankLine(b: Uint8Array, i: number): boolean {
  return (
    i >= 2 &&
    b[i - 1] === 10 &&
    (b[i - 2] === 10 || (i >= 3 && b[i - 2] === 13 && b[i - 3] === 10)) &&
    isVersionLine(b, i)
  );
}

/** The last 8 bytes of `prev` followed by `next`. */
export function tailOf(prev: Uint8Array, next: Uint8Array): Uint8Array {
  if (next.length >= 8) return next.slice(next.length - 8);
  const both = new Uint8Array(prev.length + next.length);
  both.set(prev);
  both.set(next, prev.length);
  return both.slice(Math.max(0, both.length - 8));
}

/** "WARC/" at `i`, in any letter case. */
export function startsWithWarc(b: Uint8Array, i: number): boolean {
  return (
    (b[i] | 0x20) === 0x77 &&
    (b[i + 1] | 0x20) === 0x61 &&
    (b[i + 2] | 0x20) === 0x72 &&
    (b[i + 3] | 0x20) === 0x63 &&
    b[i + 4] === 0x2f
  );
}
