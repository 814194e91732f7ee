/**
 * Documents kept in Parquet, as the pipelines that build training corpora keep them (FineWeb-style,
 * datatrove, text-dedup, NeMo Curator): one row a document, a URL (or an id) and its text (or HTML).
 * The file is read by ranges (its footer, then one row group at a time: never the whole file) with
 * hyparquet, and each row handed to the JSONL reader as one line ({"url", "text" | "html", "status",
 * "fetched_at"}), so a document becomes a page exactly as a JSON line does; the format is 'parquet' and
 * a fault names the row.
 *
 * Columns are found by name, any case: the URL in `url` (or `uri`, `target_uri`, `warc_target_uri`),
 * else an `id` (the page is then `urn:doc:<id>`); the body in `text` (or `content`, `raw_content`),
 * else `html`; optional `status` (`status_code`) and `fetched_at` (`date`, `timestamp`, `crawl_date`).
 * Snappy and uncompressed pages are hyparquet's own, gzip is fflate's and zstd fzstd's.
 */
import { gunzipSync } from 'fflate';
import { decompress as zstdDecompress } from 'fzstd';
import { parquetMetadataAsync, parquetReadObjects, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import type { ChosenColumns } from '../types';
import type { ByteSource } from './wacz';

/** Parquet's magic, at the start (and the end) of the file. */
export const isParquet = (head: Uint8Array): boolean =>
  head.length >= 4 && head[0] === 0x50 && head[1] === 0x41 && head[2] === 0x52 && head[3] === 0x31;

/** The columns a document table is read by. */
export interface DocumentColumns {
  /** The URL column, or the id column when `urlFromId`. */
  url: string;
  urlFromId: boolean;
  body: string;
  kind: 'text' | 'html';
  status?: string;
  fetchedAt?: string;
}

const URL_NAMES = ['url', 'uri', 'target_uri', 'warc_target_uri'];
const ID_NAMES = ['id', 'doc_id', 'document_id'];
const TEXT_NAMES = ['text', 'content', 'raw_content'];
const HTML_NAMES = ['html'];
const STATUS_NAMES = ['status', 'status_code', 'http_status'];
const DATE_NAMES = ['fetched_at', 'date', 'timestamp', 'crawl_date'];

/** The columns of a table's top-level names, or why it cannot be read as documents. */
export function documentColumns(names: readonly string[]): DocumentColumns | { missing: string } {
  const find = (wanted: string[]) => {
    for (const w of wanted) {
      const hit = names.find((n) => n.toLowerCase() === w);
      if (hit !== undefined) return hit;
    }
    return undefined;
  };
  const url = find(URL_NAMES);
  const id = url === undefined ? find(ID_NAMES) : undefined;
  const text = find(TEXT_NAMES);
  const html = text === undefined ? find(HTML_NAMES) : undefined;
  const body = text ?? html;
  const has = `its columns are ${names.map((n) => JSON.stringify(n)).join(', ') || 'none'}`;
  if (url === undefined && id === undefined)
    return { missing: `no URL column (url, uri, target_uri) nor id column: ${has}` };
  if (body === undefined) return { missing: `no text column (text, content, raw_content, html): ${has}` };
  return {
    url: (url ?? id)!,
    urlFromId: url === undefined,
    body,
    kind: text !== undefined ? 'text' : 'html',
    status: find(STATUS_NAMES),
    fetchedAt: find(DATE_NAMES),
  };
}

/** Thrown when a Parquet file is not a table of documents (the reason names the columns it has). */
export class NotDocuments extends Error {
  constructor(
    message: string,
    /** The table's columns, for the analyst to choose from. */
    readonly columns: string[],
  ) {
    super(message);
  }
}

/** The decoders hyparquet is given beside its own (snappy, uncompressed). */
const COMPRESSORS = {
  GZIP: (input: Uint8Array) => gunzipSync(input),
  ZSTD: (input: Uint8Array, outputLength: number) => zstdDecompress(input, new Uint8Array(outputLength)),
};

function asyncBuffer(file: ByteSource): AsyncBuffer {
  return {
    byteLength: file.size,
    slice: async (start, end) => {
      const b = await file.read(start, end ?? file.size);
      return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength
        ? (b.buffer as ArrayBuffer)
        : (b.slice().buffer as ArrayBuffer);
    },
  };
}

/** A value of a row as JSON can hold it: int64 as a number, bytes as UTF-8 text, dates as ISO strings. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString();
  return v;
}

export interface ParquetLines {
  columns: DocumentColumns;
  rows: number;
  rowGroups: number;
  /** The documents as JSON lines, one row group read at a time. */
  lines: AsyncIterable<Uint8Array>;
  /** Bytes of the file read so far (its footer, and the row groups handed over). */
  position(): number;
}

