/**
 * A WARC's captures as the archive exports read them (dedup-warc.ts, cdxj.ts), and its clusters at the
 * workbench's defaults as indexes into them: what the deduplicated-WARC and CDXJ tests share.
 */
import { analysePages, type EnginePage } from '../../../src/core/candidates/analyse-pages';
import { enginePage } from '../../../src/core/candidates/comparable';
import { DEFAULT_METHOD, DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import type { CdxjCapture } from '../../../src/core/clusters/cdxj';
import { clusterView, DEFAULT_CLUSTERING } from '../../../src/core/clusters/view';
import type { IngestedPage } from '../../../src/core/types';
import { ingestBytes } from '../helpers';

export async function pagesOf(bytes: Uint8Array): Promise<IngestedPage[]> {
  return (await ingestBytes(bytes, 'sample.warc.gz', { chunkSize: 1 << 16 })).pages;
}

export async function capturesAndClusters(bytes: Uint8Array) {
  const all = await pagesOf(bytes);
  const captures: CdxjCapture[] = all.map((p) => ({
    id: p.page.seq,
    url: p.page.url,
    status: p.page.status,
    fetchedAt: p.page.fetchedAt,
    isCanonical: true,
    canonicalUrl: p.page.normUrl,
    textLength: p.page.textLength,
    offset: p.page.offset,
    digest: p.page.digest,
    headers: p.content.headers,
    mime: p.page.mime,
    recordType: p.page.recordType,
  }));
  const engine: EnginePage[] = [];
  const ofEngine: number[] = [];
  all.forEach((p, i) => {
    const e = enginePage(p.page, p.content);
    if (e) {
      engine.push(e);
      ofEngine.push(i);
    }
  });
  const { result, kept } = analysePages(engine);
  const view = clusterView(result, DEFAULT_METHOD, DEFAULT_THRESHOLDS, DEFAULT_CLUSTERING);
  const clusters = view.clusters.map((c) => c.members.map((m) => ofEngine[kept[m]]));
  return { all, captures, clusters };
}
