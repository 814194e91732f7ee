import type {
  ChosenColumns,
  FormatId,
  IngestedPage,
  IngestProgress,
  IngestSummary,
  SourceInfo,
} from '../types';
import { normaliseUrl } from '../url/normalize';
import { readUnitInOrder, type CrawlUnit, type UnitContext, type UnitReader } from './crawl-units';
import { IngestCancelled, IngestError } from './errors';
import { mergeSummaries } from './merge-summaries';
import type { Natives } from './natives';
import { parsePagesJsonl } from './pages-jsonl';
import { isParquet } from './parquet';
import { memberBytes, openWacz, type ByteSource } from './wacz';

/**
 * A crawl as archivists keep it: dozens of WARC.gz files, a folder, or one WACZ holding several WARCs —
 * read as ONE dataset. Each file (each WARC of a WACZ) is a *source*: read in turn through the same
 * pipeline, with its own page seq range, its own problems, and every page tagged with its source.
 */

/**
 * Sources use disjoint page seq ranges of this width: 2^22 numbering segments of a file (parts.ts: 4 TiB
 * at 1 MiB a segment); 2^53 / 2^38 leaves room for 32,768 sources.
 */
export const SOURCE_SEQ_STRIDE = 2 ** 38;

export interface CrawlOptions {
  baseUrl?: string;
  isCancelled?: () => boolean;
  onProgress?: (p: IngestProgress) => void;
  /**
   * Called once, when the first source's format is known: the caller creates its dataset here.
   * `container`: 'wacz' when the first crawl file read is a WACZ (its WARCs are what `format` says).
   */
  onFormat?: (format: FormatId, compressed: boolean, container?: 'wacz') => Promise<void> | void;
  readUnit?: UnitReader;
  /** The columns Parquet tables of documents are read by, when the analyst chose them. */
  parquetColumns?: ChosenColumns;
  /** The platform's native inflate and SHA-1 (natives.ts); default fflate and text/sha1.ts. */
  natives?: Natives;
  /** Bytes of a page-numbering segment (parts.ts); default SEGMENT_BYTES, small in tests. */
  segmentBytes?: number;
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
    ...(s.parts ? { parts: s.parts } : {}),
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
      ...(opts.segmentBytes ? { segmentBytes: opts.segmentBytes } : {}),
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