/**
 * Opens a Parquet file of documents, its columns found by name or `chosen` by the analyst; throws
 * NotDocuments when its columns do not make documents (or the chosen ones are not there).
 */
export async function parquetLines(file: ByteSource, chosen?: ChosenColumns): Promise<ParquetLines> {
  const buffer = asyncBuffer(file);
  const metadata: FileMetaData = await parquetMetadataAsync(buffer);
  const names = metadata.schema
    .slice(1)
    .filter((s, i, all) => isTopLevel(all, i))
    .map((s) => s.name);
  let columns: DocumentColumns;
  if (chosen) {
    const absent = [chosen.url, chosen.body].filter((c) => !names.includes(c));
    if (absent.length > 0)
      throw new NotDocuments(
        `the chosen column${absent.length > 1 ? 's' : ''} ${absent.map((c) => JSON.stringify(c)).join(' and ')} ${absent.length > 1 ? 'are' : 'is'} not in the table: its columns are ${names.map((n) => JSON.stringify(n)).join(', ')}`,
        names,
      );
    columns = { url: chosen.url, urlFromId: false, body: chosen.body, kind: chosen.kind };
  } else {
    const found = documentColumns(names);
    if ('missing' in found)
      throw new NotDocuments(`a Parquet table that is not documents: ${found.missing}`, names);
    columns = found;
  }
  const wanted = [columns.url, columns.body, columns.status, columns.fetchedAt].filter(
    (c): c is string => c !== undefined,
  );
  const groups = metadata.row_groups;
  let position = Math.min(file.size, Number(metadata.metadata_length) + 8);
  async function* lines(): AsyncIterable<Uint8Array> {
    const encoder = new TextEncoder();
    let rowStart = 0;
    for (const g of groups) {
      const rowEnd = rowStart + Number(g.num_rows);
      const rows = await parquetReadObjects({
        file: buffer,
        metadata,
        columns: wanted,
        rowStart,
        rowEnd,
        compressors: COMPRESSORS,
      });
      const out: string[] = [];
      for (const r of rows) {
        const id = plain(r[columns.url]);
        const line: Record<string, unknown> = {
          url: columns.urlFromId && id !== null && id !== undefined ? `urn:doc:${String(id)}` : id,
          [columns.kind]: plain(r[columns.body]),
        };
        if (columns.status) line.status = plain(r[columns.status]);
        if (columns.fetchedAt) line.fetched_at = plain(r[columns.fetchedAt]);
        out.push(JSON.stringify(line));
      }
      position = Math.min(file.size, position + groupBytes(g));
      rowStart = rowEnd;
      if (out.length > 0) yield encoder.encode(out.join('\n') + '\n');
    }
  }
  return {
    columns,
    rows: Number(metadata.num_rows),
    rowGroups: groups.length,
    lines: lines(),
    position: () => position,
  };
}

/** Whether schema element i (after the root) is a column of the table itself, not a nested field. */
function isTopLevel(elements: FileMetaData['schema'], i: number): boolean {
  // Children follow their parent in the flattened schema: walk the root's children, skipping subtrees.
  let at = 0;
  while (at < elements.length) {
    if (at === i) return true;
    at += subtreeSize(elements, at);
  }
  return false;
}

function subtreeSize(elements: FileMetaData['schema'], at: number): number {
  let size = 1;
  for (let c = 0; c < (elements[at].num_children ?? 0); c++) size += subtreeSize(elements, at + size);
  return size;
}

/** The compressed bytes a row group's columns take. */
function groupBytes(g: FileMetaData['row_groups'][number]): number {
  return g.columns.reduce((s, c) => s + Number(c.meta_data?.total_compressed_size ?? 0), 0);
}
