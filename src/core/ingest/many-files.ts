import type {
  ChosenColumns,
  FormatId,
  IngestedPage,
  IngestProgress,
  IngestSummary,
  SourceInfo,
} from '../types';
import { normaliseUrl } from '../url/normalize';
import { DIGEST_WARNING_KINDS, digestWarnings, mergeDigestReports } from './digest-report';
import { IngestCancelled, IngestError } from './errors';
import type { Natives } from './natives';
import { isParquet, NotDocuments, parquetLines, type ParquetLines } from './parquet';
import { ingest } from './pipeline';
import {
  memberBytes,
  memberRange,
  memberStream,
  openWacz,
  parsePagesJsonl,
  sliceSource,
  type ByteSource,
  type ZipEntry,
} from './wacz';

/**
 * A crawl as archivists keep it: dozens of WARC.gz files, a folder, or one WACZ holding several WARCs —
 * read as ONE dataset. Each file (each WARC of a WACZ) is a *source*: read in turn through the same
 * pipeline, with its own page seq range, its own problems, and every page tagged with its source.
 */

/** One stream read through the pipeline: a whole file, or one WARC member of a WACZ. */
export interface CrawlUnit {
  /** Source name: the file name, or "crawl.wacz › archive/data.warc.gz". */
  name: string;
  /** Bytes this unit reads from its file (for progress over all files). */
  size: number;
  file: ByteSource;
  /** The WACZ member; absent for a whole file. */
  entry?: ZipEntry;
  /** A Parquet table of documents (parquet.ts): read by row groups, never cut in parts. */
  parquet?: boolean;
  /** Its documents' columns as the analyst chose them (else found by name). */
  parquetColumns?: ChosenColumns;
}

/**
 * Sources use disjoint page seq ranges of this width, wide enough for a file read in up to 64 parallel
 * parts of SEQ_STRIDE (2^32) each; 2^53 / 2^38 leaves room for 32,768 sources.
 */
export const SOURCE_SEQ_STRIDE = 2 ** 38;

export interface UnitContext {
  source: number;
  seqBase: number;
  baseUrl: string;
  isCancelled?: () => boolean;
  onProgress: (p: IngestProgress) => void;
  /** Called when the unit's format is known (the dataset is created at the first). */
  onFormat: (format: FormatId, compressed: boolean) => Promise<void>;
  /** Tags each page with its source (and marks WACZ-listed pages); call on every batch before storing. */
  tag: (batch: IngestedPage[]) => void;
  /**
   * The WACZ's pages.jsonl, for readers whose pages are tagged elsewhere (the browser's parallel parts,
   * each in its own worker): the listed URLs (normalised) to mark `listed`, and `found` to report those
   * marked. Absent when no page list was read.
   */
  pageList?: { urls(): string[]; found(urls: Iterable<string>): void };
  /** The platform's native inflate and SHA-1 (natives.ts); default fflate and text/sha1.ts. */
  natives?: Natives;
}

/** Reads one unit; the default streams it through `ingest`. The worker's splits a large WARC in parts. */
export type UnitReader = (
  unit: CrawlUnit,
  ctx: UnitContext,
  sink: (batch: IngestedPage[]) => Promise<void>,
) => Promise<IngestSummary>;

/**
 * The bytes of a unit as they are in its file, for a reader that cuts them in parallel parts: the whole
 * file, or a STORED WACZ member (the spec asks for STORE on the WARCs: such a member is its WARC as it
 * is, a range of the file). `start` is where they begin in the file. Null for a deflated member, and
 * for one whose local header is not where the directory says (read in order, the read reports it).
 */
export async function rangeOfUnit(unit: CrawlUnit): Promise<{ start: number; source: ByteSource } | null> {
  if (unit.parquet) return null;
  if (!unit.entry) return { start: 0, source: unit.file };
  if (unit.entry.method !== 0) return null;
  try {
    const { start, end } = await memberRange(unit.file, unit.entry);
    return { start, source: sliceSource(unit.file, start, end, unit.name) };
  } catch {
    return null;
  }
}

export const unitStream = (u: CrawlUnit): AsyncIterable<Uint8Array> =>
  u.entry ? memberStream(u.file, u.entry) : u.file.stream(0, u.file.size);

export const readUnitInOrder: UnitReader = async (unit, ctx, sink) => {
  let table: ParquetLines | null = null;
  if (unit.parquet) {
    try {
      table = await parquetLines(unit.file, unit.parquetColumns);
    } catch (e) {
      // Not a table of documents, or a footer hyparquet cannot read: the file is not a crawl.
      if (e instanceof NotDocuments) throw new IngestError(unit.name, e.message, { columns: e.columns });
      throw new IngestError(unit.name, `an unreadable Parquet file: ${(e as Error).message}`);
    }
  }
  return ingest(
    table ? table.lines : unitStream(unit),
    {
      fileName: unit.name,
      totalBytes: unit.size,
      baseUrl: ctx.baseUrl,
      seqBase: ctx.seqBase,
      isCancelled: ctx.isCancelled,
      onProgress: ctx.onProgress,
      onFormat: ctx.onFormat,
      natives: ctx.natives,
      ...(table ? { format: 'parquet' as const, filePosition: table.position } : {}),
    },
    async (batch) => {
      ctx.tag(batch);
      await sink(batch);
    },
  );
};

