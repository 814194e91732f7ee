import { findHeaderEnd, headerValue, latin1, parseHeaderLines } from './bytes';
import { isGzip } from '../codecs/gzip';
import { inflateMember } from '../codecs/gzip-member';
import { SEGMENT_BYTES } from './parts';

/** Random access to a file's bytes (File.slice in the browser, a file handle in Node). */
export interface ByteSource {
  size: number;
  read(start: number, end: number): Promise<Uint8Array>;
}

export interface SplitPlan {
  format: 'warc' | 'arc';
  compressed: boolean;
  /** Part boundaries: [0, b1, …, size]; every inner boundary is the start of a record. */
  bounds: number[];
}

/**
 * How far past a target offset to look for a record start (`max`), and the first read (`first`), four
 * times longer each time the search runs past its end: a member starts within a few KB of almost any
 * offset, and Chromium took 6–8 ms to hand over each 4 MiB read (docsite, read in two parts: two such
 * reads were 14 ms of the 40 ms before the parts began, 2026-11-28). The cut is the same whatever the
 * first read (a test checks it against one read of `max`).
 */
export const SPLIT_WINDOW = { first: 64 << 10, max: 4 << 20 };

/** The search ran past the end of what was read: read further. */
const MORE = Symbol('more');

/**
 * Where a WARC(.gz) or ARC.gz can be cut into parts that parse independently (one per core). A cut is
 * accepted only at a verified record start: for .gz, a gzip member that inflates whole (trailer length
 * checked) and begins with a record header; for plain WARC, a "WARC/1." line whose Content-Length lands
 * on the record's closing blank line. Each cut is the first record start at or after a segment boundary
 * (parts.ts: pages are numbered by segment, so a part then numbers its pages as a read in order does):
 * the boundary nearest to an even share of the file. Returns null when the file cannot be split (other
 * formats, whole-file gzip, smaller than two segments, no verified start near a boundary, or a gzip
 * member there too long to tell).
 */
export async function planSplits(
  src: ByteSource,
  parts: number,
  segmentBytes = SEGMENT_BYTES,
  window = SPLIT_WINDOW,
): Promise<SplitPlan | null> {
  if (parts < 2) return null;
  const head = await src.read(0, Math.min(src.size, window.first));
  const compressed = isGzip(head);
  let format: 'warc' | 'arc';
  if (compressed) {
    const first = await searchFrom(src, 0, window, firstMember, head);
    if (!first) return null;
    if (startsWith(first, 'WARC/')) format = 'warc';
    else if (startsWith(first, 'filedesc://')) format = 'arc';
    else return null;
  } else if (startsWith(head, 'WARC/')) format = 'warc';
  else return null;

  const bounds = [0];
  let last = 0;
  for (let k = 1; k < parts; k++) {
    const target = Math.round((src.size * k) / parts / segmentBytes) * segmentBytes;
    if (target <= last || target >= src.size) continue;
    last = target;
    const cut = compressed
      ? await searchFrom(src, target, window, (buf, whole) =>
          memberStartAfter(buf, whole, src.size - target, target, format),
        )
      : await warcStartAfter(src, target, window.max);
    if (cut === null) return null;
    // A record longer than a segment can take the next boundary's place: that cut is left out.
    if (cut > bounds[bounds.length - 1] && cut < src.size) bounds.push(cut);
  }
  if (bounds.length < 2) return null;
  bounds.push(src.size);
  return { format, compressed, bounds };
}

function startsWith(b: Uint8Array, s: string): boolean {
  if (b.length < s.length) return false;
  for (let i = 0; i < s.length; i++) if (b[i] !== s.charCodeAt(i)) return false;
  return true;
}

/**
 * `search` over the bytes from `start`, read `window.first` first and four times more while it answers
 * MORE, up to `window.max`. `whole`: what was read reaches the end of the file or `window.max`, so the
 * search decides where it would ask for more. `first`: the first read's bytes, when already read.
 */
