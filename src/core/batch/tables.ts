/**
 * The map step's output, three Parquet tables per shard (one row group per flush, so a shard of any
 * size is written with bounded memory):
 *
 * - pages    (id, url, canonical_url, host, shard, shard_key, offset, fingerprint, length, shingle_count,
 *            status, fetched_at, bytes, digest, is_canonical: 1 when the URL is its own DUST canonical form,
 *            simhash: the SimHash of the shingle set, surt and canonical_surt: the SURT keys of the URL
 *            and of its canonical form, url/surt.ts; text_length: the extracted text's length
 *            before the template step, and capture_key: the URL and capture time hashed, both as
 *            the kept-copy policy reads them, clusters/kept.ts; norm_url: the normalised URL,
 *            by which captures of one URL are folded, candidates/captures.ts);
 *            id = shard_key « 24 | the page's record order in the shard (keys.ts pageId)
 * - bands    (page, method, band, key): the equi-join keys of keys.ts, one row per page and band
 *            (exact: the fingerprint; minhash: one per LSH band; simhash: one per block)
 * - shingles (page, shingle): the shingle sets, one row per shingle, so exact Jaccard of a candidate
 *            pair is a join and a count (|A ∩ B|) in plain SQL, with |A| and |B| from pages
 *
 * Pure: the caller supplies a hyparquet-writer `Writer` per table (a file in Node, a buffer in tests).
 */
import { captureKey } from '../clusters/kept';
import { ParquetWriter, type SchemaElement, type Writer } from 'hyparquet-writer';
import type { EngineParams } from '../candidates/engine-params';
import { surt } from '../url/surt';
import { pageId, pageKeys } from './keys';

export const TABLES = ['pages', 'bands', 'shingles'] as const;
export type TableName = (typeof TABLES)[number];

const req = { repetition_type: 'REQUIRED' } as const;
const STRING = { type: 'BYTE_ARRAY', converted_type: 'UTF8', ...req } as const;
const INT64 = { type: 'INT64', ...req } as const;
const INT32 = { type: 'INT32', ...req } as const;

function schema(cols: [string, object][]): SchemaElement[] {
  return [
    { name: 'root', num_children: cols.length },
    ...cols.map(([name, t]) => ({ name, ...t }) as SchemaElement),
  ];
}

export const SCHEMAS: Record<TableName, SchemaElement[]> = {
  pages: schema([
    ['id', INT64],
    ['url', STRING],
    ['canonical_url', STRING],
    ['host', STRING],
    ['shard', STRING],
    ['shard_key', INT64],
    ['offset', INT64],
    ['fingerprint', STRING],
    ['length', INT32],
    ['shingle_count', INT32],
    ['status', INT32],
    ['fetched_at', STRING],
    ['bytes', INT64],
    ['digest', STRING],
    ['is_canonical', INT32],
    ['simhash', INT64],
    ['surt', STRING],
    ['canonical_surt', STRING],
    ['text_length', INT32],
    ['capture_key', STRING],
    ['norm_url', STRING],
  ]),
  bands: schema([
    ['page', INT64],
    ['method', STRING],
    ['band', INT32],
    ['key', INT64],
  ]),
  shingles: schema([
    ['page', INT64],
    ['shingle', INT32],
  ]),
};

/** One page as the map step receives it: what ingest gives, or a generator's record. */
export interface BatchPage {
  seq: number;
  url: string;
  normUrl: string;
  host: string;
  offset: number;
  fingerprint: string;
  text: string;
  /** HTTP status (0 when the source has none), capture time (ISO 8601, '' unknown), record bytes, payload digest. */
  status?: number;
  fetchedAt?: string;
  bytes?: number;
  digest?: string;
  /** The extractor's template hints (PageContent.templateHints), for the template model. */
  templateHints?: readonly number[];
  /** The extracted text's length before the template step (PageRecord.textLength); text's by default. */
  textLength?: number;
}

type Column = BigInt64Array | Int32Array | string[];

/**
 * A table's columns for the current row group: typed arrays for numbers (a shard writes one row per
 * shingle, hundreds per page: boxed BigInts in plain arrays cost 10× the memory and time), grown by
 * doubling. Every table's first column is a page id (INT64), so its length is the capacity.
 */