export interface CrawlOptions {
  baseUrl?: string;
  isCancelled?: () => boolean;
  onProgress?: (p: IngestProgress) => void;
  /** Called once, when the first source's format is known: the caller creates its dataset here. */
  /** `container`: 'wacz' when the first crawl file read is a WACZ (its WARCs are what `format` says). */
  onFormat?: (format: FormatId, compressed: boolean, container?: 'wacz') => Promise<void> | void;
  readUnit?: UnitReader;
  /** The columns Parquet tables of documents are read by, when the analyst chose them. */
  parquetColumns?: ChosenColumns;
  /** The platform's native inflate and SHA-1 (natives.ts); default fflate and text/sha1.ts. */
  natives?: Natives;
}

/** The units of a list of files: a WACZ opens into its WARCs; anything else is read whole. */
async function expand(
  files: ByteSource[],
  listed: Map<string, string>,
  rejected: SourceInfo[],
  parquetColumns?: ChosenColumns,
): Promise<CrawlUnit[]> {
  const units: CrawlUnit[] = [];
  for (const file of files) {
    const head = await file.read(0, Math.min(4, file.size));
    let wacz;
    try {
      wacz = await openWacz(file, head);
    } catch (e) {
      const reason = `a ZIP that cannot be read as a WACZ: ${(e as Error).message}`;
      rejected.push(skippedSource(file.name, file.size, new IngestError(file.name, reason)));
      continue;
    }
    if (!wacz) {
      units.push({
        name: file.name,
        size: file.size,
        file,
        ...(isParquet(head) ? { parquet: true, parquetColumns } : {}),
      });
      continue;
    }
    for (const list of wacz.pageLists) {
      const { pages } = parsePagesJsonl(new TextDecoder().decode(await memberBytes(file, list)));
      for (const p of pages) {
        const key = normalised(p.url);
        if (key) listed.set(key, p.title);
      }
    }
    if (wacz.archives.length === 0)
      rejected.push(
        skippedSource(file.name, file.size, new IngestError(file.name, 'a WACZ with no WARC under archive/')),
      );
    for (const entry of wacz.archives)
      units.push({ name: `${file.name} › ${entry.name}`, size: entry.compressedSize, file, entry });
  }
  return units;
}

function normalised(url: string): string | null {
  try {
    return normaliseUrl(url).href;
  } catch {
    return null;
  }
}

function skippedSource(name: string, bytes: number, e: IngestError): SourceInfo {
  return {
    name,
    bytes,
    format: null,
    compressed: false,
    pages: 0,
    error: e.toInfo(),
    warnings: [],
    warningCount: 0,
  };
}

function sourceOf(unit: CrawlUnit, s: IngestSummary): SourceInfo {
  return {
    name: unit.name,
    bytes: unit.size,
    format: s.format,
    compressed: s.compressed,
    ...(s.compression ? { compression: s.compression } : {}),
    pages: s.pages,
    error: s.error,
    warnings: s.warnings,
    warningCount: s.warningCount,
  };
}

/**
 * Read files as one crawl: one after another, each through the pipeline, pages to `sink`. A file that is
 * not a crawl (unknown format, a ZIP that is not a WACZ) is skipped and listed on the dataset's sources —
 * fatal only when no file is a crawl. A fault part way through one file keeps what was read (the dataset
 * is partial, the message names the file) and the next file is still read.
 */
