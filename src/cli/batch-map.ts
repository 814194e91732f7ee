/**
 * The batch's map step: each shard (a WARC or any format the workbench reads) read in a worker_thread
 * (batch-worker.ts), one per core, into Parquet (src/core/batch/tables.ts); DIR/join.json written first
 * for a join on another engine.
 */
import { overrideUrlRows } from './batch-overrides';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DedupProfile } from '../core/profile';
import { joinVars } from './batch-profile';
import { checkShard, collidingKeys, mapKey, shardDir, type ShardStats } from './batch-shards';
import type { ShardTask, WorkerMessage } from './batch-worker';

const WORKER_FILE = fileURLToPath(new URL('./batch-worker.ts', import.meta.url));

export interface MapOptions {
  profile: DedupProfile;
  outDir: string;
  shards: { name: string; source: ShardTask['source'] }[];
  workers?: number;
  log?: (line: string) => void;
}

export interface MapResult {
  shards: ShardStats[];
  skipped: number;
  elapsedMs: number;
  /** Peak V8 heap of each worker (bytes). */
  workerHeapPeaks: number[];
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;

/** What the map step leaves for a join on another engine (spark/dedup_join.py reads it). */
export const JOIN_PLAN = 'join.json';

/**
 * The map step: shards without `_SUCCESS` are processed, one worker_thread per core. A shard done under
 * another profile is mapped again; a shard of the same name mapped from another file stops the run,
 * before anything is written. It writes DIR/join.json before the shards: the SQL variables and the
 * profile, which a join on Spark reads.
 */
export async function runMap(o: MapOptions): Promise<MapResult> {
  const t0 = performance.now();
  const log = o.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const key = mapKey(o.profile);
  const todo: ShardTask[] = [];
  const done: ShardStats[] = [];
  // Ids come from a shard's name (keys.ts shardKey): two files of one name would share them.
  const named = new Map<string, string>();
  for (const s of o.shards) {
    const where = s.source.kind === 'file' ? s.source.path : s.name;
    const other = named.get(s.name);
    if (other !== undefined)
      throw new Error(
        `two shards are named ${s.name} (${other} and ${where}): page ids come from the shard's name, so each must be unique`,
      );
    named.set(s.name, where);
  }
  collidingKeys(o.shards.map((s) => s.name));
  // A shard marked done is trusted only when its files are the ones written (checkShard); a damaged one
  // is mapped again, or the join would fail on it the same way on every run.
  for (const [index, s] of o.shards.entries()) {
    const check = await checkShard(shardDir(o.outDir, s.name), s.name);
    const from = s.source.kind === 'file' ? s.source.path : `generator ${s.source.module}`;
    // Another file of the same name, mapped into DIR before: it would be taken as this one, done.
    if (check.kind === 'done' && check.stats.source !== undefined && check.stats.source !== from)
      throw new Error(
        `shard ${s.name}: ${o.outDir} already holds a shard of that name mapped from ${check.stats.source}, so ${from} would be skipped as done; name it apart (--name-prefix) or map into another --out`,
      );
    if (check.kind === 'done' && check.stats.profileKey !== undefined && check.stats.profileKey !== key) {
      log(`map: shard ${index} ${s.name}: mapped with another profile before: mapped again`);
      todo.push({ index, name: s.name, source: s.source, outDir: o.outDir, profile: o.profile });
      continue;
    }
    if (check.kind === 'done') {
      done.push(check.stats);
      continue;
    }
    if (check.kind === 'damaged')
      log(`map: shard ${index} ${s.name}: its output is damaged (${check.reason}): mapped again`);
    todo.push({ index, name: s.name, source: s.source, outDir: o.outDir, profile: o.profile });
  }
  mkdirSync(o.outDir, { recursive: true });
  writeFileSync(
    join(o.outDir, JOIN_PLAN),
    JSON.stringify(
      {
        vars: joinVars(o.profile),
        profile: o.profile,
        // The analyst's decisions with their URLs normalised and canonised here, once, for any engine.
        overrides: overrideUrlRows(o.profile),
      },
      null,
      2,
    ) + '\n',
  );
  if (done.length) log(`map: ${done.length} shard(s) already done (_SUCCESS, files checked), skipped`);
  const n = Math.max(1, Math.min(o.workers ?? availableParallelism(), todo.length));
  const progress = new Map<number, { read: number; total: number; pages: number }>();
  const heapPeaks: number[] = [];
  let lastLine = 0;
  const overall = () => {
    const now = performance.now();
    if (now - lastLine < 1000) return;
    lastLine = now;
    let pages = 0;
    for (const p of progress.values()) pages += p.pages;
    for (const s of done) pages += s.pages;
    const parts = [...progress.entries()].map(
      ([i, p]) => `#${i} ${p.total ? Math.round((100 * p.read) / p.total) : 0}%`,
    );
    log(
      `map: ${done.length}/${o.shards.length} shards, ${pages.toLocaleString('en-US')} pages; running ${parts.join(' ')}`,
    );
  };
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: n }, (_, w) => {
      return new Promise<void>((resolveWorker, reject) => {
        const worker = startWorker();
        const next = () => {
          const task = todo.shift();
          worker.postMessage(task ?? null);
          if (!task) return;
          progress.set(task.index, { read: 0, total: 0, pages: 0 });
        };
        worker.on('message', (m: WorkerMessage) => {
          if (m.type === 'progress') {
            progress.set(m.progress.index, {
              read: m.progress.bytesRead,
              total: m.progress.totalBytes,
              pages: m.progress.pages,
            });
            overall();
            return;
          }
          if (m.type === 'done') {
            progress.delete(m.stats.index);
            done.push(m.stats);
            heapPeaks[w] = Math.max(heapPeaks[w] ?? 0, m.heapPeak);
            log(
              `map: shard ${m.stats.index} ${m.stats.name}: ${m.stats.pages.toLocaleString('en-US')} pages (${m.stats.skipped} not compared), ${mb(m.stats.bytes)} Parquet, ${(m.stats.elapsedMs / 1000).toFixed(1)} s${m.stats.error ? ` — PARTIAL: ${m.stats.error}` : ''}`,
            );
          } else {
            progress.delete(m.index);
            failures.push(`shard ${m.index}: ${m.message}`);
            log(`map: shard ${m.index} FAILED: ${m.message}`);
          }
          next();
        });
        worker.on('error', reject);
        worker.on('exit', () => resolveWorker());
        next();
      });
    }),
  );
  if (failures.length)
    throw new Error(`map step failed on ${failures.length} shard(s): ${failures.join('; ')}`);
  done.sort((a, b) => a.index - b.index);
  return {
    shards: done,
    skipped: done.length,
    elapsedMs: performance.now() - t0,
    workerHeapPeaks: heapPeaks,
  };
}

/**
 * A map worker. The CLI runs from TypeScript sources under tsx, whose loader a worker_thread does not
 * inherit: the worker registers it (tsx/esm/api) before importing its module.
 */
function startWorker(): Worker {
  // tsx's loader by its absolute URL: a worker's eval code resolves bare names from the working
  // directory, which a command run from the crawl's folder (INIT_CWD, input-paths.ts) moved there.
  const code = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((t) => { t.register(); return import(${JSON.stringify(pathToFileURL(WORKER_FILE).href)}); })`;
  return new Worker(code, { eval: true, workerData: { batchWorker: true } });
}
