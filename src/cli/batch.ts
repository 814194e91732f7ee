/**
 * `npm run batch -- [--profile P.json] --out DIR [--step map|join|all] [--shards LIST.txt] FILE…` (`--help`)
 *
 * Applies a dedup profile exported by the workbench to a whole crawl. The map step reads each shard
 * (a WARC or any format the workbench reads) in a worker_thread, one per core, and writes Parquet
 * (src/core/batch/tables.ts); the join step runs sql/dedup.sql on embedded DuckDB and writes the
 * clusters, the verified pairs and a summary. The same SQL runs on Spark (README, "Beyond one machine").
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DuckDBInstance } from '@duckdb/node-api';
import { clusterEdges, regroupDuckDB, type BatchClustering } from './batch-cluster';
import { CHAIN_FLOOR } from '../core/clusters/view';
import { BATCH_METHODS, bandsOf, shardKey, type BatchMethod } from '../core/batch/keys';
import { parseNamedSql, substitute } from '../core/batch/sql';
import { defaultProfile, parseProfile, type DedupProfile } from '../core/profile';
import { METHOD_LABELS } from '../core/candidates/methods';
import { argsOrExit, usageExit, type CommandSpec } from './args';
import {
  checkShard,
  shardDir,
  shardDirs,
  type ShardStats,
  type ShardTask,
  type WorkerMessage,
} from './batch-worker';
import { checkRegularFile, InputError, readTextInput } from './input-paths';

export const SQL_FILE = fileURLToPath(new URL('../../sql/dedup.sql', import.meta.url));
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

/** The values sql/dedup.sql's `${var}`s take for a profile: the same on DuckDB and on Spark. */
export function joinVars(profile: DedupProfile): Record<string, string | number> {
  return {
    method: batchMethod(profile),
    jaccard: profile.thresholds.jaccard,
    hamming: profile.thresholds.hamming,
    full_bucket: profile.engine.minhash.fullBucket,
    anchors: profile.engine.minhash.anchors,
    clustering: batchClustering(profile),
    guard_floor: CHAIN_FLOOR,
    // The lowest similarity any output needs: the threshold, or the guard's floor below it.
    min_similarity:
      batchClustering(profile) === 'guarded'
        ? Math.min(profile.thresholds.jaccard, CHAIN_FLOOR)
        : profile.thresholds.jaccard,
  };
}

/**
 * The profile's clustering, if the batch join computes it for the profile's method. The chain guard
 * looks up the exact Jaccard of every member pair: the MinHash join has it for its candidates, the
 * SimHash join (verified by Hamming distance) does not.
 */
export function batchClustering(profile: DedupProfile): BatchClustering {
  const c = profile.clustering;
  if (c === 'guarded' && batchMethod(profile) === 'simhash')
    throw new Error(
      "the batch join applies the chain guard to MinHash and exact profiles; the profile's method is SimHash (its join has no exact Jaccard to guard with)",
    );
  return c;
}

/**
 * The engine-specific spellings the SQL names as variables: ${simhash_distance} (DuckDB has xor(), not
 * ^) and ${intersection_size}, the shingles two sets share. DuckDB's list functions cost ~65 ns an
 * element (list_intersect, which hashes, ~100); for two sets of at most 400 × 400 shingles a scan of the
 * second for each shingle of the first costs less (0.19 ns a comparison: 7 µs a pair of 196-shingle
 * generated pages, against 13 µs for the size of the union), and past that the size of the union
 * (list_unique of both, linear) gives it. The bound was chosen on generated pages and checked on
 * docsite's real ones (2,022 shingles a verified page; under the bound both spellings take the same).
 */
const DUCKDB_SPELLING = {
  simhash_distance: 'bit_count(xor(pa.simhash, pb.simhash))',
  intersection_size:
    'CASE WHEN x.n * y.n <= 160000 THEN len(list_filter(x.shingles, lambda s: list_contains(y.shingles, s)))' +
    ' ELSE x.n + y.n - list_unique(list_concat(x.shingles, y.shingles)) END',
};

