/**
 * The workbench's side of the batch comparisons (test/core/batch/equality.test.ts, bench:batch
 * --docsite): crawl files read one after the other as shards, every compared page through the engine
 * with its template step (analysePages), pages named by the batch's ids (shard key from the shard's
 * name, record order) and read in that order. `names` are the shards' names in the map step (default: the files' base names).
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { comparable } from '../../src/core/candidates/comparable';
import { analysePages, type EnginePage } from '../../src/core/candidates/analyse-pages';
import { ENGINE_DEFAULTS, type EngineParams } from '../../src/core/candidates/engine-params';
import type { EngineResult } from '../../src/core/candidates/engine-result';
import { DEFAULT_THRESHOLDS, type MethodId } from '../../src/core/candidates/methods';
import { clusterView, type ClusterMode } from '../../src/core/clusters/view';
import { ingest } from '../../src/core/ingest/pipeline';
import { pageId, shardKey } from '../../src/core/batch/keys';

export async function workbenchRun(
  shards: string[],
  names: string[] = shards.map((f) => basename(f)),
  params: Partial<EngineParams> = {},
): Promise<{ r: EngineResult; ids: bigint[]; folded: Set<number> }> {
  const pages: EnginePage[] = [];
  const ids: bigint[] = [];
  // The files in the order of their shard keys: the engine's page order is then the batch's id order,
  // which both break ties by (star centres, LSH bucket anchors).
  const order = shards.map((_, s) => s).sort((x, y) => (shardKey(names[x]) < shardKey(names[y]) ? -1 : 1));
  for (const s of order) {
    await ingest(
      createReadStream(shards[s]) as AsyncIterable<Uint8Array>,
      { fileName: basename(shards[s]), totalBytes: 0 },
      async (batch) => {
        for (const { page, content } of batch) {
          if (!comparable(page) || !content.text) continue;
          pages.push({
            text: content.text,
            normUrl: page.normUrl,
            fetchedAt: page.fetchedAt,
            outlinks: content.outlinks,
            fingerprint: page.fingerprint,
            templateHints: content.templateHints,
          });
          ids.push(pageId(shardKey(names[s]), page.seq));
        }
      },
    );
  }
  const { result, kept } = analysePages(pages, { ...ENGINE_DEFAULTS, captures: 'each', ...params });
  // Pages folded into another capture of their URL (captures: 'url'), by index in `ids`.
  const standing = new Set(kept);
  const folded = new Set(ids.map((_, i) => i).filter((i) => !standing.has(i)));
  return { r: result, ids, folded };
}

/** Connected components of the pairs the method accepts at the default thresholds, as page ids. */
export function workbenchComponents(run: { r: EngineResult; ids: bigint[] }, method: MethodId): bigint[][] {
  return workbenchClusters(run, method, 'components');
}

/**
 * The engine's clusters of the pairs the method accepts at the default thresholds, as page ids: the
 * workbench's own view (clusterView). workbenchRun reads the pages in id order, so ties (star centres
 * by degree, the chain guard's pairs by similarity) fall as in the batch.
 */
export function workbenchClusters(
  run: { r: EngineResult; ids: bigint[] },
  method: MethodId,
  mode: ClusterMode,
): bigint[][] {
  const { r, ids } = run;
  for (let i = 1; i < ids.length; i++)
    if (ids[i - 1] >= ids[i]) throw new Error('workbenchClusters: pages not in id order');
  return clusterView(r, method, DEFAULT_THRESHOLDS, mode).clusters.map((c) => c.members.map((i) => ids[i]));
}
