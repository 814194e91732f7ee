import { BUDGET, mib } from '../codecs/budget';
import { ByteQueue, latin1, OffsetMap } from './bytes';
import { FormatFault } from './errors';
import type { ProblemKind } from '../types';
import { snippet } from './snippet';

/** One ARC record (Internet Archive ARC v1, and v2's longer header line). */
export interface ArcRecord {
  /** 'filedesc' for the version block that opens the file, 'over-budget' for a record not kept, else 'response'. */
  type: string;
  url: string;
  ip: string;
  /** 14-digit archive date, YYYYMMDDhhmmss. */
  date: string;
  mime: string;
  block: Uint8Array;
  offset: number;
}

const MAX_LINE = 64 << 10;
/** A record whose length is not stated is read up to the next header line, at most this far. */
const MAX_UNKNOWN = BUDGET.recordBytes;

/**
 * An ARC header line, v1 ("URL IP date mime length") or v2 (more fields before the length): a URL-ish
 * first field, and a 12 to 18 digit date as the third (warcio's bad.arc has 18). The length is not
 * checked here: "-1" and junk occur, and are read by finding the next such line.
 */
export function isArcHeaderLine(fields: string[]): boolean {
  return fields.length >= 5 && fields[0].includes(':') && /^\d{12,18}$/.test(fields[2]);
}

/** Push parser for ARC: "URL IP date mime [v2 fields…] length\n" then `length` bytes, then "\n". */
export class ArcParser {
  private q = new ByteQueue();
  private map: OffsetMap;
  /** length -1: not stated (or not a number); the block ends at the next header line. */
  private pending: { fields: string[]; length: number; offset: number; scanFrom: number } | null = null;
  private ended = false;
  /** Bytes of a record over the budget still to drop as they come, and that record (for messages). */
  private skipping = 0;
  private skipped: { length: number; offset: number } | null = null;
  records = 0;

  constructor(
    private readonly onRecord: (r: ArcRecord) => void,
    compressed: boolean,
    offsetBase = 0,
    private readonly onWarning?: (reason: string, offset: number, kind: ProblemKind) => void,
  ) {
    this.map = new OffsetMap(!compressed, offsetBase);
  }

  push(chunk: Uint8Array, sourceOffset: number): void {
    this.map.add(chunk.length, sourceOffset);
    if (this.skipping > 0) {
      const n = Math.min(this.skipping, chunk.length);
      this.skipping -= n;
      this.q.offset += n;
      chunk = chunk.subarray(n);
    }
    this.q.append(chunk);
    this.parse();
  }

  /** The decoded stream jumps (damaged compressed data read past): a record it cuts is dropped and said. */
  gap(): void {
    const cut = this.pending ?? (this.skipping > 0 ? this.skipped : null);
    if (cut)
      this.onWarning?.(
        `a record cut by damaged data (the record at byte ${cut.offset}, ${cut.length} bytes) was dropped`,
        cut.offset,
        'cut-by-damage',
      );
    this.pending = null;
    this.skipping = 0;
    this.skipped = null;
    this.q.consume(this.q.length);
  }

  end(): void {
    this.ended = true;
    this.parse();
    if (this.pending || this.skipping > 0) {
      const p = this.pending ?? this.skipped!;
      throw new FormatFault(`truncated record: it declares ${p.length} bytes but the file ends first`, {
        offset: p.offset,
      });
    }
    const rest = this.q.view();
    if (rest.some((b) => b !== 10 && b !== 13)) {
      throw new FormatFault(`incomplete ARC header line at the end: "${snippet(rest)}"`, {
        offset: this.map.toSource(this.q.offset),
      });
    }
  }

