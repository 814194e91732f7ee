/**
 * An index built for a WARC that came without one (issue "A sample of any crawl", scope 1): the records'
 * places, URLs, types, statuses, MIME types and digests, as a CDXJ line would give them, so that a sample
 * can then be read by byte ranges (sample-plan.ts).
 *
 * - An uncompressed WARC: a **header pass** — each record's headers are read and its block skipped by its
 *   Content-Length (reads of a few KB a record, not the file).
 * - An uncompressed ARC: the same header pass, each header line's length skipping the block.
 * - A WARC.gz or ARC.gz of a gzip member a record (as crawlers write it): an **inflate pass** — a gzip member does not
 *   say how long it is, so every member is inflated (natively where the platform can) to find where the
 *   next begins; only each record's first bytes are parsed (no HTML, nothing stored).
 * Which of the two was used is returned, for the analyst to be told.
 */
import { isArcHeaderLine } from '../ingest/arc';
import { FormatFault } from '../format-fault';
import { MultiGunzip } from '../codecs/gzip';
import type { MemberInflater } from '../codecs/gzip-native';
import type { IndexEntry } from './crawl-index';
import type { ByteSource } from '../ingest/wacz';

export type IndexMethod = 'header pass' | 'inflate pass';

export interface ScanOptions {
  inflate?: MemberInflater;
  isCancelled?: () => boolean;
  /** Bytes of the file read so far. */
  onProgress?: (bytesRead: number) => void;
}

/** Bytes of a record's start parsed for its headers (WARC headers, then the HTTP status and headers). */
const PREFIX = 16 << 10;
const READ = 64 << 10;
const latin1 = new TextDecoder('latin1');

export async function scanWarcIndex(
  src: ByteSource,
  onEntry: (e: IndexEntry) => void,
  o: ScanOptions = {},
): Promise<{ method: IndexMethod; records: number }> {
  const head = await src.read(0, Math.min(src.size, 8));
  if (head[0] === 0x1f && head[1] === 0x8b)
    return { method: 'inflate pass', records: await inflatePass(src, onEntry, o) };
  if (latin1.decode(head.subarray(0, 5)) === 'WARC/')
    return { method: 'header pass', records: await lengthPass(src, o, warcHead(src, onEntry)) };
  if (latin1.decode(head.subarray(0, 8)) === 'filedesc')
    return { method: 'header pass', records: await lengthPass(src, o, arcHead(src, onEntry)) };
  throw new FormatFault('neither a WARC nor an ARC (gzipped or not): no index can be built for it', {
    offset: 0,
  });
}

/**
 * Reads the head of a record at `pos` (the first bytes there in `text`, Latin-1) and answers where the record
 * ends and whether it counts as a record (an ARC's file header does not).
 */
type HeadReader = (text: string, buf: Uint8Array, pos: number) => Promise<{ end: number; counted: boolean }>;

/**
 * Records one after another by their stated lengths, line breaks between them skipped; answers how many
 * records were read.
 */
async function lengthPass(src: ByteSource, o: ScanOptions, record: HeadReader): Promise<number> {
  let records = 0;
  let pos = 0;
  while (pos < src.size) {
    if (o.isCancelled?.()) throw new ScanCancelled();
    const buf = await src.read(pos, Math.min(src.size, pos + READ));
    const skip = lineBreaks(buf);
    if (skip === buf.length) break;
    if (skip > 0) {
      pos += skip;
      continue;
    }
    const r = await record(latin1.decode(buf), buf, pos);
    if (r.counted) records++;
    pos = r.end;
    o.onProgress?.(pos);
  }
  return records;
}

/** An uncompressed WARC: each record's headers read, its block skipped by its Content-Length. */
function warcHead(src: ByteSource, onEntry: (e: IndexEntry) => void): HeadReader {
  return async (text, _buf, pos) => {
    const end = text.indexOf('\r\n\r\n');
    if (!text.startsWith('WARC/') || end < 0)
      throw new FormatFault('no WARC record header where the previous record ends', { offset: pos });
    const headers = parseHeaders(text.slice(0, end));
    const length = Number(headers.get('content-length'));
    if (!Number.isFinite(length) || length < 0)
      throw new FormatFault('a WARC record without a valid Content-Length', { offset: pos });
    const blockStart = pos + end + 4;
    const block = await src.read(blockStart, Math.min(src.size, blockStart + Math.min(length, PREFIX)));
    const recordEnd = Math.min(src.size, blockStart + length + 4);
    emit(headers, block, { offset: pos, length: recordEnd - pos, filename: src.name }, onEntry);
    return { end: recordEnd, counted: true };
  };
}

