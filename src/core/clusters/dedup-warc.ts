/**
 * A deduplicated WARC, for archivists: the crawl's WARC copied record by record, each duplicate
 * capture replaced by a WARC/1.1 `revisit` record of the identical-payload-digest profile that refers to
 * the copy kept in its cluster (`WARC-Refers-To-Target-URI`, `-Date`; kept by the batch's rule,
 * kept.ts), as warcio's and Browsertrix's dedup write them. A revisit of this profile says the payload
 * is the same bytes, so only members whose payload digest is the kept copy's become revisits; a
 * near-duplicate (other bytes, the same text or nearly) stays as it was read and is counted apart — the
 * remove list names it for corpus builders. Every other record (requests, metadata, warcinfo, pages in
 * no cluster) is copied as read, byte for byte, gzip members and all.
 *
 * Streaming: the source is read twice by ranges (once to find where each record ends, once to copy),
 * one chunk at a time.
 */
import { gzipSync } from 'fflate';
import { hash64 } from '../hash';
import { isGzip, MultiGunzip } from '../codecs/gzip';
import type { ByteSource } from '../ingest/wacz';
import { decide, DEFAULT_KEEP, type Capture, type KeepKey } from './kept';

/** A page of the WARC as the plan reads it (a dataset's page record and its HTTP headers). */
export interface WarcPage extends Capture {
  /** Where its record starts in the file (the gzip member's start for a .warc.gz). */
  offset: number;
  /** WARC-Payload-Digest as read or computed ('sha1:…'); '' unknown. */
  digest: string;
  /** The HTTP response headers, in order. */
  headers: readonly [string, string][];
}

export interface Revisit {
  page: number;
  offset: number;
  url: string;
  date: string;
  status: number;
  digest: string;
  headers: readonly [string, string][];
  refersToUri: string;
  refersToDate: string;
  /** Its cluster's name (the kept copy's capture key, as every export names it) and why that copy is kept. */
  cluster: string;
  reason: string;
}

export interface DedupWarcStats {
  /** Pages (captures) in the WARC, and the distinct payload digests among them. */
  totalUrls: number;
  uniquePayloads: number;
  /** Captures written as revisits. */
  duplicateUrls: number;
  /** Members of clusters left as they were: another payload than the kept copy's (near duplicates). */
  nearDuplicatesKept: number;
  bytesIn: number;
  bytesOut: number;
  /** bytesIn − bytesOut. */
  bytesConserved: number;
}

export const IDENTICAL_PAYLOAD_PROFILE = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';

/**
 * The revisits of a WARC's clusters (`clusters`: lists of indexes into `pages`): every member but the kept
 * copy whose payload digest is the kept copy's, both dated (the rest of each cluster is counted), and
 * the statistics dedupWarc completes.
 */
export type DuplicateStatus = 'kept' | 'revisit' | 'near-duplicate';

/**
 * Each clustered page's status, the one rule the deduplicated WARC and the CDXJ index share: the copy
 * kept (kept.ts decide, the policy given); a revisit when its payload digest is the kept copy's and both
 * are dated (the identical-payload-digest profile's condition); a near duplicate otherwise. With the
 * kept member, the cluster's name (its kept copy's capture key) and the reason, by page index.
 */
export function duplicateStatuses(
  pages: readonly WarcPage[],
  clusters: readonly (readonly number[])[],
  policy: readonly KeepKey[] = DEFAULT_KEEP,
): Map<number, { status: DuplicateStatus; kept: number; cluster: string; reason: string }> {
  const out = new Map<number, { status: DuplicateStatus; kept: number; cluster: string; reason: string }>();
  for (const members of clusters) {
    if (members.length < 2) continue;
    const d = decide(members, (i) => pages[i], policy);
    const k = d.kept;
    const kept = pages[k];
    for (const m of members) {
      const p = pages[m];
      const status: DuplicateStatus =
        m === k
          ? 'kept'
          : p.digest !== '' && p.digest === kept.digest && p.fetchedAt !== '' && kept.fetchedAt !== ''
            ? 'revisit'
            : 'near-duplicate';
      out.set(m, { status, kept: k, cluster: d.cluster, reason: d.reason });
    }
  }
  return out;
}

