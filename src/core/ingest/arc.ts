import { ByteQueue, headerValue, latin1, OffsetMap } from './bytes';
import { FormatFault } from './errors';
import { snippet } from './warc';
import { buildPage } from './page-builder';
import { parseHttpBlock } from './http';
import type { FormatReader, ReaderContext } from './reader';

/** One ARC record (Internet Archive ARC v1, and v2's longer header line). */
export interface ArcRecord {
  /** 'filedesc' for the version block that opens the file, else 'response'. */
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

/** Push parser for ARC: "URL IP date mime [v2 fields…] length\n" then `length` bytes, then "\n". */
export class ArcParser {
  private q = new ByteQueue();
  private map: OffsetMap;
  private pending: { fields: string[]; length: number; offset: number } | null = null;
  records = 0;

  constructor(
    private readonly onRecord: (r: ArcRecord) => void,
    compressed: boolean,
    offsetBase = 0,
  ) {
    this.map = new OffsetMap(!compressed, offsetBase);
  }

  push(chunk: Uint8Array, sourceOffset: number): void {
    this.map.add(chunk.length, sourceOffset);
    this.q.append(chunk);
    this.parse();
  }

  end(): void {
    this.parse();
    if (this.pending) {
      throw new FormatFault(
        `truncated record: it declares ${this.pending.length} bytes but the file ends first`,
        {
          offset: this.pending.offset,
        },
      );
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
        const length = Number(fields[fields.length - 1]);
        if (fields.length < 5 || !Number.isSafeInteger(length) || length < 0) {
          throw new FormatFault(
            `expected an ARC header line "URL IP date mime length", found "${snippet(data)}"`,
            this.here(),
          );
        }
        if (this.records === 0 && !fields[0].startsWith('filedesc:')) {
          throw new FormatFault('an ARC file must start with its filedesc:// version block', this.here());
        }
        this.pending = { fields, length, offset: this.map.toSource(this.q.offset) };
        this.q.consume(nl + 1);
        continue;
      }
      const p = this.pending;
      const data = this.q.view();
      if (data.length < p.length) return;
      this.records++;
      const [url, ip, date, mime] = p.fields;
      this.onRecord({
        type: url.startsWith('filedesc:') ? 'filedesc' : 'response',
        url,
        ip,
        date,
        mime,
        block: data.subarray(0, p.length),
        offset: p.offset,
      });
      this.q.consume(p.length);
      this.pending = null;
    }
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

export function createArcReader(ctx: ReaderContext, compressed: boolean): FormatReader {
  const parser = new ArcParser(
    (r) => {
      ctx.record(r.type);
      if (r.type === 'filedesc') {
        ctx.skip('ARC version block (not a page)');
        return;
      }
      if (r.url.startsWith('dns:')) {
        ctx.skip('dns: lookup records');
        return;
      }
      const http = parseHttpBlock(r.block);
      ctx.page(
        buildPage(ctx.nextSeq(), {
          url: r.url,
          status: http.status,
          recordType: 'response',
          fetchedAt: arcDateToIso(r.date),
          headers: http.status ? [[':status', http.statusLine], ...http.headers] : [],
          contentType: headerValue(http.headers, 'Content-Type') ?? r.mime,
          body: http.body,
          digest: '',
          size: http.body.length,
          offset: r.offset,
          note: http.note,
        }),
      );
    },
    compressed,
    ctx.offsetBase,
  );
  return {
    push: (chunk, off) => parser.push(chunk, off),
    end: () => parser.end(),
    get count() {
      return parser.records;
    },
  };
}
