/**
 * A designed sample of a large crawl, read by byte ranges (sample-plan.ts): the index given with the
 * WARCs is read first (or, without one, built from them: index-scan.ts), the design drawn from it, and
 * each WARC is then handed to the reader as a source made of the sampled records' ranges. The pages'
 * offsets are mapped back to the files' own, and each page is tagged with its sampling unit. Platform
 * free: the browser (workers/sample-read.ts) makes the ranges Blob slices, the CLI reads them from disk.
 */
import { CrawlIndexReader, isPageEntry } from './crawl-index';
import { FormatFault, IngestCancelled } from '../ingest/errors';
import type { MemberInflater } from '../codecs/gzip-native';
import { ScanCancelled, scanWarcIndex } from './index-scan';
import { layerLine } from '../dust/url-layer';
import { baseName, IndexPagesBuilder } from './index-pages';
import { planSample, rangeOffsets, type SampleInfo } from './sample-plan';
import type { IngestErrorInfo, IngestedPage } from '../types';
import { joinBytes } from '../bytes';
import { memberRange, memberStream, openWacz, sliceSource, type ByteSource } from '../ingest/wacz';

export interface SampleRequest {
  /** Pages asked for. */
  budget: number;
  seed: number;
}

export type PreparedSample =
  | {
      kind: 'ready';
      /** One source per WARC with sampled records: its ranges one after the other, under the WARC's name. */
      sources: ByteSource[];
      info: SampleInfo;
      /** Maps a page's offset (in its File of slices) to the WARC's own and tags its unit. */
      place(batch: IngestedPage[]): void;
    }
  | { kind: 'rejected'; error: IngestErrorInfo };

const INDEX_NAME = /\.cdxj?$/i;

/** A CDX or CDXJ index, by its name. */
export function isIndexName(name: string): boolean {
  return INDEX_NAME.test(name);
}

/** Where a WARC named in the index is: a file given, or a STORED member of a WACZ (a range of it). */
interface Archive {
  file: ByteSource;
  start: number;
  end: number;
}

/** An index among the files chosen: a CDX/CDXJ file, or a WACZ's indexes/index.cdx(j). */
interface IndexFile {
  name: string;
  size: number;
  chunks(): AsyncIterable<Uint8Array>;
}

/**
 * The files chosen, sorted out: the indexes to read and the WARCs by the name an index gives them (a
 * WACZ brings its indexes and its WARCs, STORED as the spec asks: a WARC is then a range of the WACZ).
 */
export async function locateFiles(
  files: ByteSource[],
): Promise<
  | { kind: 'ok'; indexes: IndexFile[]; archives: Map<string, Archive> }
  | { kind: 'rejected'; reason: string; fileName: string }
> {
  const indexes: IndexFile[] = [];
  const archives = new Map<string, Archive>();
  for (const f of files) {
    if (isIndexName(f.name)) {
      indexes.push({ name: f.name, size: f.size, chunks: () => f.stream(0, f.size) });
      continue;
    }
    const wacz = await openWacz(f, await f.read(0, Math.min(4, f.size))).catch(() => null);
    if (!wacz) {
      archives.set(baseName(f.name), { file: f, start: 0, end: f.size });
      continue;
    }
    for (const e of wacz.indexes)
      indexes.push({ name: `${f.name} › ${e.name}`, size: e.size, chunks: () => memberStream(f, e) });
    for (const e of wacz.archives) {
      if (e.method !== 0)
        return {
          kind: 'rejected',
          reason: `${e.name} is compressed inside the WACZ: a sample reads STORED WARCs by range`,
          fileName: f.name,
        };
      const range = await memberRange(f, e);
      archives.set(baseName(e.name), { file: f, start: range.start, end: range.end });
    }
  }
  return { kind: 'ok', indexes, archives };
}

/**
 * The records' ranges of `file` (from `start`: a WACZ member's place) as one source named `name`; the
 * default reads each range from the file, a platform may do better (Blob slices in the browser).
 */
export type RangesOf = (
  file: ByteSource,
  start: number,
  ranges: [number, number][],
  name: string,
) => ByteSource;

export const rangesSource: RangesOf = (file, start, ranges, name) => {
  const at: number[] = [];
  let size = 0;
  for (const [s, e] of ranges) {
    at.push(size);
    size += e - s;
  }
  /** The pieces of [a, b) of this source: file offsets. */
  const pieces = (a: number, b: number): [number, number][] => {
    const out: [number, number][] = [];
    for (let k = 0; k < ranges.length; k++) {
      const lo = Math.max(a, at[k]);
      const hi = Math.min(b, at[k] + ranges[k][1] - ranges[k][0]);
      if (lo < hi) out.push([start + ranges[k][0] + (lo - at[k]), start + ranges[k][0] + (hi - at[k])]);
    }
    return out;
  };
  return {
    name,
    size,
    async read(a, b) {
      const parts = await Promise.all(pieces(a, b).map(([s, e]) => file.read(s, e)));
      return parts.length === 0 ? new Uint8Array(0) : joinBytes(parts);
    },
    async *stream(a, b) {
      for (const [s, e] of pieces(a, b)) yield* file.stream(s, e);
    },
  };
};

/** Lines of the URL layer a chunk (a value in IndexedDB). */
const LAYER_CHUNK = 20_000;

export interface PrepareOptions {
  /** Stores a chunk of the URL layer (every HTML capture of the index, core/dust/url-layer.ts). */
  onLayer?: (chunk: number, lines: string) => Promise<void>;
  isCancelled?: () => boolean;
  /** The platform's inflate, for an index built by an inflate pass. */
  inflate?: MemberInflater;
  /** While the index is read, or built from the files: the file's bytes read (the progress). */
  onScan?: (file: string, bytesRead: number, totalBytes: number) => void;
  /** How the sampled ranges of a file are read (rangesSource by default). */
  rangesOf?: RangesOf;
}

