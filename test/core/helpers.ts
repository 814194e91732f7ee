/** Shared helpers for the core unit tests: fixture loading and streaming a file through ingest(). */
import { ingestCrawl } from '../../src/core/ingest/many-files';
import { bytesSource, type ByteSource } from '../../src/core/ingest/wacz';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IngestError } from '../../src/core/ingest/errors';
import type { IngestOptions } from '../../src/core/ingest/ingest-options';
import { ingest } from '../../src/core/ingest/pipeline';
import type {
  ChosenColumns,
  FormatId,
  IngestedPage,
  IngestProgress,
  IngestSummary,
  PageRecord,
} from '../../src/core/types';
import { seededRandom } from '../../src/core/random';

export const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(FIXTURE_DIR + name));
}

export function fixtureText(name: string): string {
  return readFileSync(FIXTURE_DIR + name, 'utf8');
}

/** expected.json: fixture → url → title. */
export const expectedTitles = JSON.parse(fixtureText('expected.json')) as Record<
  string,
  Record<string, string>
>;
/** counts.json: fixture → machine-readable expectations. */
export const fixtureCounts = JSON.parse(fixtureText('counts.json')) as Record<
  string,
  Record<string, unknown>
>;

/** The bytes in pieces of `size` (Infinity: one piece), each a fresh copy so no parser can rely on sharing. */
export async function* chunked(data: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  const step = Number.isFinite(size) ? size : Math.max(data.length, 1);
  for (let i = 0; i < data.length; i += step) yield data.slice(i, i + step);
}

export interface IngestRun {
  pages: IngestedPage[];
  summary: IngestSummary;
  /** Every onFormat call, in order. */
  formats: { format: FormatId; compressed: boolean }[];
  batchSizes: number[];
}

export type RunOptions = Partial<IngestOptions> & { chunkSize?: number };

/** Stream `data` through ingest() in `chunkSize` pieces (1000 by default) and collect everything. */
export async function ingestBytes(
  data: Uint8Array,
  fileName: string,
  opts: RunOptions = {},
): Promise<IngestRun> {
  const { chunkSize = 1000, ...rest } = opts;
  const pages: IngestedPage[] = [];
  const formats: IngestRun['formats'] = [];
  const batchSizes: number[] = [];
  const summary = await ingest(
    chunked(data, chunkSize),
    {
      fileName,
      totalBytes: data.length,
      ...rest,
      onFormat: async (format, compressed) => {
        formats.push({ format, compressed });
        await rest.onFormat?.(format, compressed);
      },
    },
    async (batch) => {
      batchSizes.push(batch.length);
      pages.push(...batch);
    },
  );
  return { pages, summary, formats, batchSizes };
}

export function ingestFixture(name: string, opts: RunOptions = {}): Promise<IngestRun> {
  return ingestBytes(fixtureBytes(name), name, opts);
}

export function ingestText(text: string, fileName: string, opts: RunOptions = {}): Promise<IngestRun> {
  return ingestBytes(new TextEncoder().encode(text), fileName, opts);
}

/** Run ingest expecting it to throw an IngestError; returns the error and whether onFormat ran. */
export async function ingestFailure(
  data: Uint8Array,
  fileName: string,
  opts: RunOptions = {},
): Promise<{ error: IngestError; onFormatCalls: number; pages: number }> {
  let onFormatCalls = 0;
  let pages = 0;
  const { chunkSize = 1000, ...rest } = opts;
  try {
    await ingest(
      chunked(data, chunkSize),
      {
        fileName,
        totalBytes: data.length,
        ...rest,
        onFormat: () => {
          onFormatCalls++;
        },
      },
      async (batch) => {
        pages += batch.length;
      },
    );
  } catch (e) {
    if (e instanceof IngestError) return { error: e, onFormatCalls, pages };
    throw e;
  }
  throw new Error(`expected ingest of ${fileName} to throw an IngestError, but it succeeded`);
}

