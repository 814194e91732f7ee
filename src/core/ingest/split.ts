import { findHeaderEnd, headerValue, latin1, parseHeaderLines } from './bytes';
import { isGzip } from './gzip';
import { inflateMember } from './gzip-member';
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

/** How far past a target offset to look for a record start. */
const WINDOW = 4 << 20;

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
): Promise<SplitPlan | null> {
  if (parts < 2) return null;
  const head = await src.read(0, Math.min(src.size, 1 << 16));
  const compressed = isGzip(head);
  let format: 'warc' | 'arc';
  if (compressed) {
    const first = await firstMember(src);
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
    const cut = compressed ? await memberStartAfter(src, target, format) : await warcStartAfter(src, target);
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

async function firstMember(src: ByteSource): Promise<Uint8Array | null> {
  const buf = await src.read(0, Math.min(src.size, WINDOW));
  for (let p = nextMagic(buf, 18); ; p = nextMagic(buf, p + 1)) {
    const end = p < 0 ? buf.length : p;
    const tried = inflateMember(buf, 0, end);
    if (tried.ok) return tried.data;
    if (!tried.eof || p < 0) return null;
  }
}

const ARC_LINE = /^\S+ \S+ \d{14} \S+ \d+\n/;

async function memberStartAfter(
  src: ByteSource,
  target: number,
  format: 'warc' | 'arc',
): Promise<number | null> {
  const buf = await src.read(target, Math.min(src.size, target + WINDOW));
  for (let p = nextMagic(buf, 0); p >= 0; p = nextMagic(buf, p + 1)) {
    // The member must end at the next magic that inflates: try successive ones.
    for (let q = nextMagic(buf, p + 18); ; q = nextMagic(buf, q + 1)) {
      const tried = inflateMember(buf, p, q < 0 ? buf.length : q);
      if (tried.ok) {
        const head = latin1.decode(tried.data.subarray(0, 512));
        const good = format === 'warc' ? head.startsWith('WARC/') : ARC_LINE.test(head);
        if (good) return target + p;
        break;
      }
      // A member that runs past the window may be a record: the cut would not be the first one after
      // the target, and pages would be numbered apart from a read in order. No cut.
      if (tried.eof && q < 0 && buf.length < src.size - target) return null;
      if (!tried.eof || q < 0) break;
    }
  }
  return null;
}

async function warcStartAfter(src: ByteSource, target: number): Promise<number | null> {
  // From the byte before the target: a record that starts right at it is the first one.
  const from = target - 1;
  const buf = await src.read(from, Math.min(src.size, from + WINDOW));
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
