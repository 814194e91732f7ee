// Small helpers shared by the fixture generators.

import {
  type HeaderList,
  type WarcType,
  gzipMember,
  httpRequest,
  httpResponse,
  isoDate,
  recordIdFactory,
  warcFields,
  warcRecord,
} from './warc-writer.ts';
import { esc } from './sample-html.ts';

export interface Fixture {
  name: string;
  data: Buffer;
  /** One-line description for the README. */
  about: string;
  /** What a reader/parser must report, one bullet each. */
  expect: string[];
  /** Machine-readable expectations (written to counts.json). */
  counts: Record<string, unknown>;
  /** url -> expected decoded <title> (written to expected.json). */
  titles?: Record<string, string>;
}

export const START = '2024-01-15T10:00:00Z';

export function htmlPage(title: string, body: string, head = ''): string {
  return (
    `<!DOCTYPE html>\n<html>\n<head>\n${head}<title>${esc(title)}</title>\n</head>\n<body>\n` +
    `<h1>${esc(title)}</h1>\n${body}\n</body>\n</html>\n`
  );
}

export class WarcBuilder {
  readonly records: Buffer[] = [];
  readonly types: WarcType[] = [];
  readonly nextId: () => string;
  private tick = 0;
  warcinfoId = '';

  constructor(
    seed: string,
    readonly version: '1.0' | '1.1' = '1.1',
  ) {
    this.nextId = recordIdFactory(`fixtures-${seed}`);
  }

  date(): string {
    return isoDate(START, 5 * this.tick++);
  }

  add(
    type: WarcType,
    o: {
      targetUri?: string;
      headers?: HeaderList;
      block: Buffer;
      date?: string;
      id?: string;
      contentLength?: number;
    },
  ): string {
    const id = o.id ?? this.nextId();
    this.records.push(
      warcRecord({
        type,
        targetUri: o.targetUri,
        date: o.date ?? this.date(),
        recordId: id,
        headers: o.headers,
        block: o.block,
        version: this.version,
        contentLength: o.contentLength,
      }),
    );
    this.types.push(type);
    return id;
  }

  warcinfo(filename: string, software = 'dedup-workbench scripts/make-fixtures.ts'): string {
    this.warcinfoId = this.add('warcinfo', {
      headers: [['WARC-Filename', filename]],
      block: warcFields([
        ['software', software],
        ['format', `WARC File Format ${this.version}`],
        ['description', `test fixture ${filename}`],
      ]),
    });
    return this.warcinfoId;
  }

  /** Request + response pair; returns the response record id. */
  pair(url: string, status: number, headers: HeaderList, body: Buffer, o: { angle?: boolean } = {}): string {
    const date = this.date();
    const uri = o.angle ? `<${url}>` : url;
    const reqId = this.nextId();
    const respId = this.nextId();
    this.add('request', {
      targetUri: uri,
      date,
      id: reqId,
      headers: [['WARC-Concurrent-To', respId]],
      block: httpRequest(url),
    });
    this.add('response', {
      targetUri: uri,
      date,
      id: respId,
      headers: [
        ['WARC-Concurrent-To', reqId],
        ['WARC-IP-Address', '192.0.2.80'],
      ],
      block: httpResponse(status, [['Date', new Date(Date.parse(date)).toUTCString()], ...headers], body),
    });
    return respId;
  }

  /** Response record only (no request). */
  response(url: string, headers: HeaderList, body: Buffer, contentLength?: number): string {
    const date = this.date();
    return this.add('response', {
      targetUri: url,
      date,
      block: httpResponse(200, [['Date', new Date(Date.parse(date)).toUTCString()], ...headers], body),
      contentLength,
    });
  }

  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const t of this.types) out[t] = (out[t] ?? 0) + 1;
    return out;
  }

  raw(): Buffer {
    return Buffer.concat(this.records);
  }

  /** One gzip member per record. */
  gz(): Buffer {
    return Buffer.concat(this.records.map(gzipMember));
  }

  /** Record start offsets in raw() and gz(). */
  offsets(): { raw: number[]; gz: number[] } {
    const raw: number[] = [];
    const gz: number[] = [];
    let r = 0;
    let g = 0;
    for (const rec of this.records) {
      raw.push(r);
      gz.push(g);
      r += rec.length;
      g += gzipMember(rec).length;
    }
    return { raw, gz };
  }
}
