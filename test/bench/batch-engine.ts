/**
 * The workbench's side of the batch comparisons (test/core/batch/equality.test.ts, bench:batch
 * --docsite): crawl files read one after the other as shards, every compared page through the engine
 * with its template step (analysePages), pages named by the batch's ids (shard key from the shard's
 * name, record order). `names` are the shards' names in the map step (default: the files' base names).
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { comparable } from '../../src/core/candidates/comparable';
import {
  analysePages,
  ENGINE_DEFAULTS,
  type EnginePage,
  type EngineResult,
} from '../../src/core/candidates/engine';
import { acceptMask, DEFAULT_THRESHOLDS, type MethodId } from '../../src/core/candidates/methods';
import { connectedComponents } from '../../src/core/clusters/clusters';
import { ingest } from '../../src/core/ingest/pipeline';
import { pageId, shardKey } from '../../src/core/batch/keys';

export async function workbenchRun(
  shards: string[],
  names: string[] = shards.map((f) => basename(f)),
): Promise<{ r: EngineResult; ids: bigint[] }> {
  const pages: EnginePage[] = [];
  const ids: bigint[] = [];
  for (let s = 0; s < shards.length; s++) {
    await ingest(
      createReadStream(shards[s]) as AsyncIterable<Uint8Array>,
      { fileName: basename(shards[s]), totalBytes: 0 },
      async (batch) => {
        for (const { page, content } of batch) {
          if (!comparable(page) || !content.text) continue;
          pages.push({
            text: content.text,
            normUrl: page.normUrl,
            outlinks: content.outlinks,
            fingerprint: page.fingerprint,
            templateHints: content.templateHints,
          });
          ids.push(pageId(shardKey(names[s]), page.seq));
        }
      },
    );
  }
  return { r: analysePages(pages, { ...ENGINE_DEFAULTS, captures: 'each' }).result, ids };
}

/** Connected components of the pairs the method accepts at the default thresholds, as page ids. */
export function workbenchComponents(run: { r: EngineResult; ids: bigint[] }, method: MethodId): bigint[][] {
  const { r, ids } = run;
  const { mask } = acceptMask(r.pairs, method, DEFAULT_THRESHOLDS);
  return connectedComponents(r.n, r.pairs.a, r.pairs.b, (k) => mask[k] === 1).map((c) =>
    c.members.map((i) => ids[i]),
  );
}