export async function ingestCrawl(
  files: ByteSource[],
  opts: CrawlOptions,
  sink: (batch: IngestedPage[]) => Promise<void>,
): Promise<IngestSummary> {
  const t0 = performance.now();
  const listed = new Map<string, string>();
  const sources: SourceInfo[] = [];
  const units = await expand(files, listed, sources, opts.parquetColumns);
  const totalBytes = files.reduce((a, f) => a + f.size, 0);
  const readUnit = opts.readUnit ?? readUnitInOrder;
  const found = new Set<string>();
  const read: IngestSummary[] = [];
  let first: { format: FormatId; compressed: boolean } | null = null;
  let bytesBefore = 0;
  let decodedBefore = 0;
  let recordsBefore = 0;
  let pagesBefore = 0;
  const summary = () => ({
    ...mergeSummaries(
      {
        fileName: files.length === 1 ? files[0].name : `${files.length} files`,
        format: first?.format ?? 'warc',
        compressed: first?.compressed ?? false,
        bytes: totalBytes,
      },
      read,
      performance.now() - t0,
    ),
    sources,
    ...(listed.size > 0 ? { pageList: { listed: listed.size, found: found.size } } : {}),
  });

  for (let i = 0; i < units.length; i++) {
    const unit = units[i];
    const source = sources.length;
    const ctx: UnitContext = {
      source,
      seqBase: i * SOURCE_SEQ_STRIDE,
      baseUrl: opts.baseUrl ?? '',
      isCancelled: opts.isCancelled,
      natives: opts.natives,
      onProgress: (p) =>
        opts.onProgress?.({
          bytesRead: bytesBefore + p.bytesRead,
          totalBytes,
          bytesDecoded: decodedBefore + p.bytesDecoded,
          records: recordsBefore + p.records,
          pages: pagesBefore + p.pages,
          elapsedMs: performance.now() - t0,
          fileIndex: i,
          files: units.length,
          file: unit.name,
        }),
      onFormat: async (format, compressed) => {
        if (first) return;
        first = { format, compressed };
        await opts.onFormat?.(format, compressed, unit.entry ? 'wacz' : undefined);
      },
      tag: (batch) => {
        for (const p of batch) {
          p.page.source = source;
          if (listed.size > 0 && listed.has(p.page.normUrl)) {
            p.page.listed = true;
            found.add(p.page.normUrl);
          }
        }
      },
      ...(listed.size > 0
        ? {
            pageList: {
              urls: () => [...listed.keys()],
              found: (urls: Iterable<string>) => {
                for (const u of urls) found.add(u);
              },
            },
          }
        : {}),
    };
    try {
      const s = await readUnit(unit, ctx, sink);
      read.push(s);
      sources.push(sourceOf(unit, s));
      recordsBefore += Object.values(s.recordsByType).reduce((a, b) => a + b, 0);
      pagesBefore += s.pages;
      decodedBefore += s.bytesDecoded;
    } catch (e) {
      if (e instanceof IngestCancelled) {
        if (e.summary) {
          read.push(e.summary);
          sources.push(sourceOf(unit, e.summary));
        }
        throw new IngestCancelled(summary());
      }
      // One file is the crawl: its rejection is the answer. Among many, it is skipped and listed.
      if (!(e instanceof IngestError) || (units.length === 1 && sources.length === 0)) throw e;
      sources.push(skippedSource(unit.name, unit.size, e));
    }
    bytesBefore += unit.size;
  }
  if (!first) {
    const why = sources.map((s) => s.error?.message ?? s.name);
    if (why.length === 1)
      throw new IngestError(sources[0].name, sources[0].error?.reason ?? 'not a crawl file');
    throw new IngestError(`${files.length} files`, `none is a crawl file: ${why.join('; ')}`);
  }
  return summary();
}

/**
 * Sum the summaries of the parts of one dataset (files of a crawl, or parallel parts of one file):
 * counts added, hosts united, the first fault kept, problems up to 100 (each names its file).
 */
export function mergeSummaries(
  base: Pick<IngestSummary, 'fileName' | 'format' | 'compressed' | 'bytes'>,
  parts: IngestSummary[],
  elapsedMs: number,
  /** Parts read at the same time: storage time is the longest part's, not the sum. */
  how: { parallel?: boolean } = {},
): IngestSummary {
  const add = (into: Record<string, number>, from: Record<string, number> | undefined) => {
    for (const [k, v] of Object.entries(from ?? {})) into[k] = (into[k] ?? 0) + v;
  };
  const s: IngestSummary = {
    ...base,
    bytesDecoded: 0,
    recordsByType: {},
    pages: 0,
    hosts: 0,
    hostNames: [],
    skipped: {},
    error: null,
    warnings: [],
    warningCount: 0,
    elapsedMs,
    sinkMs: 0,
    statusCounts: {},
  };
  const hosts = new Set<string>();
  const digestKinds = new Set<string>(Object.values(DIGEST_WARNING_KINDS));
  for (const p of parts) {
    s.bytesDecoded += p.bytesDecoded;
    add(s.recordsByType, p.recordsByType);
    add(s.skipped, p.skipped);
    add(s.statusCounts!, p.statusCounts);
    s.pages += p.pages;
    for (const h of p.hostNames) hosts.add(h);
    // Digest mismatches are counted over the whole dataset below, one problem per field.
    const own = p.warnings.filter((w) => !w.kind || !digestKinds.has(w.kind));
    s.warnings.push(...own);
    s.warningCount += p.warningCount - (p.warnings.length - own.length);
    s.sinkMs = how.parallel ? Math.max(s.sinkMs, p.sinkMs) : s.sinkMs + p.sinkMs;
    s.error ??= p.error;
  }
  s.hosts = hosts.size;
  s.hostNames = [...hosts];
  const digests = mergeDigestReports(parts.map((p) => p.digests));
  const digestProblems = digestWarnings(digests);
  s.warnings = [...s.warnings.slice(0, 100 - digestProblems.length), ...digestProblems];
  s.warningCount += digestProblems.length;
  if (digests) s.digests = digests;
  return s;
}
