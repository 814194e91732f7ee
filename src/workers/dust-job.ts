import { dustRecordOf } from '../core/dust/from-page';
import { urlsOnlyBy, urlsSaved } from '../core/dust/saved';
import { InlinkCounter } from '../core/dust/inlinks';
import {
  datasetFetch,
  DUST_DEFAULTS,
  runDustBuster,
  type DustParams,
  type DustPhase,
  type DustRecord,
} from '../core/dust';
import type { FetchFn } from '../core/dust/types';
import { buildUrlList } from '../core/dust/url-list';
import { layerRecords } from '../core/dust/url-layer';
import { checkCancelled, type JobOutcome } from '../core/jobs';
import { forEachPageWithContent } from '../db/page-contents';
import { forEachUrlLayerChunk } from '../db/url-layer';
import { putForDataset } from '../db/orphans';
import { jobFailure } from './job-failure';
import { db, type StoredDustRun } from '../db/schema';
import { getDataset } from '../db/queries';

export interface DustProgress {
  phase: DustPhase | 'reading';
  done: number;
  total: number;
}

export type DustJobResult = JobOutcome;

/**
 * DustBuster over a dataset's URL list: sizes from ingest, and for pages with text a MinHash sketch
 * (the engine's shingles, 128 permutations) so LikelySimilar and validation compare documents, as the
 * paper does with its sketches. A URL's "fetch" is its page in the dataset.
 */
export async function runDust(
  { datasetId, params }: { datasetId: number; params: Partial<DustParams> },
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
    // A sample: the rules are mined on its URL layer — every HTML capture of the crawl's index — and
    // validated on the sampled pages, the only URLs with a document to fetch.
    let mined: DustRecord[] = records;
    let fetch: FetchFn | undefined;
    if (ds.sample) {
      const layer: DustRecord[] = [];
      const chunks = await forEachUrlLayerChunk(d, datasetId, (lines) => {
        checkCancelled(isCancelled);
        for (const r of layerRecords(lines)) layer.push(r);
      });
      if (chunks > 0) {
        fetch = datasetFetch(buildUrlList(records).urls);
        mined = layer;
      }
    }
    const r = runDustBuster(mined, full, fetch, (phase, x, y) => {
      checkCancelled(isCancelled);
      onProgress({ phase, done: x ?? 0, total: y ?? 0 });
    });
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
      unfetched: r.unfetched,
      cycles: r.cycles,
      list: r.list,
      hasContent: withContent > 0,
    };
    // Written only while the dataset exists (deleted mid-job, in any tab: DatasetGone, a cancel).
    checkCancelled(isCancelled);
    await putForDataset(d, d.dustRuns, run);
    return { kind: 'done' };
  } catch (e) {
    return jobFailure(e, 'the mined rules');
  }
}