class Columns {
  private cols: Column[];
  rows = 0;
  constructor(private readonly schema: SchemaElement[]) {
    this.cols = this.fresh(1024);
  }
  private fresh(capacity: number): Column[] {
    return this.schema.map((s) =>
      s.type === 'INT64' ? new BigInt64Array(capacity) : s.type === 'INT32' ? new Int32Array(capacity) : [],
    );
  }
  private grow(): void {
    const bigger = this.fresh(this.cols[0].length * 2 || 1024);
    this.cols = this.cols.map((c, i) => {
      const b = bigger[i];
      if (Array.isArray(c)) return c;
      (b as typeof c).set(c as never);
      return b;
    });
  }
  push(...values: (bigint | number | string)[]): void {
    if (this.rows >= this.cols[0].length) this.grow();
    const r = this.rows++;
    for (let i = 0; i < values.length; i++) {
      const c = this.cols[i];
      if (Array.isArray(c)) c.push(values[i] as string);
      else c[r] = values[i] as never;
    }
  }
  /** (page, value) rows of a two-column table, without the general path: hundreds of rows per page. */
  pushPair(page: bigint, value: number): void {
    if (this.rows >= this.cols[0].length) this.grow();
    (this.cols[0] as BigInt64Array)[this.rows] = page;
    (this.cols[1] as Int32Array)[this.rows++] = value;
  }
  take(): { name: string; data: Column }[] {
    const out = this.schema.map((s, i) => {
      const c = this.cols[i];
      return { name: s.name, data: Array.isArray(c) ? c : c.subarray(0, this.rows) };
    });
    this.cols = this.fresh(1024);
    this.rows = 0;
    return out;
  }
}

/** Accumulates a shard's rows and writes them as row groups of the three tables. */
export class ShardTables {
  private readonly writers: Record<TableName, ParquetWriter>;
  private readonly cols: Record<TableName, Columns>;
  pages = 0;
  bandRows = 0;
  shingleRows = 0;

  constructor(
    private readonly shard: string,
    private readonly shardKey: bigint,
    private readonly params: EngineParams,
    private readonly canonical: (normUrl: string) => string,
    out: Record<TableName, Writer>,
    /** Pages per row group: bounds memory (a row group is built in memory before it is written). */
    private readonly flushEvery = 20_000,
  ) {
    this.writers = {} as Record<TableName, ParquetWriter>;
    this.cols = {} as Record<TableName, Columns>;
    for (const t of TABLES) {
      this.writers[t] = new ParquetWriter({
        writer: out[t],
        schema: SCHEMAS[t],
        createdBy: 'dedup-workbench batch',
      });
      this.cols[t] = new Columns(SCHEMAS[t].slice(1));
    }
  }

  async add(p: BatchPage): Promise<void> {
    const id = pageId(this.shardKey, p.seq);
    const k = pageKeys(p.text, p.fingerprint, this.params);
    const canonical = this.canonical(p.normUrl);
    this.cols.pages.push(
      id,
      p.url,
      canonical,
      p.host,
      this.shard,
      this.shardKey,
      BigInt(Math.max(0, p.offset)),
      p.fingerprint,
      p.text.length,
      k.shingles.length,
      p.status ?? 0,
      p.fetchedAt ?? '',
      BigInt(Math.max(0, Math.round(p.bytes ?? 0))),
      p.digest ?? '',
      canonical === p.normUrl ? 1 : 0,
      k.simhash,
      surtOrUrl(p.url),
      surtOrUrl(canonical),
      p.textLength ?? p.text.length,
      captureKey(p.url, p.fetchedAt ?? ''),
      p.normUrl,
    );
    if (k.exact !== null) this.cols.bands.push(id, 'exact', 0, k.exact);
    for (let b = 0; b < k.bands.length; b++) this.cols.bands.push(id, 'minhash', b, k.bands[b]);
    for (let b = 0; b < k.simhashBlocks.length; b++)
      this.cols.bands.push(id, 'simhash', b, k.simhashBlocks[b]);
    const sh = this.cols.shingles;
    for (let i = 0; i < k.shingles.length; i++) sh.pushPair(id, k.shingles[i] | 0);
    this.pages++;
    this.bandRows += (k.exact !== null ? 1 : 0) + k.bands.length + k.simhashBlocks.length;
    this.shingleRows += k.shingles.length;
    if (this.cols.pages.rows >= this.flushEvery) await this.flush();
  }

  private async flush(): Promise<void> {
    for (const t of TABLES) {
      const c = this.cols[t];
      if (c.rows === 0) continue;
      const rows = c.rows;
      // Page ids ascend within a shard: delta encoding stores them in a few bits per row.
      const columnData = c.take().map(({ name, data }) => ({
        name,
        data,
        nullable: false,
        statistics: false,
        ...(name === 'page' ? { encoding: 'DELTA_BINARY_PACKED' as const } : {}),
      }));
      await this.writers[t].write({ columnData, rowGroupSize: rows });
    }
  }

  /** Write what is left and the files' footers. */
  async finish(): Promise<void> {
    await this.flush();
    for (const t of TABLES) await this.writers[t].finish();
  }
}

/** The URL's SURT key (the Internet Archive's conventions, url/surt.ts); the URL itself when it has none. */
function surtOrUrl(url: string): string {
  try {
    return surt(url);
  } catch {
    return url;
  }
}