/** What the map step leaves for a join on another engine (spark/dedup_join.py reads it). */
export const JOIN_PLAN = 'join.json';

/**
 * The map step: shards without `_SUCCESS` are processed, one worker_thread per core. It writes
 * DIR/join.json first: the SQL variables and the profile, which a join on Spark reads.
 */
export async function runMap(o: MapOptions): Promise<MapResult> {
  const t0 = performance.now();
  const log = o.log ?? ((l: string) => process.stderr.write(l + '\n'));
  mkdirSync(o.outDir, { recursive: true });
  writeFileSync(
    join(o.outDir, JOIN_PLAN),
    JSON.stringify({ vars: joinVars(o.profile), profile: o.profile }, null, 2) + '\n',
  );
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
    if (check.kind === 'done') {
      done.push(check.stats);
      continue;
    }
    if (check.kind === 'damaged')
      log(`map: shard ${index} ${s.name}: its output is damaged (${check.reason}): mapped again`);
    todo.push({ index, name: s.name, source: s.source, outDir: o.outDir, profile: o.profile });
  }
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
 * Two shard names whose keys (keys.ts shardKey) are equal would give their pages the same ids: refused,
 * naming both (rename one file). Returns the keys.
 */
export function collidingKeys(
  names: readonly string[],
  keyOf: (name: string) => bigint = shardKey,
): Map<bigint, string> {
  const keys = new Map<bigint, string>();
  for (const n of names) {
    const k = keyOf(n);
    const other = keys.get(k);
    if (other !== undefined && other !== n)
      throw new Error(
        `shards ${other} and ${n} have the same key (${k.toString(16)}), so their pages would share ids: rename one of the files`,
      );
    keys.set(k, n);
  }
  return keys;
}

export interface JoinOptions {
  profile: DedupProfile;
  outDir: string;
  /**
   * The shards to join, by name (the map step's `name`); default: every shard the map step finished in
   * DIR, whichever run or machine mapped it.
   */
  shards?: string[];
  /** DuckDB memory_limit (it spills to DIR/.duckdb-tmp beyond). */
  memory?: string;
  /**
   * An earlier crawl's map output (its DIR): its pages join as the `earlier` crawl, kept before the
   * crawl's own copies, never in the remove list, and each page of the crawl in a cluster with one is
   * written to revisits.parquet as a revisit of it.
   */
  against?: string;
  log?: (line: string) => void;
}

export interface JoinSummaryRow {
  host: string | null;
  pages: number;
  pages_in_clusters: number;
  clusters: number;
  /** Duplicate URLs: cluster members other than the kept copy. */
  duplicates_removed: number;
  /** Distinct payload digests (a page without one counts as its own). */
  unique_payloads: number;
  bytes: number;
  /** Bytes of the duplicates removed. */
  bytes_conserved: number;
}

export interface JoinResult {
  method: BatchMethod;
  candidates: number;
  edges: number;
  clustering: BatchClustering;
  /** Rounds of the star clustering, or iterations of the label propagation. */
  iterations: number;
  /** With `against`: the earlier crawl's pages, and the crawl's pages that revisit them, by kind. */
  against?: { dir: string; pages: number; revisits: Record<RevisitKind, number> };
  /**
   * LSH buckets of more than the profile's fullBucket pages, verified against their anchors (summed
   * over bands), and the page-band memberships in them.
   */
  anchored: { buckets: number; memberships: number };
  summary: JoinSummaryRow[];
  timings: Record<string, number>;
  elapsedMs: number;
}

export type RevisitKind = 'identical-payload' | 'identical-text' | 'near';