export function planRevisits(
  pages: readonly WarcPage[],
  clusters: readonly (readonly number[])[],
  policy: readonly KeepKey[] = DEFAULT_KEEP,
): { revisits: Revisit[]; stats: DedupWarcStats } {
  const revisits: Revisit[] = [];
  let near = 0;
  for (const [m, d] of duplicateStatuses(pages, clusters, policy)) {
    if (d.status === 'near-duplicate') near++;
    if (d.status !== 'revisit') continue;
    const p = pages[m];
    const kept = pages[d.kept];
    revisits.push({
      page: m,
      offset: p.offset,
      url: p.url,
      date: p.fetchedAt,
      status: p.status,
      digest: p.digest,
      headers: p.headers,
      refersToUri: kept.url,
      refersToDate: kept.fetchedAt,
      cluster: d.cluster,
      reason: d.reason,
    });
  }
  revisits.sort((a, b) => a.offset - b.offset);
  const stats: DedupWarcStats = {
    totalUrls: pages.length,
    uniquePayloads: new Set(pages.map((p) => p.digest).filter((d) => d !== '')).size,
    duplicateUrls: 0,
    nearDuplicatesKept: near,
    bytesIn: 0,
    bytesOut: 0,
    bytesConserved: 0,
  };
  return { revisits, stats };
}

const CRLF = '\r\n';

/** A record id from what makes the revisit unique (no clock, no randomness: the same WARC twice is the same bytes). */
function recordId(r: Revisit): string {
  const [hi, lo] = hash64(`${r.url} ${r.date} ${r.offset} ${r.refersToUri}`);
  const h = hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
  const [hi2, lo2] = hash64(h);
  const t = h + hi2.toString(16).padStart(8, '0') + lo2.toString(16).padStart(8, '0');
  return `<urn:uuid:${t.slice(0, 8)}-${t.slice(8, 12)}-8${t.slice(13, 16)}-a${t.slice(17, 20)}-${t.slice(20, 32)}>`;
}

/** The revisit record's bytes: WARC headers, then the duplicate's HTTP status line and headers as its block. */
export function revisitRecord(r: Revisit): Uint8Array {
  const enc = new TextEncoder();
  const http = enc.encode(
    `HTTP/1.1 ${r.status || 200}${r.status === 200 || !r.status ? ' OK' : ''}${CRLF}` +
      r.headers.map(([k, v]) => `${k}: ${v}${CRLF}`).join('') +
      CRLF,
  );
  const head = enc.encode(
    [
      'WARC/1.1',
      'WARC-Type: revisit',
      `WARC-Target-URI: ${r.url}`,
      `WARC-Date: ${r.date}`,
      `WARC-Record-ID: ${recordId(r)}`,
      `WARC-Profile: ${IDENTICAL_PAYLOAD_PROFILE}`,
      `WARC-Refers-To-Target-URI: ${r.refersToUri}`,
      `WARC-Refers-To-Date: ${r.refersToDate}`,
      `WARC-Payload-Digest: ${r.digest}`,
      // Extension fields (WARC 1.1 §4: readers skip fields they do not know): the cluster as every
      // export names it, and why the copy referred to is the one kept.
      `Dedup-Cluster: ${r.cluster}`,
      `Dedup-Kept-Reason: ${r.reason}`,
      'Content-Type: application/http; msgtype=response',
      `Content-Length: ${http.length}`,
    ].join(CRLF) +
      CRLF +
      CRLF,
  );
  const out = new Uint8Array(head.length + http.length + 4);
  out.set(head);
  out.set(http, head.length);
  out.set(enc.encode(CRLF + CRLF), head.length + http.length);
  return out;
}

