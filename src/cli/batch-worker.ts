/**
 * The map step for one shard: stream the file through the core ingest pipeline (as `npm run analyze`
 * does), keep the pages the workbench compares (comparable(), with text), and write the shard's
 * pages, bands and shingles tables (src/core/batch/tables.ts). `_SUCCESS` is written last (renamed into
 * place): a shard directory without it is incomplete and is redone on the next run. It records each
 * table file's size and SHA-256, which a rerun checks before it trusts the shard (`checkShard`): a file
 * cut short or overwritten since would otherwise fail the join the same way on every run.
 *
 * Runs in a worker_thread when started by batch-map.ts (one per core), or in-process (tests).
 */
import { createReadStream, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileWriter } from 'hyparquet-writer';
import { comparable } from '../core/candidates/comparable';
import { ingest } from '../core/ingest/pipeline';
import { nodeNatives } from './natives';
import { signatureText, TemplateModel } from '../core/text/template';
import { profileCanonizer, type DedupProfile } from '../core/profile';
import { shardKey } from '../core/batch/keys';
import { ShardTables, TABLES, type BatchPage, type TableName } from '../core/batch/tables';
import { mapKey, sha256Of, shardDir, type ShardStats, type TableFile } from './batch-shards';

/** Where a shard's pages come from: a crawl file, or a module generating page records (bench). */
export type ShardSource =
  { kind: 'file'; path: string } | { kind: 'generator'; module: string; args: Record<string, number> };

export interface ShardTask {
  index: number;
  /** Name kept in the pages table (the file's base name). */
  name: string;
  source: ShardSource;
  outDir: string;
  profile: DedupProfile;
}

export interface ShardProgress {
  index: number;
  bytesRead: number;
  totalBytes: number;
  pages: number;
}

/** A generator module exports `pages(args)`: page records straight into the map step. */
interface GeneratorModule {
  pages(args: Record<string, number>): Iterable<BatchPage>;
}

export async function mapShard(
  task: ShardTask,
  onProgress: (p: ShardProgress) => void = () => {},
): Promise<ShardStats> {
  const t0 = performance.now();
  const dir = shardDir(task.outDir, task.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const writers = Object.fromEntries(TABLES.map((t) => [t, fileWriter(join(dir, `${t}.parquet`))])) as Record<
    TableName,
    ReturnType<typeof fileWriter>
  >;
  const tables = new ShardTables(
    task.name,
    shardKey(task.name),
    task.profile.engine,
    profileCanonizer(task.profile),
    writers,
  );
  let skipped = 0;
  let error: string | null = null;
  const src = task.source;
  const template = task.profile.engine.template;
  // One read of the shard, each compared page handed to `use` (comparable(), with text).
  const eachPage = async (handle: (p: BatchPage) => Promise<void> | void, report: boolean): Promise<void> => {
    skipped = 0;
    if (src.kind === 'file') {
      const totalBytes = statSync(src.path).size;
      const summary = await ingest(
        createReadStream(src.path, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>,
        {
          fileName: basename(src.path),
          totalBytes,
          natives: nodeNatives,
          onProgress: (p) =>
            report &&
            onProgress({ index: task.index, bytesRead: p.bytesRead, totalBytes, pages: tables.pages }),
        },
        async (batch) => {
          for (const { page, content } of batch) {
            if (!comparable(page) || !content.text) {
              skipped++;
              continue;
            }
            await handle({
              seq: page.seq,
              url: page.url,
              normUrl: page.normUrl,
              host: page.host,
              offset: page.offset,
              fingerprint: page.fingerprint,
              status: page.status,
              fetchedAt: page.fetchedAt,
              bytes: page.sizeMax,
              digest: page.digest,
              text: content.text,
              templateHints: content.templateHints,
              textLength: page.textLength,
            });
          }
        },
      );
      // A fault in the middle keeps what was read before it (the dataset would be partial): say so.
      if (summary.error) error = summary.error.message;
      if (report) onProgress({ index: task.index, bytesRead: totalBytes, totalBytes, pages: tables.pages });
    } else {
      const mod = (await import(pathToFileURL(src.module).href)) as GeneratorModule;
      const total = src.args.count ?? 0;
      let last = 0;
      for (const p of mod.pages(src.args)) {
        await handle(p);
        const now = performance.now();
        if (report && now - last > 500) {
          last = now;
          onProgress({ index: task.index, bytesRead: tables.pages, totalBytes: total, pages: tables.pages });
        }
      }
    }
  };
  if (template.strip) {
    // Template text (src/core/text/template.ts) is counted per site over this shard, as CCNet counts
    // line hashes per shard: a first read observes, the second splits (as the signatures job does over
    // IndexedDB). The workbench's model is the whole dataset's: they agree when a site's pages are in
    // one shard (README, "Beyond one machine").
    const model = new TemplateModel(template);
    await eachPage((p) => model.observe({ url: p.normUrl, text: p.text, hints: p.templateHints }), false);
    await eachPage(
      (p) =>
        tables.add({
          ...p,
          text: signatureText(model.split({ url: p.normUrl, text: p.text, hints: p.templateHints }), p.text),
        }),
      true,
    );
  } else await eachPage((p) => tables.add(p), true);
  await tables.finish();
  let bytes = 0;
  const files = {} as Record<TableName, TableFile>;
  for (const t of TABLES) {
    const path = join(dir, `${t}.parquet`);
    files[t] = { bytes: statSync(path).size, sha256: await sha256Of(path) };
    bytes += files[t].bytes;
  }
  const stats: ShardStats = {
    index: task.index,
    name: task.name,
    pages: tables.pages,
    skipped,
    bandRows: tables.bandRows,
    shingleRows: tables.shingleRows,
    bytes,
    elapsedMs: performance.now() - t0,
    error,
    tables: files,
    source: task.source.kind === 'file' ? task.source.path : `generator ${task.source.module}`,
    profileKey: mapKey(task.profile),
  };
  // Renamed into place: a marker is whole or absent, never cut short by a crash.
  writeFileSync(join(dir, '_SUCCESS.tmp'), JSON.stringify(stats) + '\n');
  renameSync(join(dir, '_SUCCESS.tmp'), join(dir, '_SUCCESS'));
  return stats;
}

/** Messages from a worker to batch-map.ts. */
export type WorkerMessage =
  | { type: 'progress'; progress: ShardProgress }
  | { type: 'done'; stats: ShardStats; heapPeak: number }
  | { type: 'failed'; index: number; message: string };

if (!isMainThread && parentPort && (workerData as { batchWorker?: boolean } | null)?.batchWorker) {
  const port = parentPort;
  let heapPeak = 0;
  const sampleHeap = () => (heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size));
  const timer = setInterval(sampleHeap, 200);
  port.on('message', (task: ShardTask | null) => {
    if (task === null) {
      clearInterval(timer);
      port.close();
      return;
    }
    mapShard(task, (progress) => {
      sampleHeap();
      port.postMessage({ type: 'progress', progress } satisfies WorkerMessage);
    }).then(
      (stats) => port.postMessage({ type: 'done', stats, heapPeak: sampleHeap() } satisfies WorkerMessage),
      (e: unknown) =>
        port.postMessage({
          type: 'failed',
          index: task.index,
          message: e instanceof Error ? e.message : String(e),
        } satisfies WorkerMessage),
    );
  });
}
