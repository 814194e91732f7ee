import { UnzipInflate } from 'fflate';
import { BUDGET } from '../codecs/budget';
import { FormatFault } from './errors';
import { isZip } from './sniff';

/**
 * WACZ 1.1.1 (Web Archive Collection Zipped, webrecorder/specs): a ZIP holding
 * `datapackage.json` (resources with sha256), `archive/*.warc(.gz)`, `indexes/index.cdx(j)` and
 * `pages/pages.jsonl`. A WACZ can be many GB, so nothing reads it whole: the central directory is read
 * from the end of the file through slices, and each WARC member is streamed from its byte range
 * (stored members as they are — the WARCs are gzipped already and the spec asks for STORE — deflated
 * ones through fflate's streaming ZIP inflater).
 */

/** A file read by ranges (a browser File/Blob, a Node file handle, bytes in a test). */
export interface ByteSource {
  name: string;
  size: number;
  /** Bytes [start, end). */
  read(start: number, end: number): Promise<Uint8Array>;
  /** Bytes [start, end) as a stream, in chunks. */
  stream(start: number, end: number): AsyncIterable<Uint8Array>;
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate (others are not read). */
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local file header. */
  headerOffset: number;
}

/** The ZIP records' signatures (APPNOTE 4.3): end of central directory (and ZIP64's), entries, files. */
const SIG = {
  eocd: 0x06054b50,
  eocd64Locator: 0x07064b50,
  eocd64: 0x06064b50,
  central: 0x02014b50,
  local: 0x04034b50,
} as const;
const MAX_COMMENT = 0xffff;

