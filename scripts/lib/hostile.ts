/**
 * A hostile corpus, generated at run time (never committed): inflate bombs in a record, in a member's
 * tail, in an HTTP content coding and in a WACZ member; lengths corrupted small and huge, duplicated
 * and malformed; a line far over the line budget; formula and bidi URLs; a wrong payload digest. Each
 * case names the pages that must survive it (those before and after the fault) and what the read must
 * say about it. Used by test/cli/hostile.test.ts (small sizes) and `npm run bench:hostile` (the sizes
 * of the trial that found the problems: 3 GiB bombs, 11,000 records after a bad length, a 200 MB line).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { zstdFrame } from './zstd-frames';
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';

export interface HostileCase {
  name: string;
  path: string;
  /** URLs that must be read: the pages before and after the fault. */
  keep: string[];
  /** What the read must say (its error or a warning), null: nothing in particular. */
  says: RegExp | null;
  /** The byte offset that message must name (-1: any). */
  offset: number;
}

const enc = new TextEncoder();
const MIB = 1 << 20;

function httpResponse(
  body: Uint8Array | string,
  headers: string[] = ['Content-Type: text/html'],
): Uint8Array {
  const b = typeof body === 'string' ? enc.encode(body) : body;
  const head = enc.encode(
    ['HTTP/1.1 200 OK', ...headers, `Content-Length: ${b.length}`, '', ''].join('\r\n'),
  );
  return concat(head, b);
}

function page(url: string, title = url): string {
  return `<html><head><title>${title}</title></head><body><p>Page ${url}, some words to read.</p></body></html>`;
}

/** A WARC response record; `length` overrides the Content-Length written (a corrupted one). */
function record(
  url: string,
  block: Uint8Array,
  extra: string[] = [],
  length?: string | string[],
): Uint8Array {
  const lengths = length === undefined ? [String(block.length)] : Array.isArray(length) ? length : [length];
  const head = [
    'WARC/1.1',
    'WARC-Type: response',
    `WARC-Target-URI: ${url}`,
    'WARC-Date: 2026-01-01T00:00:00Z',
    `WARC-Record-ID: <urn:uuid:${url.length}-${block.length}>`,
    'Content-Type: application/http; msgtype=response',
    ...extra,
    ...lengths.map((l) => `Content-Length: ${l}`),
    '',
    '',
  ].join('\r\n');
  return concat(enc.encode(head), block, enc.encode('\r\n\r\n'));
}

function good(url: string): Uint8Array {
  return record(url, httpResponse(page(url)));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, (o += p.length) - p.length);
  return out;
}

/**
 * Raw deflate data of `before`, then `zeros` zero bytes, then `after`, built from one compressed
 * block of 16 MiB of zeros repeated (a full flush makes each block stand alone): gigabytes in a few
 * megabytes, in milliseconds. Returns the data and the CRC-32 and length of what it inflates to.
 */
function zeroBomb(before: Uint8Array, zeros: number, after: Uint8Array) {
  // Full flushes end each piece on a byte boundary without a final block, so the pieces concatenate.
  const flush = { finishFlush: constants.Z_FULL_FLUSH };
  const block = 16 * MIB;
  const zero = new Uint8Array(block);
  const full = deflateRawSync(zero, flush);
  const parts: Uint8Array[] = [deflateRawSync(before, flush)];
  let crc = crc32(before);
  for (let left = zeros; left > 0; left -= block) {
    const n = Math.min(block, left);
    parts.push(n === block ? full : deflateRawSync(zero.subarray(0, n), flush));
    crc = crc32(n === block ? zero : zero.subarray(0, n), crc);
  }
  parts.push(deflateRawSync(after, flush), new Uint8Array([0x03, 0x00])); // a final empty block
  crc = crc32(after, crc);
  return { deflate: concat(...parts), crc, size: before.length + zeros + after.length };
}

/** One gzip member around raw deflate data. */
function gzipMember(deflate: Uint8Array, crc: number, size: number): Uint8Array {
  const head = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  const tail = new Uint8Array(8);
  new DataView(tail.buffer).setUint32(0, crc >>> 0, true);
  new DataView(tail.buffer).setUint32(4, size >>> 0, true);
  return concat(head, deflate, tail);
}

