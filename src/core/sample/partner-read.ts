/**
 * Records read by byte range at the places a crawl's index gives them, as a designed sample is read
 * (sample-read.ts): the records of each file joined into ranges (adjacent ones into one), each file's
 * ranges handed to the reader as one source (Blob slices in the browser), the pages that come out
 * kept when they are the ones asked for. What DUST on a sample reads the partners of sampled URLs
 * with (dust/partners.ts): the other URL of a rule's instance, which the design did not draw.
 */
import { dustRecordOf } from '../dust/from-page';
import type { DustRecord } from '../dust/types';
import type { UrlLayer } from '../dust/url-layer';
import { IngestCancelled } from '../ingest/errors';
import { baseName } from './index-pages';
import { ingestCrawl } from '../ingest/many-files';
import type { Natives } from '../ingest/natives';
import { mergeRanges } from './sample-plan';
import { locateFiles, rangesSource, type RangesOf } from './sample-read';
import type { ByteSource } from '../ingest/wacz';
import type { PageContent, PageRecord } from '../types';

/** A record to read: its URL (normalised, as DUST spells it) and its place as the index gives it. */
export interface RecordAt {
  url: string;
  /** The file's name as the index gives it (directories are dropped to find it among the files). */
  filename: string;
  offset: number;
  /** Bytes of the record; -1 unknown: to the file's end. */
  length: number;
}

export interface RecordsRead {
  /** The DUST records of the pages asked for that were read (a URL read twice: its first). */
  records: DustRecord[];
  /** Record bytes read, and the ranges they were read in. */
  bytes: number;
  ranges: number;
  /** Records asked for in files that are not among those given. */
  notInFiles: number;
  /** Time of the read, ms. */
  ms: number;
}

export interface ReadAtOptions {
  natives?: Natives;
  /** How a file's ranges are read (rangesSource by default; Blob slices in the browser). */
  rangesOf?: RangesOf;
  isCancelled?: () => boolean;
}

/** Reads the records at `places` from `files` (the WARCs and WACZs the sample was read from). */
export async function readRecordsAt(
  files: ByteSource[],
  places: readonly RecordAt[],
  o: ReadAtOptions = {},
): Promise<RecordsRead> {
  const r = await readPagesAt(
    files,
    places,
    (page, content) => dustRecordOf(page, content.text, content.headers),
    o,
  );
  return {
    records: [...r.pages.values()],
    bytes: r.bytes,
    ranges: r.ranges,
    notInFiles: r.notInFiles,
    ms: r.ms,
  };
}

/**
 * The pages at `places` read from `files`, each made into what `make` returns, by normalised URL (a URL
 * read twice: its first). A place's range runs to the next place of its file or to the file's end when
 * the index gives no length: the read stops once every page asked for has come out.
 */
export async function readPagesAt<T>(
  files: ByteSource[],
  places: readonly RecordAt[],
  make: (page: PageRecord, content: PageContent) => T,
  o: ReadAtOptions = {},
): Promise<{ pages: Map<string, T>; bytes: number; ranges: number; notInFiles: number; ms: number }> {
  const t0 = performance.now();
  const located = await locateFiles(files);
  const archives = located.kind === 'ok' ? located.archives : new Map();
  const wanted = new Set<string>();
  const byFile = new Map<string, [number, number][]>();
  let notInFiles = 0;
  for (const p of places) {
    const name = baseName(p.filename);
    const a = archives.get(name);
    if (!a || p.offset < 0 || p.offset >= a.end - a.start) {
      notInFiles++;
      continue;
    }
    const end = p.length > 0 ? Math.min(p.offset + p.length, a.end - a.start) : a.end - a.start;
    let list = byFile.get(name);
    if (!list) byFile.set(name, (list = []));
    list.push([p.offset, end]);
    wanted.add(p.url);
  }
  const sources: ByteSource[] = [];
  let bytes = 0;
  let ranges = 0;
  for (const name of [...byFile.keys()].sort()) {
    const a = archives.get(name)!;
    const merged = mergeRanges(byFile.get(name)!);
    ranges += merged.length;
    for (const [s, e] of merged) bytes += e - s;
    sources.push((o.rangesOf ?? rangesSource)(a.file, a.start, merged, name));
  }
  const pages = new Map<string, T>();
  const all = () => pages.size === wanted.size;
  if (sources.length > 0) {
    try {
      await ingestCrawl(
        sources,
        { natives: o.natives, isCancelled: () => !!o.isCancelled?.() || all() },
        async (batch) => {
          if (o.isCancelled?.()) throw new IngestCancelled();
          for (const { page, content } of batch) {
            // A range may hold records besides the one asked for (a request record, or up to the next
            // capture when the index gives no length): only the pages asked for are kept.
            if (!wanted.has(page.normUrl) || pages.has(page.normUrl)) continue;
            pages.set(page.normUrl, make(page, content));
          }
        },
      );
    } catch (e) {
      // Every page asked for has come out: the rest of the ranges is not read.
      if (!(e instanceof IngestCancelled) || o.isCancelled?.() || !all()) throw e;
    }
  }
  return { pages, bytes, ranges, notInFiles, ms: performance.now() - t0 };
}

/**
 * Partners read from a sample's files at the places its URL layer gives (`layerFiles`: the files the
 * layer's file numbers name, SampleInfo.layerFiles): what DUST on a sample reads (dust/sample-dust.ts).
 */
export function layerPartners(
  layer: UrlLayer,
  layerFiles: readonly string[],
  files: ByteSource[],
  o: ReadAtOptions = {},
): { read(urls: string[]): Promise<RecordsRead> } {
  return {
    async read(urls) {
      const places = layer.placesOf(new Set(urls));
      const at: RecordAt[] = [];
      for (const [url, p] of places)
        if (layerFiles[p.file] !== undefined)
          at.push({ url, filename: layerFiles[p.file], offset: p.offset, length: p.length });
      return readRecordsAt(files, at, o);
    },
  };
}