/** The profile's method, if the batch join can apply it (RP+HM, feature code and SimHash: README). */
export function batchMethod(profile: DedupProfile): BatchMethod {
  const m = profile.method as BatchMethod;
  if (!BATCH_METHODS.includes(m))
    throw new Error(
      `the batch join applies ${BATCH_METHODS.map((x) => METHOD_LABELS[x]).join(', ')}; the profile's method is ${METHOD_LABELS[profile.method]}`,
    );
  // The blocks find every pair within engine.maxHamming bits; a wider threshold would need the
  // candidates of the other methods, as the workbench has them.
  if (m === 'simhash' && profile.thresholds.hamming > profile.engine.maxHamming)
    throw new Error(
      `the profile's SimHash threshold (${profile.thresholds.hamming} bits) is wider than the distance its blocks find (engine.maxHamming, ${profile.engine.maxHamming})`,
    );
  return m;
}

/**
 * A map worker. The CLI runs from TypeScript sources under tsx, whose loader a worker_thread does not
 * inherit: the worker registers it (tsx/esm/api) before importing its module.
 */
function startWorker(): Worker {
  const code = `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(pathToFileURL(WORKER_FILE).href)}); })`;
  return new Worker(code, { eval: true, workerData: { batchWorker: true } });
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The statements after the label propagation, in order (spark/dedup_join.py runs the same). */
const JOIN_TABLES = ['kept', 'clusters', 'remove', 'pairs', 'summary'] as const;
/** The tables written out: clusters (with `kept`), the remove list, the verified pairs, the summary. */
export const RESULT_TABLES = ['clusters', 'remove', 'pairs', 'summary'] as const;
/** The join's results in DIR, summary.json last: it is written last and removed first. */
export const RESULT_FILES = [...RESULT_TABLES.map((t) => `${t}.parquet` as const), 'summary.json'] as const;
/** Written by a join --against only: removed with the others, moved in before summary.json. */
const REVISITS = 'revisits.parquet';
/** Where a join writes before its results are moved into DIR. */
const STAGE = '.join-tmp';

/** Removes an earlier join's results from DIR (summary.json first); whether there were any. */
function removeResults(outDir: string): boolean {
  let any = false;
  for (const f of [REVISITS, ...RESULT_FILES].reverse()) {
    const path = join(outDir, f);
    if (!existsSync(path)) continue;
    any = true;
    rmSync(path, { force: true });
  }
  return any;
}

/**
 * The join step: sql/dedup.sql on embedded DuckDB, results written to DIR as Parquet and JSON. The
 * results in DIR are current or absent: an earlier run's are removed when the join begins (a join that
 * fails or is killed would otherwise leave results of other shards or another profile looking current),
 * the join writes into DIR/.join-tmp, and its files are renamed into DIR only when it has succeeded,
 * summary.json last.
 */
export async function runJoin(o: JoinOptions): Promise<JoinResult> {
  // Which shards, before anything is removed: a damaged or missing one stops here, results untouched.
  const shards = await joinedShards(o.outDir, o.shards);
  const earlier = o.against === undefined ? [] : await earlierShards(o.against, o.profile, shards);
  const hadResults = removeResults(o.outDir);
  const stage = join(o.outDir, STAGE);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  let result: JoinResult;
  try {
    result = await joinInto(o, shards, earlier, stage);
  } catch (e) {
    rmSync(stage, { recursive: true, force: true });
    // DuckDB's messages go on with lines of generic advice (SET threads=…): the first line says it.
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0].replace(/\.$/, '');
    throw new Error(
      `join failed: ${why}. No results in ${o.outDir}${hadResults ? ": the previous run's were removed when the join began" : ''}`,
      { cause: e },
    );
  }
  for (const f of [REVISITS, ...RESULT_FILES])
    if (f !== REVISITS || existsSync(join(stage, f))) renameSync(join(stage, f), join(o.outDir, f));
  rmSync(stage, { recursive: true, force: true });
  return result;
}