/** A ZIP of deflated members whose stated uncompressed size may be a lie (`declared`). */
function zip(members: { name: string; deflate: Uint8Array; crc: number; size: number; declared?: number }[]) {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const m of members) {
    const name = enc.encode(m.name);
    const size = m.declared ?? m.size;
    const local = new Uint8Array(30 + name.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true);
    l.setUint16(8, 8, true);
    l.setUint32(14, m.crc >>> 0, true);
    l.setUint32(18, m.deflate.length, true);
    l.setUint32(22, size, true);
    l.setUint16(26, name.length, true);
    local.set(name, 30);
    const central = new Uint8Array(46 + name.length);
    const c = new DataView(central.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint16(10, 8, true);
    c.setUint32(16, m.crc >>> 0, true);
    c.setUint32(20, m.deflate.length, true);
    c.setUint32(24, size, true);
    c.setUint16(28, name.length, true);
    c.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local, m.deflate);
    centrals.push(central);
    offset += local.length + m.deflate.length;
  }
  const dir = concat(...centrals);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, 0x06054b50, true);
  e.setUint16(8, members.length, true);
  e.setUint16(10, members.length, true);
  e.setUint32(12, dir.length, true);
  e.setUint32(16, offset, true);
  return concat(...locals, dir, end);
}

function write(path: string, ...parts: Uint8Array[]): void {
  const fd = openSync(path, 'w');
  try {
    for (const p of parts) writeSync(fd, p);
  } finally {
    closeSync(fd);
  }
}

export interface HostileSizes {
  /** Zeros in the bombs (record, member tail, HTTP coding, WACZ member). */
  bomb: number;
  /** Good records after a corrupted length. */
  after: number;
  /** The long line of the JSONL case. */
  line: number;
}

/** The trial's sizes (bench) and small ones for the test. */
export const TRIAL_SIZES: HostileSizes = { bomb: 3 * 1024 * MIB, after: 11_000, line: 200 * MIB };
export const TEST_SIZES: HostileSizes = { bomb: 256 * MIB, after: 2_000, line: 20 * MIB };

