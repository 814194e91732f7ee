/** Small byte helpers shared by the binary parsers. */

export const latin1 = new TextDecoder('latin1');
export const utf8 = new TextDecoder('utf-8');

/** Index of "\r\n\r\n" (or a bare "\n\n", which some writers emit) at or after `from`; -1 if none. Returns the index just past the blank line in `end`. */
export function findHeaderEnd(
  buf: Uint8Array,
  from: number,
  limit = buf.length,
): { at: number; end: number } {
  let i = buf.indexOf(10, from);
  while (i >= 0 && i < limit) {
    const n = buf[i + 1];
    if (n === 10) return { at: i, end: i + 2 };
    if (n === 13 && buf[i + 2] === 10) return { at: i, end: i + 3 };
    i = buf.indexOf(10, i + 1);
  }
  return { at: -1, end: -1 };
}

/** Header block "Name: value" lines (after the first line) into ordered pairs; folded lines are joined. */
export function parseHeaderLines(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') continue;
    if ((line[0] === ' ' || line[0] === '\t') && out.length > 0) {
      // A folded value may start on the continuation line ("WARC-Type:\r\n warcinfo"): no leading space.
      const last = out[out.length - 1];
      const more = line.trim();
      last[1] = last[1] === '' ? more : more === '' ? last[1] : last[1] + ' ' + more;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    out.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return out;
}

export function headerValue(headers: [string, string][], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of headers) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** True when most of the bytes are not text (control characters other than whitespace). */
export function looksBinary(head: Uint8Array): boolean {
  const n = Math.min(head.length, 4096);
  if (n === 0) return false;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const c = head[i];
    if (c === 0) return true;
    if (c < 9 || (c > 13 && c < 32) || c === 127) bad++;
  }
  return bad / n > 0.05;
}

/**
 * An append-only byte queue with amortised growth: parsers append what arrives and consume what they
 * have parsed. Views into it are valid only until the next append (parsers use them synchronously).
 */
export class ByteQueue {
  private buf: Uint8Array;
  private start = 0;
  private end = 0;
  /** Absolute stream offset of the first unconsumed byte. */
  offset = 0;

  constructor(capacity = 1 << 16) {
    this.buf = new Uint8Array(capacity);
  }

  get length(): number {
    return this.end - this.start;
  }

  append(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.buf.length) {
      const live = this.end - this.start;
      if (live + chunk.length <= this.buf.length / 2) this.buf.copyWithin(0, this.start, this.end);
      else {
        const next = new Uint8Array(Math.max(this.buf.length * 2, live + chunk.length));
        next.set(this.buf.subarray(this.start, this.end));
        this.buf = next;
      }
      this.start = 0;
      this.end = live;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
  }

  /** The unconsumed bytes (a view: valid until the next append). */
  view(): Uint8Array {
    return this.buf.subarray(this.start, this.end);
  }

  consume(n: number): void {
    this.start += n;
    this.offset += n;
    if (this.start === this.end) this.start = this.end = 0;
  }
}

/**
 * Maps offsets in a decoded (decompressed) stream back to offsets in the file: for .gz, the offset of
 * the member a decoded byte came from; for plain files, the same offset.
 */
export class OffsetMap {
  private decoded: number[] = [];
  private source: number[] = [];
  private total = 0;
  private prevSource = -1;

  /** `base`: file offset of decoded offset 0 for plain files (a part of a file read in parallel). */
  constructor(
    private readonly identity: boolean,
    private readonly base = 0,
  ) {}

  add(length: number, sourceOffset: number): void {
    if (!this.identity) {
      this.decoded.push(this.total);
      this.source.push(sourceOffset);
    }
    this.total += length;
  }

  /** True when `decodedOffset` is where a new gzip member's data begins (always true for plain files). */
  isMemberStart(decodedOffset: number): boolean {
    if (this.identity) return true;
    for (let i = 0; i < this.decoded.length; i++) {
      if (this.decoded[i] === decodedOffset)
        return i === 0 ? this.first(i) : this.source[i] !== this.source[i - 1];
      if (this.decoded[i] > decodedOffset) return false;
    }
    return false;
  }

  /**
   * The first decoded offset in (after, before) where a gzip member's data begins, or -1 (always -1
   * for plain files: they have no members to tell records apart by).
   */
  memberStartIn(after: number, before: number): number {
    if (this.identity) return -1;
    for (let i = 1; i < this.decoded.length; i++) {
      const d = this.decoded[i];
      if (d >= before) break;
      if (d > after && this.source[i] !== this.source[i - 1]) return d;
    }
    return -1;
  }

  private first(i: number): boolean {
    return this.prevSource !== this.source[i];
  }

  /** File offset for a decoded offset; forgets segments before it (offsets are asked in order). */
  toSource(decodedOffset: number): number {
    if (this.identity) return this.base + decodedOffset;
    let i = 0;
    while (i + 1 < this.decoded.length && this.decoded[i + 1] <= decodedOffset) i++;
    if (i > 0) {
      this.prevSource = this.source[i - 1];
      this.decoded.splice(0, i);
      this.source.splice(0, i);
    }
    return this.source.length > 0 ? this.source[0] : 0;
  }
}