  private parse(): void {
    for (;;) {
      if (!this.pending) {
        let data = this.q.view();
        let i = 0;
        while (i < data.length && (data[i] === 10 || data[i] === 13)) i++;
        if (i) this.q.consume(i);
        data = this.q.view();
        const nl = data.indexOf(10);
        if (nl < 0) {
          if (data.length > MAX_LINE)
            throw new FormatFault('ARC header line longer than 64 KiB', this.here());
          return;
        }
        const line = latin1.decode(data.subarray(0, nl)).trim();
        const fields = line.split(/\s+/);
        const stated = Number(fields[fields.length - 1]);
        const valid = fields.length >= 5 && Number.isSafeInteger(stated) && stated >= 0;
        if (!valid && !isArcHeaderLine(fields)) {
          throw new FormatFault(
            `expected an ARC header line "URL IP date mime length", found "${snippet(data)}"`,
            this.here(),
          );
        }
        const offset = this.map.toSource(this.q.offset);
        if (!valid)
          this.warn(
            'arc-length',
            `ARC header line with no valid length ("${fields[fields.length - 1]}"): the record was read up to the next header line`,
            offset,
          );
        if (this.records === 0 && !fields[0].startsWith('filedesc:'))
          this.warn(
            'arc-no-filedesc',
            'the ARC file does not start with its filedesc:// version block: records read without it',
            offset,
          );
        this.pending = { fields, length: valid ? stated : -1, offset, scanFrom: 0 };
        this.q.consume(nl + 1);
        continue;
      }
      if (this.skipping > 0) return;
      const p = this.pending;
      const data = this.q.view();
      let length = p.length;
      let consumed = length;
      if (length >= 0) {
        const fate = this.stated(p, data);
        if (fate === 'wait') return;
        if (fate === 'wrong') {
          // The stated length does not end at the next header line, whatever its size: the block is
          // read up to the next header line instead.
          this.warn(
            'arc-length-off',
            `ARC header line states ${p.length} bytes, which do not end at the next header line: the record was read up to it`,
            p.offset,
          );
          p.length = -1;
          p.scanFrom = 0;
          continue;
        }
        if (fate === 'skip') {
          // Over the budget with no header line inside the budget's worth of it: counted, not kept,
          // and dropped while streaming.
          this.records++;
          const [url, ip, date, mime] = p.fields;
          this.onRecord({
            type: 'over-budget',
            url,
            ip,
            date,
            mime,
            block: new Uint8Array(0),
            offset: p.offset,
          });
          const n = Math.min(length, data.length);
          this.skipped = { length, offset: p.offset };
          this.q.consume(n);
          this.skipping = length - n;
          this.pending = null;
          continue;
        }
      }
      if (length < 0) {
        const next = this.nextHeaderLine(data, p);
        if (next < 0 && !this.ended) {
          if (data.length > MAX_UNKNOWN)
            throw new FormatFault(
              `no ARC header line within ${mib(MAX_UNKNOWN)} after a record without a length`,
              { offset: p.offset },
            );
          return;
        }
        consumed = next < 0 ? data.length : next;
        length = consumed;
        // The block does not include the line break(s) that separate it from the next header.
        while (length > 0 && (data[length - 1] === 10 || data[length - 1] === 13)) length--;
      }
      this.records++;
      const [url, ip, date, mime] = p.fields;
      this.onRecord({
        type: url.startsWith('filedesc:') ? 'filedesc' : 'response',
        url,
        ip,
        date,
        mime,
        block: data.subarray(0, length),
        offset: p.offset,
      });
      this.q.consume(consumed);
      this.pending = null;
    }
  }

  /**
   * What a stated length is worth: 'holds' when the bytes after it are line breaks then a header
   * line, or the end of the file; 'wrong' when they are not, or when a header line starts inside the
   * bytes it claims; 'skip' for one over the budget with no header line in the budget's worth of it;
   * 'wait' while that cannot be told.
   */
  private stated(
    p: { length: number; scanFrom: number },
    data: Uint8Array,
  ): 'holds' | 'wrong' | 'skip' | 'wait' {
    const L = p.length;
    if (data.length <= L) {
      // A header line inside the claimed bytes (scanned once, as they come) means the length is wrong.
      const inside = this.nextHeaderLine(data, p);
      if (inside >= 0 && inside < L) return 'wrong';
      if (L > BUDGET.recordBytes && data.length >= BUDGET.recordBytes) return 'skip';
      if (!this.ended) return 'wait';
      return data.length === L ? 'holds' : 'wait'; // end() reports a cut
    }
    let i = L;
    while (i < data.length && (data[i] === 10 || data[i] === 13)) i++;
    if (i === data.length) return this.ended ? 'holds' : 'wait';
    const end = data.indexOf(10, i);
    if (end < 0) return this.ended ? 'holds' : 'wait'; // end() judges an incomplete line
    if (isArcHeaderLine(latin1.decode(data.subarray(i, end)).trim().split(/\s+/))) return 'holds';
    // It lands elsewhere: wrong if a header line shows up after the record's own; with none in sight
    // the length stands, and what follows it is judged as the next header line.
    if (this.nextHeaderLine(data, { scanFrom: 0 }) >= 0) return 'wrong';
    return this.ended || data.length > L + MAX_UNKNOWN ? 'holds' : 'wait';
  }

  /** Start of the next complete ARC header line in `data` (at a line start), or -1. */
  private nextHeaderLine(data: Uint8Array, p: { scanFrom: number }): number {
    if (p.scanFrom === 0) {
      // An empty block: the next header line comes right away.
      const end = data.indexOf(10);
      if (end > 0 && end < 4096 && isArcHeaderLine(latin1.decode(data.subarray(0, end)).trim().split(/\s+/)))
        return 0;
    }
    for (let nl = data.indexOf(10, p.scanFrom); nl >= 0; nl = data.indexOf(10, nl + 1)) {
      const end = data.indexOf(10, nl + 1);
      if (end < 0) {
        p.scanFrom = nl; // the line after it is not complete yet: look again from here
        return -1;
      }
      if (end - nl > 1 && end - nl < 4096) {
        const fields = latin1
          .decode(data.subarray(nl + 1, end))
          .trim()
          .split(/\s+/);
        if (isArcHeaderLine(fields)) return nl + 1;
      }
    }
    p.scanFrom = Math.max(0, data.length - 1);
    return -1;
  }

  private warn(kind: ProblemKind, reason: string, offset: number): void {
    this.onWarning?.(reason, offset, kind);
  }

  private here(): { offset: number } {
    return { offset: this.map.toSource(this.q.offset) };
  }
}

/** "19961104142103" → "1996-11-04T14:21:03Z" ('' when malformed). */
export function arcDateToIso(d: string): string {
  const m = /^(\d{4})(\d\d)(\d\d)(\d\d)?(\d\d)?(\d\d)?$/.exec(d);
  if (!m) return '';
  return `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}Z`;
}
