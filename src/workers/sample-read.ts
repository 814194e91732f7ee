/**
 * A designed sample of a large crawl, read by byte ranges (core/ingest/sample-plan.ts): the index
 * chosen with the WARCs is read first, the design drawn from it, and each WARC is then handed to the
 * core as a File made of the sampled records' slices (Blob slices: nothing is copied). The pages'
 * offsets are mapped back to the files' own, and each page is tagged with its sampling unit.
 */
import { CrawlIndexReader, isPageEntry } from '../core/ingest/crawl-index';
import { FormatFault, IngestCancelled } from '../core/ingest/errors';
import type { MemberInflater } from '../core/ingest/gzip';
import { ScanCancelled, scanWarcIndex } from '../core/ingest/index-scan';
import { layerLine } from '../core/dust/url-layer';
import {
  baseName,
  IndexPagesBuilder,
  planSample,
  rangeOffsets,
  type SampleInfo,
} from '../core/ingest/sample-plan';
import type { IngestErrorInfo, IngestedPage } from '../core/types';
import { memberRange, memberStream, openWacz } from '../core/ingest/wacz';
import { blobSource } from './blob-source';

export interface SampleRequest {
  /** Pages asked for. */
  budget: number;
  seed: number;
}

export type PreparedSample =
  | {
      kind: 'ready';
      /** One File per WARC with sampled records: its slices, under the WARC's name. */
      files: File[];
      info: SampleInfo;
      /** Maps a page's offset (in its File of slices) to the WARC's own and tags its unit. */
      place(batch: IngestedPage[]): void;
    }
  | { kind: 'rejected'; error: IngestErrorInfo };

const INDEX_NAME = /\.cdxj?$/i;

export function isIndexFile(f: File): boolean {
  return INDEX_NAME.test(f.name);
}

/** Where a WARC named in the index is: a file chosen, or a STORED member of a WACZ (a range of it). */
interface Archive {
  file: File;
  start: number;
}

/** Lines of the URL layer a chunk (a value in IndexedDB). */
const LAYER_CHUNK = 20_000;

export interface PrepareOptions {
  /** Stores a chunk of the URL layer (every HTML capture of the index, core/dust/url-layer.ts). */
  onLayer?: (chunk: number, lines: string) => Promise<void>;
  isCancelled?: () => boolean;
  /** The platform's inflate, for an index built by an inflate pass. */
  inflate?: MemberInflater;
  /** While an index is built: the file's bytes read (the pass's progress). */
  onScan?: (file: string, bytesRead: number, totalBytes: number) => void;
}

export async function prepareSample(
  files: File[],
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
  const reader = new CrawlIndexReader((e) => {
    pages.add(e);
    if (o.onLayer && isPageEntry(e)) layer.push(layerLine(e));
  });
  const flushLayer = async (all: boolean) => {
    while (o.onLayer && (layer.length >= LAYER_CHUNK || (all && layer.length > 0))) {
      const lines = layer.slice(0, LAYER_CHUNK).join('\n');
      layer = layer.slice(LAYER_CHUNK);
      await o.onLayer(layerChunks++, lines);
    }
  };
  const indexNames: string[] = [];
  const archives = new Map<string, Archive>();
  const feed = async (name: string, chunks: AsyncIterable<Uint8Array>) => {
    indexNames.push(name);
    const decoder = new TextDecoder();
    for await (const chunk of chunks) {
      if (o.isCancelled?.()) throw new IngestCancelled();
      reader.push(decoder.decode(chunk, { stream: true }));
      await flushLayer(false);
    }
    reader.push(decoder.decode());
    reader.finish();
    await flushLayer(true);
  };
  for (const f of files) {
    if (isIndexFile(f)) {
      await feed(f.name, f.stream() as unknown as AsyncIterable<Uint8Array>);
      continue;
    }
    const src = blobSource(f);
    const wacz = await openWacz(src, await src.read(0, Math.min(4, f.size))).catch(() => null);
    if (!wacz) {
      archives.set(baseName(f.name), { file: f, start: 0 });
      continue;
    }
    // A WACZ brings its index (indexes/index.cdx(j)) and its WARCs, STORED as the spec asks.
    for (const e of wacz.indexes) await feed(`${f.name} › ${e.name}`, memberStream(src, e));
    for (const e of wacz.archives) {
      if (e.method !== 0)
        return reject(
          `${e.name} is compressed inside the WACZ: a sample reads STORED WARCs by range`,
          f.name,
        );
      archives.set(baseName(e.name), { file: f, start: (await memberRange(src, e)).start });
    }
  }
  // No index chosen: one is built from the WARCs themselves (core/ingest/index-scan.ts), and said so.
  if (indexNames.length === 0 && archives.size > 0 && [...archives.values()].every((a) => a.start === 0)) {
    const methods = new Set<string>();
    for (const a of archives.values()) {
      try {
        const r = await scanWarcIndex(blobSource(a.file), (e) => reader.add(e), {
          inflate: o.inflate,
          isCancelled: o.isCancelled,
          onProgress: (n) => o.onScan?.(a.file.name, n, a.file.size),
        });
        methods.add(r.method);
      } catch (e) {
        if (e instanceof ScanCancelled) throw new IngestCancelled();
        if (e instanceof FormatFault)
          return reject(`no index given, and none can be built: ${e.message}`, a.file.name);
        throw e;
      }
      await flushLayer(false);
    }
    await flushLayer(true);
    const said = [...methods].map((m) => (m === 'inflate pass' ? 'an inflate pass' : 'a header pass'));
    indexNames.push(`built by ${said.join(' and ')} over the WARCs (no CDX/CDXJ given)`);
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
  const plan = planSample(pages.finish(), req.budget, req.seed, [...archives.keys()], {
    index: indexName,
    lines: reader.lines,
    badLines: reader.bad,
  });
  // The batch reads the whole crawl from the files as chosen (a WACZ whole), not the WARCs inside.
  plan.info.crawlFiles = files.filter((f) => !isIndexFile(f)).map((f) => f.name);
  if (plan.files.length === 0)
    return reject(
      `the index’s records are in files not chosen: ${plan.info.missingFiles.slice(0, 5).join(', ')}${
        plan.info.missingFiles.length > 5 ? ', …' : ''
      }`,
      indexName,
    );
  const sliced = plan.files.map((p) => {
    const a = archives.get(p.filename)!;
    return new File(
      p.ranges.map(([s, e]) => a.file.slice(a.start + s, a.start + e)),
      p.filename,
    );
  });
  const maps = plan.files.map((p) => rangeOffsets(p.ranges));
  return {
    kind: 'ready',
    files: sliced,
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