/** Writes every case into `dir`; returns them. */
export function writeHostileCorpus(dir: string, sizes: HostileSizes): HostileCase[] {
  const cases: HostileCase[] = [];
  const u = (c: string, k: number | string) => `http://hostile.test/${c}/${k}`;
  const gz = (b: Uint8Array) => gzipSync(b);

  {
    // A 3 MB member whose record declares gigabytes of zeros.
    const name = 'bomb-record.warc.gz';
    const head = enc.encode(
      `WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: ${u('bomb-record', 'zeros')}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${sizes.bomb}\r\n\r\n`,
    );
    const b = zeroBomb(head, sizes.bomb, enc.encode('\r\n\r\n'));
    const first = gz(good(u('bomb-record', 1)));
    write(join(dir, name), first, gzipMember(b.deflate, b.crc, b.size), gz(good(u('bomb-record', 2))));
    cases.push({
      name,
      path: join(dir, name),
      keep: [u('bomb-record', 1), u('bomb-record', 2)],
      says: /over the 64 MiB a record may hold in memory/,
      offset: first.length,
    });
  }
  {
    // Gigabytes of zeros after a good record, inside its member.
    const name = 'bomb-tail.warc.gz';
    const b = zeroBomb(good(u('bomb-tail', 1)), sizes.bomb, new Uint8Array(0));
    const second = gzipMember(b.deflate, b.crc, b.size);
    write(join(dir, name), second, gz(good(u('bomb-tail', 2))));
    cases.push({
      name,
      path: join(dir, name),
      keep: [u('bomb-tail', 1), u('bomb-tail', 2)],
      says: /not a WARC record/,
      offset: 0,
    });
  }
  {
    // An HTTP body with Content-Encoding: gzip that inflates to gigabytes.
    const name = 'bomb-http.warc.gz';
    const b = zeroBomb(enc.encode('<html><body>'), sizes.bomb, new Uint8Array(0));
    const body = gzipMember(b.deflate, b.crc, b.size);
    const rec = record(
      u('bomb-http', 'coded'),
      httpResponse(body, ['Content-Type: text/html', 'Content-Encoding: gzip']),
    );
    const first = gz(good(u('bomb-http', 1)));
    write(join(dir, name), first, gz(rec), gz(good(u('bomb-http', 2))));
    cases.push({
      name,
      path: join(dir, name),
      keep: [u('bomb-http', 1), u('bomb-http', 'coded'), u('bomb-http', 2)],
      says: /inflates past 8 MiB/,
      offset: -1,
    });
  }
  {
    // A WACZ whose first WARC inflates far past the size its directory declares.
    const name = 'bomb-member.wacz';
    const ab = concat(good(u('bomb-member', 1)), good(u('bomb-member', 2)));
    const b = zeroBomb(ab, sizes.bomb, new Uint8Array(0));
    const c = good(u('bomb-member', 3));
    const pkg = enc.encode(JSON.stringify({ profile: 'data-package', wacz_version: '1.1.1', resources: [] }));
    write(
      join(dir, name),
      zip([
        { name: 'datapackage.json', deflate: deflateRawSync(pkg), crc: crc32(pkg), size: pkg.length },
        { name: 'archive/one.warc', deflate: b.deflate, crc: b.crc, size: b.size, declared: ab.length },
        { name: 'archive/two.warc', deflate: deflateRawSync(c), crc: crc32(c), size: c.length },
      ]),
    );
    cases.push({
      name,
      path: join(dir, name),
      keep: [1, 2, 3].map((k) => u('bomb-member', k)),
      says: /one\.warc: inflates past its declared size/,
      offset: -1,
    });
  }
  for (const [name, compressed] of [
    ['length-huge.warc', false],
    ['length-huge.warc.gz', true],
  ] as const) {
    // One record's Content-Length corrupted to 70,000,000, then many good records.
    const c = compressed ? 'length-huge-gz' : 'length-huge';
    const bad = record(u(c, 'bad'), httpResponse(page(u(c, 'bad'))), [], '70000000');
    const first = good(u(c, 0));
    const rest = Array.from({ length: sizes.after }, (_, k) => good(u(c, k + 1)));
    const parts = compressed ? [first, bad, ...rest].map(gz) : [first, bad, ...rest];
    write(join(dir, name), ...parts);
    cases.push({
      name,
      path: join(dir, name),
      keep: [u(c, 0), u(c, 1), u(c, sizes.after)],
      says: /Content-Length \(70000000\)/,
      offset: parts[0].length,
    });
  }
  {
    // One gzip member per record, `after` records; in the middle, one member's deflate data corrupted,
    // one member cut short (the next one after it), junk between two members: every other record kept.
    const name = 'gzip-damaged-middle.warc.gz';
    const c = 'gzip-damaged-middle';
    const n = sizes.after;
    const members = Array.from({ length: n }, (_, k) => gzipSync(good(u(c, k))));
    const [bad, cut, junkBefore] = [Math.floor(n / 3), Math.floor(n / 2), Math.floor((2 * n) / 3)];
    const corrupt = Buffer.from(members[bad]);
    corrupt[10] = 0x07; // BFINAL=1, BTYPE=11 (reserved): "invalid block type"
    members[bad] = corrupt;
    members[cut] = members[cut].subarray(0, Math.floor(members[cut].length / 2));
    members[junkBefore] = Buffer.concat([
      Buffer.from('junk between members \u0000\u00ff'),
      members[junkBefore],
    ]);
    write(join(dir, name), ...members);
    cases.push({
      name,
      path: join(dir, name),
      keep: [...Array(n).keys()].filter((k) => k !== bad && k !== cut).map((k) => u(c, k)),
      says: /skipped: corrupt gzip member \(invalid block type\)/,
      offset: members.slice(0, bad).reduce((a, m) => a + m.length, 0),
    });
  }
  {
    // One zstd frame per record, `after` records; in the middle, one frame's first block header
    // overwritten: every other record kept.
    const name = 'zstd-damaged-middle.warc.zst';
    const c = 'zstd-damaged-middle';
    const n = sizes.after;
    const frames = Array.from({ length: n }, (_, k) => zstdFrame(good(u(c, k))));
    const bad = Math.floor(n / 2);
    const broken = Buffer.from(frames[bad]);
    broken.fill(0xff, 10, 13);
    frames[bad] = broken;
    write(join(dir, name), ...frames);
    cases.push({
      name,
      path: join(dir, name),
      keep: [...Array(n).keys()].filter((k) => k !== bad).map((k) => u(c, k)),
      says: /skipped: a zstd block of /,
      offset: frames.slice(0, bad).reduce((a, m) => a + m.length, 0),
    });
  }
  {
    // Lengths off by a little, duplicated, malformed ("", 1e2, 0x10).
    const name = 'length-malformed.warc';
    const c = 'length-malformed';
    const blk = (k: number) => httpResponse(page(u(c, k)));
    const recs = [
      good(u(c, 0)),
      record(u(c, 1), blk(1), [], String(blk(1).length - 9)),
      record(u(c, 2), blk(2), [], ['99999', String(blk(2).length)]),
      record(u(c, 3), blk(3), [], ''),
      record(u(c, 4), blk(4), [], '1e2'),
      record(u(c, 5), blk(5), [], '0x10'),
      good(u(c, 6)),
    ];
    write(join(dir, name), ...recs);
    cases.push({
      name,
      path: join(dir, name),
      keep: [0, 1, 2, 3, 4, 5, 6].map((k) => u(c, k)),
      says: /Content-Length "" is not a length/,
      offset: recs.slice(0, 3).reduce((a, r) => a + r.length, 0),
    });
  }
  {
    // A JSONL line far over the line budget between good lines.
    const name = 'long-line.jsonl';
    const c = 'long-line';
    const line = (k: number) =>
      enc.encode(
        JSON.stringify({ url: u(c, k), status: 200, title: `page ${k}`, text: 'some words to read' }) + '\n',
      );
    const fd = openSync(join(dir, name), 'w');
    writeSync(fd, line(1));
    writeSync(fd, enc.encode('{"url": "' + u(c, 'long') + '", "text": "'));
    const chunk = enc.encode('x'.repeat(MIB));
    for (let n = 0; n < sizes.line; n += MIB) writeSync(fd, chunk);
    writeSync(fd, enc.encode('"}\n'));
    writeSync(fd, line(2));
    closeSync(fd);
    cases.push({
      name,
      path: join(dir, name),
      keep: [u(c, 1), u(c, 2)],
      says: /line 2 is longer than 16 MiB: skipped/,
      offset: -1,
    });
  }
  {
    // URLs and titles that are spreadsheet formulas, and a bidi override.
    const name = 'formula-bidi.warc';
    const urls = [
      'http://x.test/=HYPERLINK("http://evil.test")',
      "http://x.test/+cmd|' /C calc'!A0",
      'http://x.test/-2+3',
      'http://x.test/@SUM(1)',
      'http://bidi.test/\u202Egnp.exe/doc',
    ];
    write(join(dir, name), ...urls.map((x) => record(x, httpResponse(page(x, '=1+1')))));
    cases.push({
      name,
      path: join(dir, name),
      keep: ['http://x.test/-2+3', 'http://x.test/@SUM(1)'],
      says: null,
      offset: -1,
    });
  }
  {
    // A record whose payload digest is wrong: kept, counted and listed with its offset.
    const name = 'digest-wrong.warc';
    const c = 'digest-wrong';
    const first = good(u(c, 1));
    write(
      join(dir, name),
      first,
      record(u(c, 'bad'), httpResponse(page(u(c, 'bad'))), [
        'WARC-Payload-Digest: sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      ]),
      good(u(c, 2)),
    );
    cases.push({
      name,
      path: join(dir, name),
      keep: [u(c, 1), u(c, 'bad'), u(c, 2)],
      says: /WARC-Payload-Digest does not match/,
      offset: first.length,
    });
  }
  return cases;
}