export async function prepareSample(
  files: ByteSource[],
  req: SampleRequest,
  o: PrepareOptions = {},
): Promise<PreparedSample> {
  const label = files.length === 1 ? files[0].name : `${files.length} files`;
  const reject = (reason: string, fileName = label): PreparedSample => ({
    kind: 'rejected',
    error: { fileName, offset: -1, line: -1, reason, message: `${fileName}: ${reason}` },
  });
  const pages = new IndexPagesBuilder();
  let layer: string[] = [];
  let layerChunks = 0;
  // The files the layer's captures are in, numbered as first seen (SampleInfo.layerFiles).
  const layerFiles = new Map<string, number>();
  const reader = new CrawlIndexReader((e) => {
    pages.add(e);
    if (!o.onLayer || !isPageEntry(e)) return;
    let file = layerFiles.get(e.filename);
    if (file === undefined) layerFiles.set(e.filename, (file = layerFiles.size));
    layer.push(layerLine({ ...e, file }));
  });
  const flushLayer = async (all: boolean) => {
    while (o.onLayer && (layer.length >= LAYER_CHUNK || (all && layer.length > 0))) {
      const lines = layer.slice(0, LAYER_CHUNK).join('\n');
      layer = layer.slice(LAYER_CHUNK);
      await o.onLayer(layerChunks++, lines);
    }
  };
  const indexNames: string[] = [];
  const feed = async (name: string, chunks: AsyncIterable<Uint8Array>, size: number) => {
    indexNames.push(name);
    const decoder = new TextDecoder();
    let read = 0;
    for await (const chunk of chunks) {
      if (o.isCancelled?.()) throw new IngestCancelled();
      reader.push(decoder.decode(chunk, { stream: true }));
      await flushLayer(false);
      // The index's bytes read, as the read's progress (an index of millions of lines takes seconds).
      read += chunk.length;
      o.onScan?.(name, Math.min(read, size), size);
    }
    reader.push(decoder.decode());
    reader.finish();
    await flushLayer(true);
  };
  const located = await locateFiles(files);
  if (located.kind === 'rejected') return reject(located.reason, located.fileName);
  const { archives } = located;
  for (const x of located.indexes) await feed(x.name, x.chunks(), x.size);
  // No index chosen: one is built from the WARCs themselves (core/sample/index-scan.ts), and said so.
  if (indexNames.length === 0 && archives.size > 0) {
    const methods = new Set<string>();
    for (const [name, a] of archives) {
      // A WACZ's WARC is scanned as its range of the WACZ, under its own name (as an index names it).
      const whole = a.start === 0 && a.end === a.file.size;
      const src = whole ? a.file : sliceSource(a.file, a.start, a.end, name);
      try {
        const r = await scanWarcIndex(src, (e) => reader.add(e), {
          inflate: o.inflate,
          isCancelled: o.isCancelled,
          onProgress: (n) => o.onScan?.(src.name, n, src.size),
        });
        methods.add(r.method);
      } catch (e) {
        if (e instanceof ScanCancelled) throw new IngestCancelled();
        if (e instanceof FormatFault)
          return reject(`no index given, and none can be built: ${e.message}`, src.name);
        throw e;
      }
      await flushLayer(false);
    }
    await flushLayer(true);
    const said = [...methods].map((m) => (m === 'inflate pass' ? 'an inflate pass' : 'a header pass'));
    indexNames.push(`an index built by ${said.join(' and ')} over the WARCs (no CDX/CDXJ given)`);
  }
  if (indexNames.length === 0)
    return reject(
      'a sample is read by the crawl’s index: choose its CDX or CDXJ file (pywb, cdx-indexer, wget --warc-cdx) with the WARC files, or a WACZ with indexes/index.cdxj',
    );
  if (archives.size === 0) return reject('no WARC file chosen beside the index');
  const indexName = indexNames.join(', ');
  if (pages.pages === 0)
    return reject(
      `the index lists no HTML capture with its offset, length and file name (${reader.count} entries read${
        reader.firstBad ? `; line ${reader.firstBad.line}: ${reader.firstBad.reason}` : ''
      })`,
      indexName,
    );
  // A record whose length the index does not state ends where the next begins, or at its file's end.
  const sizes = new Map([...archives].map(([name, a]) => [name, a.end - a.start]));
  const plan = planSample(pages.finish(sizes), req.budget, req.seed, [...archives.keys()], {
    index: indexName,
    lines: reader.lines,
    badLines: reader.bad,
  });
  // The batch reads the whole crawl from the files as chosen (a WACZ whole), not the WARCs inside.
  plan.info.crawlFiles = files.filter((f) => !isIndexName(f.name)).map((f) => f.name);
  if (o.onLayer) plan.info.layerFiles = [...layerFiles.keys()];
  if (plan.files.length === 0)
    return reject(
      `the index’s records are in files not chosen: ${plan.info.missingFiles.slice(0, 5).join(', ')}${
        plan.info.missingFiles.length > 5 ? ', …' : ''
      }`,
      indexName,
    );
  const sliced = plan.files.map((p) => {
    const a = archives.get(p.filename)!;
    return (o.rangesOf ?? rangesSource)(a.file, a.start, p.ranges, p.filename);
  });
  const maps = plan.files.map((p) => rangeOffsets(p.ranges));
  return {
    kind: 'ready',
    sources: sliced,
    info: plan.info,
    place(batch) {
      for (const p of batch) {
        const k = p.page.source ?? 0;
        p.page.offset = maps[k](p.page.offset);
        p.page.sampleUnit = plan.unitOf(plan.files[k].filename, p.page.offset) ?? -1;
      }
    },
  };
}