async function inflatePass(
  src: ByteSource,
  onEntry: (e: IndexEntry) => void,
  o: ScanOptions,
): Promise<number> {
  let current = -1;
  let prefix: Uint8Array[] = [];
  let prefixBytes = 0;
  let decoded = 0;
  let records = 0;
  /** A member holding more than its first record: the records have no ranges of their own. */
  let shared = false;
  const finish = (end: number) => {
    if (current < 0) return;
    const bytes = new Uint8Array(prefixBytes);
    let at = 0;
    for (const p of prefix) {
      bytes.set(p, at);
      at += p.length;
    }
    const text = latin1.decode(bytes);
    const place = { offset: current, length: end - current, filename: src.name };
    if (!text.startsWith('WARC/')) {
      // An ARC.gz: a member a record too, its header line first.
      const nl = text.indexOf('\n');
      const fields = (nl >= 0 ? text.slice(0, nl) : text).trim().split(/\s+/);
      if (isArcHeaderLine(fields)) {
        arcEntry(fields, bytes.subarray(nl + 1), place, onEntry);
        records++;
      }
      return;
    }
    const end2 = text.indexOf('\r\n\r\n');
    if (end2 >= 0) {
      const headers = parseHeaders(text.slice(0, end2));
      if (decoded > end2 + 4 + Number(headers.get('content-length') ?? 0) + 8) shared = true;
      emit(headers, bytes.subarray(end2 + 4), place, onEntry);
      records++;
    }
  };
  const g = new MultiGunzip(
    (data, offset) => {
      if (offset !== current) {
        finish(offset);
        current = offset;
        prefix = [];
        prefixBytes = 0;
        decoded = 0;
      }
      decoded += data.length;
      if (prefixBytes < PREFIX) {
        const take = data.subarray(0, PREFIX - prefixBytes);
        prefix.push(take.slice());
        prefixBytes += take.length;
      }
    },
    0,
    o.inflate,
  );
  let read = 0;
  for await (const chunk of src.stream(0, src.size)) {
    if (o.isCancelled?.()) throw new ScanCancelled();
    read += chunk.length;
    await g.push(chunk, read >= src.size);
    o.onProgress?.(read);
  }
  if (read < src.size) await g.push(new Uint8Array(0), true);
  finish(src.size);
  if (shared)
    throw new FormatFault(
      'a gzip member holds several records: they have no byte ranges of their own a sample could read (crawlers write a member a record)',
      { offset: 0 },
    );
  return records;
}

/** An uncompressed ARC: each record's header line read, its `length` bytes skipped. */
function arcHead(src: ByteSource, onEntry: (e: IndexEntry) => void): HeadReader {
  return async (text, buf, pos) => {
    const nl = text.indexOf('\n');
    const fields = (nl >= 0 ? text.slice(0, nl) : text).trim().split(/\s+/);
    const length = Number(fields[fields.length - 1]);
    if (
      nl < 0 ||
      !(isArcHeaderLine(fields) || fields[0].startsWith('filedesc:')) ||
      !Number.isFinite(length) ||
      length < 0
    )
      throw new FormatFault('no ARC header line (with its length) where the previous record ends', {
        offset: pos,
      });
    const recordEnd = Math.min(src.size, pos + nl + 1 + length + 1);
    const counted = isArcHeaderLine(fields);
    if (counted)
      arcEntry(
        fields,
        buf.subarray(nl + 1),
        { offset: pos, length: recordEnd - pos, filename: src.name },
        onEntry,
      );
    return { end: recordEnd, counted };
  };
}

/** Where a record is: its file, and its bytes there. */
type Place = Pick<IndexEntry, 'filename' | 'offset' | 'length'>;

/** An ARC record's entry: "URL IP date mime [v2 fields…] length", then its HTTP response. */
function arcEntry(fields: string[], block: Uint8Array, place: Place, onEntry: (e: IndexEntry) => void): void {
  const url = fields[0];
  if (url.startsWith('filedesc:') || url.startsWith('dns:')) return;
  const text = latin1.decode(block);
  const m = /^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(text);
  onEntry({
    url,
    timestamp: fields[2].slice(0, 14).padEnd(14, '0'),
    mime: fields[3] === '-' ? '' : fields[3].split(';')[0],
    status: m ? Number(m[1]) : 0,
    digest: '',
    ...place,
  });
}

/** Line breaks at the start of `buf`: the separators between records (CRLF CRLF, sometimes more). */
function lineBreaks(buf: Uint8Array): number {
  let n = 0;
  while (n < buf.length && (buf[n] === 0x0d || buf[n] === 0x0a)) n++;
  return n;
}

export class ScanCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

function parseHeaders(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\r\n').slice(1)) {
    const c = line.indexOf(':');
    if (c > 0) out.set(line.slice(0, c).trim().toLowerCase(), line.slice(c + 1).trim());
  }
  return out;
}

/** The index entry of a record from its WARC headers and the start of its block. */
function emit(
  headers: Map<string, string>,
  block: Uint8Array,
  place: Place,
  onEntry: (e: IndexEntry) => void,
): void {
  const type = headers.get('warc-type') ?? '';
  if (type !== 'response' && type !== 'resource' && type !== 'revisit') return;
  const url = (headers.get('warc-target-uri') ?? '').replace(/^<(.*)>$/, '$1');
  if (!url) return;
  let status = 0;
  let mime = type === 'revisit' ? 'warc/revisit' : '';
  if (type === 'response') {
    const text = latin1.decode(block);
    const m = /^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(text);
    if (m) status = Number(m[1]);
    const end = text.indexOf('\r\n\r\n');
    const http = parseHeaders(end >= 0 ? text.slice(0, end) : text);
    if (type === 'response') mime = (http.get('content-type') ?? '').split(';')[0].trim();
  } else if (type === 'resource') mime = (headers.get('content-type') ?? '').split(';')[0].trim();
  const date = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)/.exec(headers.get('warc-date') ?? '');
  onEntry({
    url,
    timestamp: date ? date.slice(1).join('') : '',
    mime,
    status,
    digest: (headers.get('warc-payload-digest') ?? '').replace(/^sha1:/i, ''),
    ...place,
  });
}