const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32 = (b: Uint8Array, o: number) =>
  (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
/** 64-bit little-endian as a JS number (exact below 2^53, which any real file is). */
const u64 = (b: Uint8Array, o: number) => u32(b, o) + u32(b, o + 4) * 2 ** 32;
const utf8 = new TextDecoder('utf-8');

/** The central directory of a ZIP, read from the end of the file (ZIP64 included). */
export async function readZipDirectory(file: ByteSource): Promise<ZipEntry[]> {
  const tailStart = Math.max(0, file.size - (22 + MAX_COMMENT + 20));
  const tail = await file.read(tailStart, file.size);
  let e = -1;
  for (let i = tail.length - 22; i >= 0; i--)
    if (u32(tail, i) === SIG.eocd) {
      e = i;
      break;
    }
  if (e < 0) throw new FormatFault('a ZIP without its end of central directory (cut short?)');
  let count = u16(tail, e + 10);
  let cdSize = u32(tail, e + 12);
  let cdOffset = u32(tail, e + 16);
  if ((count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) && e >= 20) {
    if (u32(tail, e - 20) === SIG.eocd64Locator) {
      const at = u64(tail, e - 20 + 8);
      const z = await file.read(at, at + 56);
      if (u32(z, 0) !== SIG.eocd64)
        throw new FormatFault('a ZIP64 end record that is not where its locator says', { offset: at });
      count = u64(z, 32);
      cdSize = u64(z, 40);
      cdOffset = u64(z, 48);
    }
  }
  if (cdOffset + cdSize > file.size)
    throw new FormatFault('a ZIP whose central directory lies past the end of the file (cut short?)');
  const cd = await file.read(cdOffset, cdOffset + cdSize);
  const entries: ZipEntry[] = [];
  let o = 0;
  for (let k = 0; k < count && o + 46 <= cd.length; k++) {
    if (u32(cd, o) !== SIG.central)
      throw new FormatFault('a damaged ZIP central directory', { offset: cdOffset + o });
    const method = u16(cd, o + 10);
    let compressedSize = u32(cd, o + 20);
    let size = u32(cd, o + 24);
    const nameLen = u16(cd, o + 28);
    const extraLen = u16(cd, o + 30);
    const commentLen = u16(cd, o + 32);
    let headerOffset = u32(cd, o + 42);
    const name = utf8.decode(cd.subarray(o + 46, o + 46 + nameLen));
    // ZIP64 extended information (0x0001): the 64-bit values of the fields that read 0xFFFFFFFF, in order.
    for (let x = o + 46 + nameLen; x + 4 <= o + 46 + nameLen + extraLen;) {
      const id = u16(cd, x);
      const len = u16(cd, x + 2);
      if (id === 0x0001) {
        let p = x + 4;
        if (size === 0xffffffff) {
          size = u64(cd, p);
          p += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = u64(cd, p);
          p += 8;
        }
        if (headerOffset === 0xffffffff) headerOffset = u64(cd, p);
      }
      x += 4 + len;
    }
    entries.push({ name, method, compressedSize, size, headerOffset });
    o += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * Where a member's data is in the file: [start, end) after its local header (whose name and extra
 * field lengths may differ from the directory's).
 */
export async function memberRange(
  file: ByteSource,
  entry: ZipEntry,
): Promise<{ start: number; end: number }> {
  const h = await file.read(entry.headerOffset, entry.headerOffset + 30);
  if (h.length < 30 || u32(h, 0) !== SIG.local)
    throw new FormatFault(`${entry.name}: no local file header where the directory says`, {
      offset: entry.headerOffset,
    });
  const start = entry.headerOffset + 30 + u16(h, 26) + u16(h, 28);
  const end = start + entry.compressedSize;
  if (end > file.size)
    throw new FormatFault(`${entry.name}: the member runs past the end of the file`, { offset: start });
  return { start, end };
}

/**
 * Bytes [start, end) of `file` as a ByteSource of their own, named `name`: a stored WACZ member is its
 * WARC as it is, so it can be cut in parts and read like a file (core/ingest/split.ts).
 */
export function sliceSource(file: ByteSource, start: number, end: number, name = file.name): ByteSource {
  return {
    name,
    size: end - start,
    read: (a, b) => file.read(start + a, start + Math.min(b, end - start)),
    stream: (a, b) => file.stream(start + a, start + Math.min(b, end - start)),
  };
}

/** The bytes of one member, decompressed, as a stream (never the whole member in memory). */
export async function* memberStream(file: ByteSource, entry: ZipEntry): AsyncGenerator<Uint8Array> {
  const { start, end } = await memberRange(file, entry);
  if (entry.method === 0) {
    yield* file.stream(start, end);
    return;
  }
  if (entry.method !== 8)
    throw new FormatFault(
      `${entry.name}: ZIP compression method ${entry.method} is not supported (only stored and deflate)`,
    );
  // The directory gives the exact range, so the ZIP member decoder is fed the raw deflate data directly,
  // in steps (what one step inflates to is handed on before the next), and stopped at the size the
  // directory declares: a member that inflates past it is damaged or a bomb, and is not read further.
  const inflater = new UnzipInflate();
  let out: Uint8Array[] = [];
  let fault: Error | null = null;
  let inflated = 0;
  inflater.ondata = (err, data) => {
    if (err) fault = err;
    else if (data.length) {
      inflated += data.length;
      if (inflated > entry.size && !fault)
        fault = new Error(
          `inflates past its declared size (${entry.size.toLocaleString('en-US')} bytes): read up to it`,
        );
      out.push(
        inflated > entry.size ? data.subarray(0, Math.max(0, data.length - (inflated - entry.size))) : data,
      );
    }
  };
  const stop = () => new FormatFault(`${entry.name}: ${(fault as Error).message}`, { offset: start });
  let pending: Uint8Array | null = null;
  for await (const chunk of file.stream(start, end)) {
    if (pending)
      for (let i = 0; i < pending.length && !fault; i += BUDGET.inflateStep) {
        inflater.push(pending.subarray(i, Math.min(pending.length, i + BUDGET.inflateStep)), false);
        if (out.length) {
          const ready = out;
          out = [];
          yield* ready;
        }
      }
    pending = chunk;
    if (fault) throw stop();
  }
  const last = pending ?? new Uint8Array(0);
  for (let i = 0; i < last.length && !fault; i += BUDGET.inflateStep) {
    const e = Math.min(last.length, i + BUDGET.inflateStep);
    inflater.push(last.subarray(i, e), e === last.length);
    if (out.length) {
      const ready = out;
      out = [];
      yield* ready;
    }
  }
  if (last.length === 0) inflater.push(last, true);
  if (fault) throw stop();
  yield* out;
}

/** A member's bytes whole (small members only: datapackage.json, pages.jsonl). */
export async function memberBytes(file: ByteSource, entry: ZipEntry): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let n = 0;
  for await (const c of memberStream(file, entry)) {
    parts.push(c);
    n += c.length;
  }
  const all = new Uint8Array(n);
  let o = 0;
  for (const p of parts) all.set(p, (o += p.length) - p.length);
  return all;
}

export interface Wacz {
  /** The WARCs (and ARCs) under archive/, in the directory's order. */
  archives: ZipEntry[];
  /** pages/pages.jsonl and pages/extraPages.jsonl. */
  pageLists: ZipEntry[];
  /** Its plain CDX/CDXJ indexes under indexes/ (what a sample of it is read by, sample-read.ts). */
  indexes: ZipEntry[];
  /** datapackage.json's profile or wacz_version, '' when absent. */
  version: string;
}

const ARCHIVE = /^archive\/[^/]+\.(w?arc)(\.gz)?$/i;
const PAGES = /^pages\/(pages|extraPages)\.jsonl$/;
const INDEXES = /^indexes\/[^/]+\.cdxj?$/i;

/**
 * The WACZ inside a file, judged from its content: a ZIP whose directory holds datapackage.json.
 * null when the file is not a ZIP, or a ZIP that is not a WACZ.
 */
export async function openWacz(file: ByteSource, head: Uint8Array): Promise<Wacz | null> {
  if (!isZip(head)) return null;
  const entries = await readZipDirectory(file);
  const dp = entries.find((e) => e.name === 'datapackage.json');
  if (!dp) return null;
  let version = '';
  try {
    const pkg = JSON.parse(utf8.decode(await memberBytes(file, dp))) as Record<string, unknown>;
    version = String(pkg.wacz_version ?? pkg.profile ?? '');
  } catch {
    /* an unreadable datapackage.json does not keep the WARCs from being read */
  }
  return {
    archives: entries.filter((e) => ARCHIVE.test(e.name)),
    pageLists: entries.filter((e) => PAGES.test(e.name)),
    indexes: entries.filter((e) => INDEXES.test(e.name)),
    version,
  };
}

/** Bytes in memory as a ByteSource (tests; small files), streamed in `chunk`-sized pieces. */
export function bytesSource(name: string, bytes: Uint8Array, chunk = 64 << 10): ByteSource {
  return {
    name,
    size: bytes.length,
    read: async (a, b) => bytes.slice(a, b),
    stream: async function* (a, b) {
      for (let i = a; i < b; i += chunk) yield bytes.slice(i, Math.min(b, i + chunk));
    },
  };
}