/** The join itself, its results written into `dir`. */
async function joinInto(
  o: JoinOptions,
  shards: string[],
  earlier: string[],
  dir: string,
): Promise<JoinResult> {
  const t0 = performance.now();
  const log = o.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const method = batchMethod(o.profile);
  const clustering = batchClustering(o.profile);
  const statements = parseNamedSql(readFileSync(SQL_FILE, 'utf8'));
  const vars: Record<string, string | number> = { ...joinVars(o.profile), ...DUCKDB_SPELLING };
  const sql = (name: string) => {
    const s = statements.get(name);
    if (s === undefined) throw new Error(`${SQL_FILE} has no statement "${name}"`);
    return substitute(s, vars);
  };
  const tmp = join(o.outDir, '.duckdb-tmp');
  const db = await DuckDBInstance.create(':memory:', {
    memory_limit: o.memory ?? '3GB',
    temp_directory: tmp,
    preserve_insertion_order: 'false',
  });
  const con = await db.connect();
  const timings: Record<string, number> = {};
  const run = async (name: string, text = sql(name)) => {
    const t = performance.now();
    await con.run(text);
    timings[name] = (timings[name] ?? 0) + performance.now() - t;
  };
  const count = async (q: string) => Number((await con.runAndReadAll(q)).getRows()[0][0]);
  try {
    // The engine-specific part: the map step's files as the three views the SQL reads.
    // Pages say which crawl they are of: 'new' (the shards joined) or 'earlier' (--against).
    const files = (dirs: string[], t: string) =>
      dirs.map((d) => sqlString(join(d, `${t}.parquet`))).join(', ');
    const crawls: [string, string[]][] = [
      ['new', shards],
      ['earlier', earlier],
    ];
    await run(
      'source.pages',
      `CREATE VIEW pages AS ${crawls
        .filter(([, d]) => d.length > 0)
        .map(([c, d]) => `SELECT *, '${c}' AS crawl FROM read_parquet([${files(d, 'pages')}])`)
        .join(' UNION ALL ')}`,
    );
    for (const t of ['bands', 'shingles'])
      await run(
        `source.${t}`,
        `CREATE VIEW ${t} AS SELECT * FROM read_parquet([${files([...shards, ...earlier], t)}])`,
      );
    await run('buckets');
    const anchoredRow = (await con.runAndReadAll(sql('anchored'))).getRowObjectsJS()[0];
    const anchored = { buckets: Number(anchoredRow.buckets), memberships: Number(anchoredRow.memberships) };
    if (anchored.buckets > 0)
      log(
        `join: ${anchored.buckets.toLocaleString('en-US')} LSH bucket(s) of more than ${vars.full_bucket} pages verified against their ${vars.anchors} anchors (${anchored.memberships.toLocaleString('en-US')} page-band memberships), as the workbench verifies them`,
      );
    await run('members');
    // Each intermediate table is dropped once the statements after it no longer read it: DuckDB keeps
    // them in memory, and at 3M generated pages they held the join's peak RSS at 3.8 GB (3.2 GB dropped).
    const release = async (...tables: string[]) => {
      for (const t of tables) await con.run(`DROP TABLE IF EXISTS ${t}`);
    };
    await release('buckets');
    let candidates = 0;
    if (method === 'minhash') {
      await run('anchors.minhash');
      await run('candidates.minhash');
      await release('members', 'anchors');
      candidates = await count('SELECT COUNT(*) FROM candidates');
      await run('verify.minhash');
      await release('candidates');
      for (const t of ['sets.minhash', 'scored.minhash']) await run(t);
      await release('verify', 'sets');
    } else if (method === 'simhash') {
      await run('candidates.simhash');
      candidates = await count('SELECT COUNT(*) FROM candidates');
    }
    await run(`edges.${method}`);
    const edges = await count('SELECT COUNT(*) FROM edges');
    if (method === 'exact') candidates = edges;
    log(
      `join: ${candidates.toLocaleString('en-US')} candidate pairs, ${edges.toLocaleString('en-US')} verified (${METHOD_LABELS[method]})`,
    );
    const swap = async (table: string) => {
      await con.run(`DROP TABLE ${table}`);
      await con.run(`ALTER TABLE ${table}_next RENAME TO ${table}`);
    };
    const iterations = await clusterEdges(
      clustering,
      method,
      { run, count: (n) => count(sql(n)), swap, regroup: () => regroupDuckDB(con, CHAIN_FLOOR) },
      log,
    );
    for (const t of JOIN_TABLES) await run(t);
    const written = earlier.length > 0 ? [...RESULT_TABLES, 'revisits'] : RESULT_TABLES;
    if (earlier.length > 0) await run('revisits');
    for (const t of written)
      await run(`write.${t}`, `COPY ${t} TO ${sqlString(join(dir, `${t}.parquet`))} (FORMAT parquet)`);
    let against: JoinResult['against'];
    if (earlier.length > 0) {
      const revisits: Record<RevisitKind, number> = { 'identical-payload': 0, 'identical-text': 0, near: 0 };
      for (const r of (
        await con.runAndReadAll('SELECT kind, COUNT(*) AS n FROM revisits GROUP BY kind')
      ).getRowObjectsJS())
        revisits[String(r.kind) as RevisitKind] = Number(r.n);
      against = {
        dir: o.against!,
        pages: await count("SELECT COUNT(*) FROM pages WHERE crawl = 'earlier'"),
        revisits,
      };
      log(
        `join: against ${o.against}: ${against.pages.toLocaleString('en-US')} earlier pages; revisits: ${Object.entries(
          revisits,
        )
          .map(([k, n]) => `${n.toLocaleString('en-US')} ${k}`)
          .join(', ')}`,
      );
    }
    const rows = (
      await con.runAndReadAll('SELECT * FROM summary ORDER BY host NULLS FIRST')
    ).getRowObjectsJS();
    const summary = rows.map((r) => ({
      host: r.host === null ? null : String(r.host),
      pages: Number(r.pages),
      pages_in_clusters: Number(r.pages_in_clusters),
      clusters: Number(r.clusters),
      duplicates_removed: Number(r.duplicates_removed),
      unique_payloads: Number(r.unique_payloads),
      bytes: Number(r.bytes),
      bytes_conserved: Number(r.bytes_conserved),
    }));
    const result: JoinResult = {
      method,
      candidates,
      edges,
      clustering,
      iterations,
      ...(against ? { against } : {}),
      anchored,
      summary,
      timings,
      elapsedMs: performance.now() - t0,
    };
    writeFileSync(
      join(dir, 'summary.json'),
      JSON.stringify(
        {
          profile: {
            method,
            thresholds: o.profile.thresholds,
            bands: bandsOf(o.profile.engine),
            clustering,
          },
          ...result,
        },
        null,
        2,
      ),
    );
    return result;
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

interface Cli {
  profile: string | null;
  out: string;
  step: 'map' | 'join' | 'all';
  workers: number;
  memory: string;
  against: string | null;
  'name-prefix': string;
  files: string[];
}

/**
 * A size DuckDB's memory_limit takes, checked here so that a bad one is a usage error naming the option
 * (DuckDB says only "Failed to set config"): a positive number and a unit. DuckDB reads `3GB` as
 * 3·1000³ bytes and `3GiB` as 3·1024³, and a negative size as no limit (refused here).
 */
export function memorySize(value: string): string | null {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([KMGT]i?B|[KMGT])\s*$/i.exec(value);
  return m && Number(m[1]) > 0 ? null : 'a size above 0 with a unit, such as 3GB or 512MiB';
}

/** The options table: parser, defaults and `--help` come from it (src/cli/args.ts). */
export const BATCH = {
  name: 'batch',
  summary:
    'Applies a dedup profile exported by the workbench to a whole crawl: the map step reads each shard in a\n' +
    'worker thread and writes Parquet, the join step runs sql/dedup.sql on DuckDB and writes the clusters,\n' +
    'the verified pairs and a summary.',
  positionals: {
    name: 'FILE',
    help: 'shard files: WARC or any format the workbench reads (none needed for --step join)',
    min: 0,
    max: Infinity,
  },
  options: {
    profile: {
      type: 'string',
      arg: 'P.json',
      default: null,
      help: 'the dedup profile (exported by the workbench; fields left out take the defaults); without it, the workbench’s defaults',
    },
    out: {
      type: 'string',
      arg: 'DIR',
      default: null,
      required: true,
      help: 'output folder (shards, Parquet, results)',
    },
    step: {
      type: 'choice',
      choices: ['map', 'join', 'all'] as const,
      default: 'all',
      help: 'run the map step, the join step, or both',
    },
    shards: {
      type: 'string',
      arg: 'LIST.txt',
      default: null,
      help: 'more shard files, one path a line (# comments)',
    },
    workers: {
      type: 'number',
      arg: 'N',
      default: availableParallelism(),
      defaultText: 'one per core',
      min: 1,
      integer: true,
      help: 'worker threads of the map step',
    },
    against: {
      type: 'string',
      arg: 'DIR',
      default: null,
      help: 'an earlier crawl’s output folder: its pages are kept first, and the crawl’s copies of them are written to revisits.parquet',
    },
    'name-prefix': {
      type: 'string',
      arg: 'P',
      default: '',
      help: 'prefix of the shards’ names (ids come from them): name a crawl’s files apart from an earlier crawl’s of the same names',
    },
    memory: {
      type: 'string',
      arg: 'SIZE',
      default: '3GB',
      check: memorySize,
      help: "DuckDB's memory limit for the join (KB, MB, GB, TB or KiB, MiB, GiB, TiB)",
    },
  },
  epilog: 'exit status: 0 done, 1 failed or missing file, 2 bad arguments',
} satisfies CommandSpec;

function cli(argv: string[]): Cli {
  const { values, positionals } = argsOrExit(BATCH, argv);
  const files = [...positionals];
  if (values.shards)
    files.push(
      ...readTextInput(values.shards)
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#')),
    );
  if (values.step !== 'join' && files.length === 0) usageExit(BATCH, 'no shard files given');
  return { ...values, files };
}

/**
 * The finished shards of an earlier crawl's map output, checked before anything is removed: they must
 * have been mapped with the profile's signature parameters (else their band keys and shingles would not
 * compare), and no shard may share an id key with one of the crawl's.
 */
async function earlierShards(dir: string, profile: DedupProfile, shards: string[]): Promise<string[]> {
  const plan = join(dir, JOIN_PLAN);
  if (!existsSync(plan))
    throw new Error(
      `--against ${dir}: no ${JOIN_PLAN} there; give the output folder of an earlier batch run`,
    );
  let theirs: DedupProfile;
  try {
    theirs = parseProfile(
      JSON.stringify((JSON.parse(readFileSync(plan, 'utf8')) as { profile: unknown }).profile),
    );
  } catch (e) {
    throw new Error(
      `--against ${dir}: ${JOIN_PLAN} holds no usable profile (${e instanceof Error ? e.message : String(e)})`,
      { cause: e },
    );
  }
  const differ = engineDifference(theirs.engine, profile.engine);
  if (differ)
    throw new Error(
      `--against ${dir}: it was mapped with other signature parameters (${differ}); map the earlier crawl again with this profile`,
    );
  const earlier = await joinedShards(dir);
  const names = async (dirs: string[]) =>
    Promise.all(
      dirs.map(async (d) => {
        const c = await checkShard(d);
        return c.kind === 'done' ? c.stats.name : d;
      }),
    );
  const ours = await names(shards);
  const theirNames = await names(earlier);
  const both = ours.filter((n) => theirNames.includes(n));
  if (both.length)
    throw new Error(
      `--against ${dir}: shard ${both[0]} is in both crawls, so their page ids would collide; map the new crawl with --name-prefix (its shards named apart)`,
    );
  collidingKeys([...ours, ...theirNames]);
  return earlier;
}

/** The first engine field (path) whose value differs between two profiles, or null. */
function engineDifference(a: unknown, b: unknown, path = 'engine'): string | null {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = engineDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${path}.${k}`,
      );
      if (d) return d;
    }
    return null;
  }
  return JSON.stringify(a) === JSON.stringify(b)
    ? null
    : `${path}: ${JSON.stringify(a)} there, ${JSON.stringify(b)} here`;
}

/**
 * The folders of the shards to join: every finished shard in DIR, or those named. A damaged one, or a
 * named one not finished, stops the join (map it again); so do two names of one key.
 */
async function joinedShards(outDir: string, names?: readonly string[]): Promise<string[]> {
  const dirs = names ? names.map((n) => shardDir(outDir, n)) : shardDirs(outDir);
  const done: { dir: string; name: string }[] = [];
  const damaged: string[] = [];
  for (const [k, dir] of dirs.entries()) {
    const check = await checkShard(dir, names?.[k]);
    if (check.kind === 'done') done.push({ dir, name: check.stats.name });
    else if (check.kind === 'damaged')
      damaged.push(`shard ${check.name ?? dir}: its output is damaged (${check.reason})`);
    else if (names) damaged.push(`shard ${names[k]}: not mapped`);
  }
  if (damaged.length)
    throw new Error(`${damaged.join('; ')}. Run the map step again (--step map or all) to map it anew`);
  if (done.length === 0) throw new Error(`no finished shard in ${outDir}: run the map step first`);
  collidingKeys(done.map((d) => d.name));
  return done.map((d) => d.dir);
}

async function main(): Promise<number> {
  let args: Cli;
  let profile: DedupProfile;
  try {
    args = cli(process.argv.slice(2));
    profile = args.profile === null ? defaultProfile() : parseProfile(readTextInput(args.profile));
    // Shards are read by path in worker threads: each is checked here, so a FIFO is never opened there.
    if (args.step !== 'join') for (const f of args.files) checkRegularFile(f);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    console.error(`error: ${e.message}`);
    return 1;
  }
  batchMethod(profile);
  batchClustering(profile);
  const outDir = resolve(args.out);
  let names: string[] | undefined;
  if (args.step !== 'join') {
    const map = await runMap({
      profile,
      outDir,
      workers: args.workers,
      shards: args.files.map((f) => ({
        name: `${args['name-prefix']}${basename(f)}`,
        source: { kind: 'file', path: resolve(f) },
      })),
    });
    const pages = map.shards.reduce((s, x) => s + x.pages, 0);
    process.stderr.write(
      `map: done, ${map.shards.length} shards, ${pages.toLocaleString('en-US')} pages, ${(map.elapsedMs / 1000).toFixed(1)} s\n`,
    );
    names = map.shards.map((s) => s.name);
  }
  if (args.step === 'map') return 0;
  // --step all joins this run's files; --step join every shard mapped into DIR, by any run.
  const r = await runJoin({
    profile,
    outDir,
    shards: names,
    memory: args.memory,
    ...(args.against ? { against: resolve(args.against) } : {}),
  });
  const all = r.summary.find((s) => s.host === null);
  console.log(
    `pages ${all?.pages ?? 0}, clusters ${all?.clusters ?? 0}, duplicates removed ${all?.duplicates_removed ?? 0} (${r.iterations} ${r.clustering === 'star' ? 'star rounds' : 'label iterations'}, ${(r.elapsedMs / 1000).toFixed(1)} s); results in ${outDir}`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}