export function pagesByUrl(pages: IngestedPage[]): Map<string, PageRecord> {
  return new Map(pages.map((p) => [p.page.url, p.page]));
}

/** A run without its timings (summary fields named …Ms), for comparing two runs of the same input. */
export function comparable(run: IngestRun): {
  pages: unknown;
  summary: Record<string, unknown> & { error: unknown; bytes: unknown };
} {
  const summary = Object.fromEntries(
    Object.entries(run.summary).map(([k, v]) => [k, k.endsWith('Ms') ? 0 : (v as unknown)]),
  );
  return {
    pages: run.pages,
    summary: summary as Record<string, unknown> & { error: unknown; bytes: unknown },
  };
}

export function randomBytes(n: number, seed: number): Uint8Array {
  const next = seededRandom(seed);
  const out = new Uint8Array(n);
  const words = new Uint32Array(out.buffer, 0, n >> 2);
  for (let i = 0; i < words.length; i++) words[i] = (next() * 4294967296) >>> 0;
  for (let i = words.length * 4; i < n; i++) out[i] = (next() * 256) | 0;
  return out;
}

export const latin1 = (b: Uint8Array): string => new TextDecoder('latin1').decode(b);
export const utf8Bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** A WARC record as bytes: version line, headers, Content-Length (unless given), blank line, block, CRLFCRLF. */
export function warcRecord(
  headers: [string, string][],
  block: string | Uint8Array,
  version = 'WARC/1.1',
): Uint8Array {
  const body = typeof block === 'string' ? utf8Bytes(block) : block;
  const all = headers.some(([k]) => k.toLowerCase() === 'content-length')
    ? headers
    : [...headers, ['Content-Length', String(body.length)] as [string, string]];
  const head = [version, ...all.map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
  return concat(utf8Bytes(head), body, utf8Bytes('\r\n\r\n'));
}

/** An HTTP/1.1 response block. */
export function httpResponse(
  status: number,
  headers: [string, string][],
  body: string | Uint8Array,
): Uint8Array {
  const head = [`HTTP/1.1 ${status} X`, ...headers.map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
  return concat(utf8Bytes(head), typeof body === 'string' ? utf8Bytes(body) : body);
}

/** Lines of text with white space folded and empty lines dropped (independent of src's tidyText). */
export function textLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '');
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, written bit by bit (independent of src/core/text/sha1.ts). */
export function base32Reference(bytes: Uint8Array): string {
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  while (bits.length % 5 !== 0) bits += '0';
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += B32[parseInt(bits.slice(i, i + 5), 2)];
  return out;
}

/** 'sha1:' + base32 of the SHA-1 by node:crypto. */
export function referenceSha1Digest(data: Uint8Array): string {
  return 'sha1:' + base32Reference(new Uint8Array(createHash('sha1').update(data).digest()));
}

/** A ByteSource over bytes that records every range read and streamed (a file read by ranges, never whole). */
export function watchedSource(name: string, bytes: Uint8Array, chunk = 64 << 10) {
  const src = bytesSource(name, bytes, chunk);
  const reads: [number, number][] = [];
  const streamed: [number, number][] = [];
  const s: ByteSource = {
    ...src,
    read: (a, b) => {
      reads.push([a, b]);
      return src.read(a, b);
    },
    stream: (a, b) => {
      streamed.push([a, b]);
      return src.stream(a, b);
    },
  };
  return { s, reads, streamed };
}

/** Files read as one crawl (ingestCrawl): the pages, the summary and the formats told. */
export async function ingestFiles(
  files: ByteSource[],
  onProgress?: (p: IngestProgress) => void,
  parquetColumns?: ChosenColumns,
) {
  const pages: IngestedPage[] = [];
  const formats: string[] = [];
  const summary = await ingestCrawl(
    files,
    { onFormat: (f) => void formats.push(f), onProgress, parquetColumns },
    async (b) => void pages.push(...b),
  );
  return { pages, summary, formats };
}