const CHUNK = 1 << 20;

/** Where each gzip member ends, by where it starts (one pass inflating the file). */
async function memberEnds(src: ByteSource): Promise<Map<number, number>> {
  const starts: number[] = [];
  const g = new MultiGunzip((_data, offset) => {
    if (starts.at(-1) !== offset) starts.push(offset);
  });
  for (let at = 0; at < src.size; at += CHUNK) {
    const end = Math.min(src.size, at + CHUNK);
    await g.push(await src.read(at, end), end >= src.size);
  }
  return new Map(starts.map((s, k) => [s, k + 1 < starts.length ? starts[k + 1] : src.size]));
}

/** The end of the plain WARC record at `offset`: its header block, Content-Length bytes, CRLF CRLF. */
async function plainRecordEnd(src: ByteSource, offset: number): Promise<number> {
  let text = '';
  let blank = -1;
  // 64 KiB holds nearly every record header; up to the header budget (1 MiB) for the others.
  for (const size of [64 << 10, 1 << 20]) {
    text = new TextDecoder('latin1').decode(await src.read(offset, Math.min(src.size, offset + size)));
    blank = text.indexOf('\r\n\r\n');
    if (blank >= 0 || offset + size >= src.size) break;
  }
  const m = /\r\ncontent-length:[ \t]*(\d+)/i.exec(text.slice(0, blank));
  if (blank < 0 || !m) throw new Error(`no WARC record header at byte ${offset}`);
  return Math.min(src.size, offset + blank + 4 + Number(m[1]) + 4);
}

/**
 * The bytes of the records at these offsets in the file (each its gzip member for a .warc.gz; its
 * header, block and CRLF CRLF for a plain WARC), by offset; an offset that is no record's start is left out.
 */
export async function recordLengths(
  src: ByteSource,
  offsets: readonly number[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (isGzip(await src.read(0, Math.min(3, src.size)))) {
    const next = await memberEnds(src);
    for (const o of offsets) {
      const end = next.get(o);
      if (end !== undefined) out.set(o, end - o);
    }
    return out;
  }
  for (const o of offsets)
    try {
      out.set(o, (await plainRecordEnd(src, o)) - o);
    } catch {
      /* not a record's start: no length */
    }
  return out;
}

/**
 * The deduplicated WARC, chunk by chunk: the source's bytes with each revisit's record replaced (gzipped
 * as a member of its own when the source is a .warc.gz). `stats` is filled as it goes.
 */
export async function* dedupWarc(
  src: ByteSource,
  revisits: readonly Revisit[],
  stats: DedupWarcStats,
): AsyncIterable<Uint8Array> {
  const gz = isGzip(await src.read(0, Math.min(3, src.size)));
  const ends = gz ? await memberEnds(src) : null;
  let at = 0;
  stats.bytesIn = src.size;
  stats.bytesOut = 0;
  const copy = async function* (to: number) {
    for (; at < to; at = Math.min(to, at + CHUNK)) {
      const b = await src.read(at, Math.min(to, at + CHUNK));
      stats.bytesOut += b.length;
      yield b;
    }
  };
  for (const r of revisits) {
    if (r.offset < at) continue;
    let end: number;
    if (gz) {
      const e = ends!.get(r.offset);
      if (e === undefined) continue; // not a member's start: the record is copied as read
      end = e;
    } else end = await plainRecordEnd(src, r.offset);
    yield* copy(r.offset);
    const record = revisitRecord(r);
    const bytes = gz ? gzipSync(record, { level: 9, mtime: 0 }) : record;
    stats.bytesOut += bytes.length;
    stats.duplicateUrls++;
    yield bytes;
    at = end;
  }
  yield* copy(src.size);
  stats.bytesConserved = stats.bytesIn - stats.bytesOut;
}