async function searchFrom<T>(
  src: ByteSource,
  start: number,
  window: { first: number; max: number },
  search: (buf: Uint8Array, whole: boolean) => T | typeof MORE,
  first?: Uint8Array,
): Promise<T> {
  for (let n = window.first; ; n *= 4) {
    const size = Math.min(n, window.max);
    const end = Math.min(src.size, start + size);
    const buf = first && n === window.first ? first : await src.read(start, end);
    const found = search(buf, end === src.size || size === window.max);
    if (found !== MORE) return found;
  }
}

/**
 * The file's first gzip member, inflated; null when none inflates whole. A magic's search only looks
 * forward, so what is decided within `buf` is decided alike on a longer read: where the answer would
 * depend on bytes past its end and `buf` is not `whole`, MORE (so in memberStartAfter).
 */
function firstMember(buf: Uint8Array, whole: boolean): Uint8Array | null | typeof MORE {
  for (let p = nextMagic(buf, 18); ; p = nextMagic(buf, p + 1)) {
    if (p < 0 && !whole) return MORE;
    const end = p < 0 ? buf.length : p;
    const tried = inflateMember(buf, 0, end);
    if (tried.ok) return tried.data;
    if (!tried.eof || p < 0) return null;
  }
}

const ARC_LINE = /^\S+ \S+ \d{14} \S+ \d+\n/;

/** The first verified member start in `buf`, the bytes from `target` (`left`: the file's bytes from there). */
function memberStartAfter(
  buf: Uint8Array,
  whole: boolean,
  left: number,
  target: number,
  format: 'warc' | 'arc',
): number | null | typeof MORE {
  for (let p = nextMagic(buf, 0); ; p = nextMagic(buf, p + 1)) {
    if (p < 0) return whole ? null : MORE;
    // The member must end at the next magic that inflates: try successive ones.
    for (let q = nextMagic(buf, p + 18); ; q = nextMagic(buf, q + 1)) {
      if (q < 0 && !whole) return MORE;
      const tried = inflateMember(buf, p, q < 0 ? buf.length : q);
      if (tried.ok) {
        const head = latin1.decode(tried.data.subarray(0, 512));
        const good = format === 'warc' ? head.startsWith('WARC/') : ARC_LINE.test(head);
        if (good) return target + p;
        break;
      }
      // A member that runs past the window may be a record: the cut would not be the first one after
      // the target, and pages would be numbered apart from a read in order. No cut.
      if (tried.eof && q < 0 && buf.length < left) return null;
      if (!tried.eof || q < 0) break;
    }
  }
}

async function warcStartAfter(src: ByteSource, target: number, window: number): Promise<number | null> {
  // From the byte before the target: a record that starts right at it is the first one.
  const from = target - 1;
  const buf = await src.read(from, Math.min(src.size, from + window));
  for (let i = buf.indexOf(0x57, 1); i >= 0; i = buf.indexOf(0x57, i + 1)) {
    if (buf[i - 1] !== 10 || !startsWith(buf.subarray(i), 'WARC/1.')) continue;
    const { at, end } = findHeaderEnd(buf, i);
    if (at < 0) continue;
    const headers = parseHeaderLines(latin1.decode(buf.subarray(i, at)));
    const length = Number(headerValue(headers, 'Content-Length'));
    if (!Number.isSafeInteger(length) || !headerValue(headers, 'WARC-Type')) continue;
    const close = from + end + length;
    const tail = await src.read(close, Math.min(src.size, close + 4));
    if (tail.length === 4 && tail[0] === 13 && tail[1] === 10 && tail[2] === 13 && tail[3] === 10)
      return from + i;
  }
  return null;
}

function nextMagic(buf: Uint8Array, from: number): number {
  for (let i = buf.indexOf(0x1f, from); i >= 0 && i + 3 < buf.length; i = buf.indexOf(0x1f, i + 1)) {
    if (buf[i + 1] === 0x8b && buf[i + 2] === 8 && (buf[i + 3] & 0xe0) === 0) return i;
  }
  return -1;
}
