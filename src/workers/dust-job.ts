import { dustRecordOf } from '../core/dust/from-page';
import { urlsOnlyBy, urlsSaved } from '../core/dust/saved';
import { InlinkCounter } from '../core/dust/inlinks';
import {
  DUST_DEFAULTS,
  runDustBuster,
  type DustParams,
  type DustPhase,
  type DustRecord,
  type DustResult,
} from '../core/dust';
import { dustOnSample, type PartnerReport, type PartnerSource } from '../core/dust/sample-dust';
import { UrlLayer } from '../core/dust/url-layer';
import { IngestCancelled } from '../core/ingest/errors';
import { layerPartners } from '../core/sample/partner-read';
import { checkCancelled, type JobOutcome } from '../core/jobs';
import { forEachPageWithContent } from '../db/page-contents';
import { forEachUrlLayerChunk } from '../db/url-layer';
import { putForDataset } from '../db/orphans';
import { jobFailure } from './job-failure';
import { db, type StoredDustRun } from '../db/schema';
import { getDataset } from '../db/queries';
import { browserNatives } from './natives';
import { blobRanges } from './sample-read';

export interface DustProgress {
  /** 'partners': a sample's partners of sampled URLs chosen and read (core/dust/sample-dust.ts). */
  phase: DustPhase | 'reading' | 'partners';
  done: number;
  total: number;
}

export type DustJobResult = JobOutcome;

/**
 * DustBuster over a dataset's URL list: sizes from ingest, and for pages with text a MinHash sketch
 * (the engine's shingles, 128 permutations) so LikelySimilar and validation compare documents, as the
 * paper does with its sketches. A URL's "fetch" is its page in the dataset; on a sample, also a partner
 * of a sampled URL read by byte range from `files` (the crawl's files, when this tab has them).
 */
export async function runDust(
  { datasetId, params, files }: { datasetId: number; params: Partial<DustParams>; files?: File[] },
  onProgress: (p: DustProgress) => void,
  isCancelled: () => boolean,
): Promise<DustJobResult> {
  const t0 = performance.now();
  const d = db();
  try {
    const ds = await getDataset(d, datasetId);
    if (!ds) return { kind: 'failed', message: `dataset ${datasetId} not found` };
    const records: DustRecord[] = [];
    const links = new InlinkCounter();
    let done = 0;
    let withContent = 0;
    await forEachPageWithContent(d, datasetId, 500, (batch) => {
      checkCancelled(isCancelled);
      for (const { page, content } of batch) {
        const r = dustRecordOf(page, content?.text, content?.headers);
        if (r.sketch) withContent++;
        if (content) links.add(page.normUrl, content.outlinks);
        records.push(r);
      }
      done += batch.length;
      onProgress({ phase: 'reading', done, total: ds.pages });
    });
    for (const r of records) r.inlinks = links.of(r.url);
    const full: DustParams = { ...DUST_DEFAULTS, ...params };
    const progress = (phase: DustProgress['phase'], x?: number, y?: number) => {
      checkCancelled(isCancelled);
      onProgress({ phase, done: x ?? 0, total: y ?? 0 });
    };
    // A sample: the rules are mined on its URL layer — every HTML capture of the crawl's index — and
    // validated on the sampled pages, the only URLs with a document to fetch, and on the partners of
    // sampled URLs, read by byte range from the crawl's files (core/dust/sample-dust.ts).
    const layer = new UrlLayer();
    const chunks = ds.sample
      ? await forEachUrlLayerChunk(d, datasetId, (lines) => {
          checkCancelled(isCancelled);
          layer.add(lines);
        })
      : 0;
    let r: DustResult;
    let partners: PartnerReport | undefined;
    if (ds.sample && chunks > 0) {
      const layerFiles = ds.sample.layerFiles;
      let source: PartnerSource;
      if (!layerFiles || !layer.hasPlaces) source = { missing: 'no-places' };
      else if (!files?.length) source = { missing: 'no-files' };
      else {
        const { sources, rangesOf } = blobRanges(files);
        source = layerPartners(layer, layerFiles, sources, {
          natives: await browserNatives(),
          rangesOf,
          isCancelled,
        });
      }
      const on = await dustOnSample(layer.records, records, full, source, progress);
      r = on.result;
      partners = on.partners;
    } else r = runDustBuster(records, full, undefined, progress);
    const saved = urlsSaved(r.rules, [...r.canonical.keys()], r.canonical, full);
    const only = urlsOnlyBy(r.rules, [...r.canonical.keys()], r.canonical, full);
    const run: StoredDustRun = {
      datasetId,
      params: full,
      created: new Date().toISOString(),
      elapsedMs: performance.now() - t0,
      rules: r.rules,
      saved,
      only,
      metrics: r.metrics,
      canonical: [...r.canonical].filter(([u, c]) => u !== c),
      ruleForm: [...r.ruleForm],
      renamed: r.renamed,
      renamedClasses: r.renamedClasses,
      unfetched: r.unfetched,
      cycles: r.cycles,
      list: r.list,
      hasContent: withContent > 0,
      ...(partners ? { partners } : {}),
    };
    // Written only while the dataset exists (deleted mid-job, in any tab: DatasetGone, a cancel).
    checkCancelled(isCancelled);
    await putForDataset(d, d.dustRuns, run);
    return { kind: 'done' };
  } catch (e) {
    // A cancel while partners were read (the core's reader stops with its own).
    if (e instanceof IngestCancelled) return { kind: 'cancelled' };
    return jobFailure(e, 'the mined rules');
  }
}
