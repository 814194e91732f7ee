/**
 * `npm run bench:batch [-- --pages N] [--shards S] [--seed N] [--out DIR] [--keep] [--docsite] [--growth] [--join-runs K]`
 *
 * 1. Scale: N generated pages (default 1,000,000; test/bench/batch-pages.ts, made at run time and
 *    never committed) go straight into the map step in S shards over one worker_thread per core, then
 *    the SQL join on DuckDB (MinHash at the defaults). Printed: time per step, peak memory
 *    (process maxRSS, which includes the worker threads and DuckDB; and each worker's peak V8 heap),
 *    Parquet bytes per page, candidate and verified pairs. WARC parsing is not measured here
 *    (`npm run bench:ingest` does that). With `--growth`, N and then 3N pages (3S shards), and the
 *    join's growth between them: time, CPU, candidates and each step, with the ratios; each size's join
 *    is then run K more times (3 by default), each in a process of its own, and the medians compared.
 * 2. `--docsite`: the docsite crawl (../shared, when present) through batch and through the workbench's
 *    engine; their star clusters and connected components are compared for exact, MinHash and SimHash.
 * 3. `--worst N`: one group of N near-identical generated pages (4 words of 200 changed each), the
 *    worst case of LSH: every band's bucket holds them all. Printed: join time, CPU, peak RSS,
 *    candidate and verified pairs, buckets verified against their anchors, pages in clusters; beside a
 *    baseline join of the same map output that verifies every pair of buckets up to 2,000 pages; and
 *    the engine on the same pages (same candidates and star clusters?).
 * 4. `--spark`: after each DuckDB join, the same map output joined on Apache Spark in local mode
 *    (spark/dedup_join.py under a pinned PySpark, scripts/lib/spark-env.ts): both engines' times, and
 *    whether their clusters, pairs and summary are identical.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { analysePages } from '../../src/core/candidates/analyse-pages';
import { ENGINE_DEFAULTS } from '../../src/core/candidates/engine-params';
import { acceptMask, DEFAULT_THRESHOLDS, type MethodId } from '../../src/core/candidates/methods';
import { starClusters } from '../../src/core/clusters/clusters';
import type { ClusterMode } from '../../src/core/clusters/view';
import { pageId, shardKey } from '../../src/core/batch/keys';
import { buildProfile, type DedupProfile } from '../../src/core/profile';
import { queryRows } from '../../scripts/lib/batch-results';
import { pages as batchPages } from './batch-pages';
import { runJoin } from '../../src/cli/batch-join';
import { runMap } from '../../src/cli/batch-map';
import { shardDir } from '../../src/cli/batch-shards';
import { workbenchClusters, workbenchRun } from './batch-engine';
import { compareEngines, ensureSparkEnv, runSparkJoin, type SparkEnv } from '../../scripts/lib/spark-env';

const JOIN_ONCE = fileURLToPath(new URL('./join-once.ts', import.meta.url));
const DRIVER = fileURLToPath(new URL('../../spark/dedup_join.py', import.meta.url));
let spark: SparkEnv | null = null;

/** The Spark join of DIR beside the DuckDB one just run: times and identity, printed. */
async function sparkBeside(label: string, out: string, duckMs: number): Promise<void> {
  if (!spark) return;
  const r = runSparkJoin(spark, DRIVER, out);
  const tables = await compareEngines(out);
  const same = tables.every((t) => t.same);
  console.log(
    `${label}: join on DuckDB ${s(duckMs)}, on Spark ${spark.version} local[2] ${s(r.ms)} (${(r.ms / duckMs).toFixed(1)}× DuckDB, JVM start included) — ${
      same
        ? 'IDENTICAL clusters, pairs and summary'
        : `DIFFERENT: ${tables
            .filter((t) => !t.same)
            .map((t) => t.table)
            .join(', ')}`
    }`,
  );
  if (!same) process.exitCode = 1;
}

const GENERATOR = fileURLToPath(new URL('./batch-pages.ts', import.meta.url));
const DOCSITE = fileURLToPath(new URL('../../../shared/datasets/docsite/crawl.warc.gz', import.meta.url));

const profileFor = (method: MethodId, clustering: ClusterMode = 'components'): DedupProfile =>
  buildProfile({
    dataset: 'bench',
    pages: 0,
    method,
    thresholds: DEFAULT_THRESHOLDS,
    clustering,
    engine: ENGINE_DEFAULTS,
    dust: null,
  });

const gb = (kb: number) => `${(kb / 1048576).toFixed(2)} GB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function dirBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? dirBytes(p) : statSync(p).size;
  }
  return total;
}

/** One join-once.ts run's line (test/bench/join-once.ts). */
interface IsolatedJoin {
  elapsedMs: number;
  cpuS: number;
  maxRssKb: number;
  candidates: number;
  edges: number;
  anchored: number;
  pages: number;
  pagesInClusters: number;
  clusters: number;
  timings: Record<string, number>;
}

/** The join of `out` with `profile`, in a process of its own: its time, CPU and peak RSS alone. */
function joinIsolated(out: string, profile: DedupProfile, tag: string): IsolatedJoin {
  const file = join(out, `profile-${tag}.json`);
  writeFileSync(file, JSON.stringify(profile));
  const r = spawnSync(process.execPath, ['--import', 'tsx', JOIN_ONCE, out, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`join-once failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as IsolatedJoin;
}

interface ScaleRun {
  pages: number;
  joinMs: number;
  joinCpuS: number;
  timings: Record<string, number>;
  candidates: number;
}

async function scale(pages: number, shards: number, out: string, joinRuns = 0, seed = 7): Promise<ScaleRun> {
  const per = Math.ceil(pages / shards);
  console.log(
    `scale: ${pages.toLocaleString('en-US')} generated pages (seed ${seed}) in ${shards} shards, ${availableParallelism()} workers, out ${out}`,
  );
  const profile = profileFor('minhash', 'star');
  let lastLog = 0;
  const map = await runMap({
    profile,
    outDir: out,
    shards: Array.from({ length: shards }, (_, i) => ({
      name: `gen-${i}`,
      source: {
        kind: 'generator' as const,
        module: GENERATOR,
        args: { seed, start: i * per, count: Math.max(0, Math.min(per, pages - i * per)) },
      },
    })),
    log: (l) => {
      const now = performance.now();
      if (!l.startsWith('map: ') || l.includes('shard ') || now - lastLog > 10_000) {
        lastLog = now;
        process.stderr.write(l + '\n');
      }
    },
  });
  const mapped = map.shards.reduce((a, x) => a + x.pages, 0);
  const parquet = map.shards.reduce((a, x) => a + x.bytes, 0);
  const rssMap = process.resourceUsage().maxRSS;
  // CPU time of the whole process (main thread, workers, DuckDB's threads): the work itself, whatever
  // else the machine was running.
  const cpu = () => {
    const u = process.resourceUsage();
    return (u.userCPUTime + u.systemCPUTime) / 1e6;
  };
  const cpuMap = cpu();
  const minhash = await runJoin({ profile, outDir: out });
  const rssJoin = process.resourceUsage().maxRSS;
  const cpuJoin = cpu() - cpuMap;
  const all = minhash.summary.find((r) => r.host === null)!;
  const perPage = (b: number) => (b / mapped).toFixed(0);
  console.log(
    `map         ${s(map.elapsedMs)} for ${mapped.toLocaleString('en-US')} pages (${((mapped / map.elapsedMs) * 1000).toFixed(0)} pages/s)`,
  );
  console.log(
    `parquet     ${(parquet / 1048576).toFixed(0)} MB, ${perPage(parquet)} bytes/page (pages + bands + shingles)`,
  );
  for (const t of ['pages', 'bands', 'shingles']) {
    let b = 0;
    for (const x of map.shards) b += statSync(join(shardDir(out, x.name), `${t}.parquet`)).size;
    console.log(`            ${t.padEnd(9)} ${perPage(b)} bytes/page`);
  }
  console.log(
    `join        ${s(minhash.elapsedMs)} MinHash: ${minhash.candidates.toLocaleString('en-US')} candidate pairs, ${minhash.edges.toLocaleString('en-US')} verified, ${minhash.iterations} ${minhash.clustering === 'star' ? 'star rounds' : 'label iterations'}`,
  );
  console.log(
    `            steps ${Object.entries(minhash.timings)
      .map(([k, v]) => `${k} ${s(v)}`)
      .join(', ')}`,
  );
  console.log(
    `            ${all.pages.toLocaleString('en-US')} pages, ${all.clusters.toLocaleString('en-US')} clusters, ${all.duplicates_removed.toLocaleString('en-US')} duplicates removed`,
  );
  console.log(`total       ${s(map.elapsedMs + minhash.elapsedMs)} (map + join)`);
  console.log(
    `cpu         ${cpuMap.toFixed(0)} s map, ${cpuJoin.toFixed(0)} s join (user + system, all threads)`,
  );
  console.log(
    `memory      peak RSS ${gb(rssMap)} after map, ${gb(rssJoin)} after join (process: main + workers + DuckDB)`,
  );
  console.log(
    `            worker peak V8 heap ${map.workerHeapPeaks.map((h) => `${(h / 1048576).toFixed(0)} MB`).join(', ')}`,
  );
  console.log(`output      ${(dirBytes(out) / 1048576).toFixed(0)} MB on disk`);
  await sparkBeside(`scale ${pages.toLocaleString('en-US')} pages`, out, minhash.elapsedMs);
  if (joinRuns === 0)
    return {
      pages: mapped,
      joinMs: minhash.elapsedMs,
      joinCpuS: cpuJoin,
      timings: minhash.timings,
      candidates: minhash.candidates,
    };
  // The same join again, each in a process of its own (no map heap beside it), and the median: the
  // join is deterministic, its time is not (this machine's other load, the page cache).
  const runs = Array.from({ length: joinRuns }, (_, k) => joinIsolated(out, profile, `run-${k}`)).sort(
    (p, q) => p.elapsedMs - q.elapsedMs,
  );
  const med = runs[Math.floor(runs.length / 2)];
  console.log(
    `join alone  ${runs.length} runs, each in its own process: ${runs.map((r) => s(r.elapsedMs)).join(', ')}; median ${s(med.elapsedMs)}, ${med.cpuS.toFixed(0)} CPU-s, peak RSS ${gb(med.maxRssKb)}`,
  );
  return {
    pages: mapped,
    joinMs: med.elapsedMs,
    joinCpuS: med.cpuS,
    timings: med.timings,
    candidates: med.candidates,
  };
}

/** The join's growth from N to 3N pages, in one run: time, CPU and each step, with the ratios. */
function printGrowth(a: ScaleRun, b: ScaleRun): void {
  const x = (p: number, q: number) => `${(q / p).toFixed(2)}×`;
  const factor = b.pages / a.pages;
  console.log(
    `growth      ${a.pages.toLocaleString('en-US')} → ${b.pages.toLocaleString('en-US')} pages (${factor.toFixed(1)}×): join ${s(a.joinMs)} → ${s(b.joinMs)} = ${x(a.joinMs, b.joinMs)} (goal ≤ ${(factor * (3.5 / 3)).toFixed(2)}×), CPU ${a.joinCpuS.toFixed(0)} → ${b.joinCpuS.toFixed(0)} s = ${x(a.joinCpuS, b.joinCpuS)}, candidates ${x(a.candidates, b.candidates)}; exponent ${(Math.log(b.joinMs / a.joinMs) / Math.log(factor)).toFixed(2)}`,
  );
  const steps = Object.keys(b.timings).filter((k) => (a.timings[k] ?? 0) >= 100 || b.timings[k] >= 100);
  console.log(
    `            steps ${steps.map((k) => `${k} ${s(a.timings[k] ?? 0)} → ${s(b.timings[k])} (${x(a.timings[k] ?? 1, b.timings[k])})`).join(', ')}`,
  );
}

/**
 * One group of n near-identical pages through map + join, with large LSH buckets verified against
 * their anchors (the default), beside the baseline in the same run: every pair of a bucket of up to
 * 2,000 pages verified (the cap before anchors; larger buckets anchored even there). The engine runs
 * the same pages: the same LSH candidates and clusters.
 */
async function worst(n: number, fullBucket?: number, seed = 7): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'batch-worst-'));
  try {
    const profile = profileFor('minhash', 'star');
    const args = { seed, start: 0, count: n, group: 1 };
    const map = await runMap({
      profile,
      outDir: out,
      shards: [{ name: 'group', source: { kind: 'generator', module: GENERATOR, args } }],
      log: () => {},
    });
    // Each join in a process of its own (join-once.ts), so its peak RSS is the join's alone.
    const joinOnce = (fullBucket: number) =>
      joinIsolated(
        out,
        { ...profile, engine: { ...profile.engine, minhash: { ...profile.engine.minhash, fullBucket } } },
        String(fullBucket),
      );
    const a = joinOnce(fullBucket ?? profile.engine.minhash.fullBucket);
    const clusters = await queryRows(
      `SELECT cluster, string_agg(CAST(page AS VARCHAR), ' ' ORDER BY page) AS m FROM read_parquet('${join(out, 'clusters.parquet')}') GROUP BY cluster`,
    );
    // Spark joins the map's plan (the default setting) beside the DuckDB join of it.
    if (fullBucket === undefined) await sparkBeside(`worst case ${n}`, out, a.elapsedMs);
    const b = joinOnce(2000);
    const row = (x: typeof a, what: string) =>
      `${what}: join ${s(x.elapsedMs)} (${x.cpuS.toFixed(1)} CPU-s), peak RSS ${gb(x.maxRssKb)} (its own process); ${x.candidates.toLocaleString('en-US')} candidate pairs, ${x.edges.toLocaleString('en-US')} verified; ${x.anchored} LSH buckets anchored; ${x.pagesInClusters.toLocaleString('en-US')} of ${x.pages.toLocaleString('en-US')} pages in ${x.clusters} cluster(s)`;
    const full = fullBucket ?? profile.engine.minhash.fullBucket;
    console.log(`worst case: ${n.toLocaleString('en-US')} near-identical pages (map ${s(map.elapsedMs)})`);
    console.log(`  ${row(a, `anchored above ${full} pages${fullBucket === undefined ? ' (default)' : ''}`)}`);
    console.log(`  ${row(b, 'baseline, every pair up to 2,000 pages')}`);
    console.log(
      `  anchored / baseline: join time ${(a.elapsedMs / b.elapsedMs).toFixed(3)}×, peak RSS ${(a.maxRssKb / b.maxRssKb).toFixed(2)}×, candidates ${(a.candidates / b.candidates).toFixed(4)}×, pages in clusters ${a.pagesInClusters} vs ${b.pagesInClusters}`,
    );
    // The workbench's engine on the same pages: the same candidates and star clusters.
    const t0 = performance.now();
    const pages = [...batchPages(args)].map((p) => ({
      text: p.text,
      normUrl: p.normUrl,
      outlinks: [],
      fingerprint: p.fingerprint,
    }));
    const r = analysePages(pages, {
      ...ENGINE_DEFAULTS,
      captures: 'each',
      minhash: { ...ENGINE_DEFAULTS.minhash, fullBucket: full },
    }).result;
    const engineMs = performance.now() - t0;
    const { mask } = acceptMask(r.pairs, 'minhash', DEFAULT_THRESHOLDS);
    const stars = starClusters(r.n, r.pairs.a, r.pairs.b, (k) => mask[k] === 1).map((c) =>
      c.members.map((i) => String(pageId(shardKey('group'), i))).join(' '),
    );
    const got = new Set(clusters.map((x) => String(x.m)));
    const same =
      stars.length === got.size && stars.every((c) => got.has(c)) && r.candidates.lsh === a.candidates;
    console.log(
      `  engine (workbench) on the same pages: ${s(engineMs)}, ${r.candidates.lsh.toLocaleString('en-US')} LSH candidates, ${r.candidates.lshAnchoredBuckets} buckets anchored, ${stars.length} star clusters — ${same ? 'IDENTICAL to the batch' : 'DIFFERENT from the batch'}`,
    );
    if (!same) process.exitCode = 1;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Docsite through the engine and through batch: the same clusters? */
async function docsite(): Promise<void> {
  if (!existsSync(DOCSITE)) {
    console.log(`docsite: ${DOCSITE} not found, skipped`);
    return;
  }
  const t0 = performance.now();
  const run = await workbenchRun([DOCSITE]);
  const r = run.r;
  console.log(`docsite: engine ${r.n} pages, ${s(performance.now() - t0)}`);
  for (const method of ['exact', 'minhash', 'simhash'] as const) {
    const out = mkdtempSync(join(tmpdir(), 'batch-docsite-'));
    // One map per method (its output does not depend on the clustering), a join per clustering.
    const cpu0 = process.cpuUsage();
    const map = await runMap({
      profile: profileFor(method, 'star'),
      outDir: out,
      shards: [{ name: 'crawl.warc.gz', source: { kind: 'file', path: DOCSITE } }],
      log: () => {},
    });
    if (method === 'minhash') {
      // Real pages for the capacity plan: Parquet bytes and CPU a page (WARC reading and extraction in).
      const c = process.cpuUsage(cpu0);
      const pages = map.shards.reduce((a, x) => a + x.pages, 0);
      const sizes = ['pages', 'bands', 'shingles'].map((t) =>
        map.shards.reduce((a, x) => a + statSync(join(shardDir(out, x.name), `${t}.parquet`)).size, 0),
      );
      const warc = statSync(DOCSITE).size;
      console.log(
        `docsite map: ${pages} pages, ${((c.user + c.system) / 1000 / pages).toFixed(2)} CPU-ms a page (main + workers), ${s(map.elapsedMs)}; Parquet ${(sizes.reduce((a, b) => a + b, 0) / pages).toFixed(0)} bytes a page (pages ${(sizes[0] / pages).toFixed(0)}, bands ${(sizes[1] / pages).toFixed(0)}, shingles ${(sizes[2] / pages).toFixed(0)}) = ${((100 * sizes.reduce((a, b) => a + b, 0)) / warc).toFixed(0)}% of the compressed WARC (${(warc / pages).toFixed(0)} bytes a page); ${((pages / map.elapsedMs) * 1000).toFixed(0)} pages/s; peak RSS so far ${gb(process.resourceUsage().maxRSS)} (engine run included)`,
      );
    }
    const modes =
      method === 'simhash' ? (['star', 'components'] as const) : (['star', 'components', 'guarded'] as const);
    for (const clustering of modes) {
      const expected = workbenchClusters(run, method, clustering).map((c) => c.map(String).sort().join(' '));
      const j = await runJoin({ profile: profileFor(method, clustering), outDir: out, log: () => {} });
      const db = await DuckDBInstance.create(':memory:');
      const con = await db.connect();
      const rows = (
        await con.runAndReadAll(
          `SELECT string_agg(CAST(page AS VARCHAR), ' ' ORDER BY CAST(page AS VARCHAR)) AS m FROM read_parquet('${join(out, 'clusters.parquet')}') GROUP BY cluster`,
        )
      ).getRowObjectsJS();
      con.closeSync();
      db.closeSync();
      const got = new Set(rows.map((x) => String(x.m)));
      const same = expected.length === got.size && expected.every((c) => got.has(c));
      // Spark joins the map's plan (star clusters) beside the DuckDB join of the same profile.
      if (clustering === 'star') await sparkBeside(`docsite ${method}`, out, j.elapsedMs);
      console.log(
        `docsite ${method.padEnd(7)} ${clustering.padEnd(10)}: engine ${expected.length} clusters, batch ${got.size} clusters (${j.edges} verified pairs, ${j.iterations} ${clustering === 'star' ? 'rounds' : 'iterations'}, map ${s(map.elapsedMs)}, join ${s(j.elapsedMs)}) — ${same ? 'IDENTICAL' : 'DIFFERENT'}`,
      );
      if (!same) process.exitCode = 1;
    }
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * Docsite split in two crawls at a record boundary (its gzip members, one a record): the second half
 * joined --against the first (star clusters, the default profile), beside one join of both halves.
 * Printed: pages of each, revisits by kind, join times, and whether the clusters are the one join's.
 */
async function againstDocsite(): Promise<void> {
  if (!existsSync(DOCSITE)) return;
  const work = mkdtempSync(join(tmpdir(), 'batch-against-'));
  try {
    const profile = profileFor('minhash', 'star');
    const whole = join(work, 'whole');
    await runMap({
      profile,
      outDir: whole,
      shards: [{ name: 'crawl.warc.gz', source: { kind: 'file', path: DOCSITE } }],
      log: () => {},
    });
    const offsets = (
      await queryRows(
        `SELECT "offset" AS o FROM read_parquet('${join(whole, 'shards', '*', 'pages.parquet')}') ORDER BY "offset"`,
      )
    ).map((r) => Number(r.o));
    const cut = offsets[Math.floor(offsets.length / 2)];
    const bytes = readFileSync(DOCSITE);
    const halves = [bytes.subarray(0, cut), bytes.subarray(cut)].map((b, k) => {
      const path = join(work, `docsite-${k + 1}.warc.gz`);
      writeFileSync(path, b);
      return path;
    });
    const [a, b, both] = ['a', 'b', 'both'].map((d) => join(work, d));
    const shard = (path: string) => ({ name: basename(path), source: { kind: 'file' as const, path } });
    await runMap({ profile, outDir: a, shards: [shard(halves[0])], log: () => {} });
    await runMap({ profile, outDir: b, shards: [shard(halves[1])], log: () => {} });
    await runMap({ profile, outDir: both, shards: halves.map(shard), log: () => {} });
    const j = await runJoin({ profile, outDir: b, against: a, log: () => {} });
    const one = await runJoin({ profile, outDir: both, log: () => {} });
    const members = async (dir: string) =>
      (
        await queryRows(
          `SELECT string_agg(CAST(page AS VARCHAR), ' ' ORDER BY page) AS m FROM read_parquet('${join(dir, 'clusters.parquet')}') GROUP BY cluster ORDER BY m`,
        )
      ).map((r) => String(r.m));
    const same = JSON.stringify(await members(b)) === JSON.stringify(await members(both));
    const newPages = j.summary.find((r) => r.host === null)!.pages;
    const r = j.against!.revisits;
    const total = r['identical-payload'] + r['identical-text'] + r.near;
    console.log(
      `docsite --against: split at byte ${cut.toLocaleString('en-US')}: ${j.against!.pages.toLocaleString('en-US')} earlier pages, ${newPages.toLocaleString('en-US')} new; ${total} revisits (${r['identical-payload']} identical payload, ${r['identical-text']} identical text, ${r.near} near) = ${((100 * total) / newPages).toFixed(1)}% of the new crawl; join ${s(j.elapsedMs)} (one join of both halves ${s(one.elapsedMs)}) — clusters ${same ? 'IDENTICAL to' : 'DIFFERENT from'} the one join's`,
    );
    if (!same) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '1000000' },
      shards: { type: 'string', default: '20' },
      out: { type: 'string' },
      keep: { type: 'boolean', default: false },
      docsite: { type: 'boolean', default: false },
      'no-scale': { type: 'boolean', default: false },
      spark: { type: 'boolean', default: false },
      worst: { type: 'string' },
      'full-bucket': { type: 'string' },
      growth: { type: 'boolean', default: false },
      'join-runs': { type: 'string' },
      seed: { type: 'string', default: '7' },
    },
  });
  if (values.spark) spark = ensureSparkEnv((l) => console.log(l));
  if (values.docsite) {
    await docsite();
    await againstDocsite();
  }
  if (values.worst)
    await worst(
      Number(values.worst),
      values['full-bucket'] ? Number(values['full-bucket']) : undefined,
      Number(values.seed),
    );
  if (values['no-scale']) return;
  const sizes = [Number(values.pages), ...(values.growth ? [3 * Number(values.pages)] : [])];
  // --growth compares medians of joins run alone (3 by default); one size alone reports its one join.
  const joinRuns = Number(values['join-runs'] ?? (values.growth ? 3 : 0));
  const runs: ScaleRun[] = [];
  for (const [k, pages] of sizes.entries()) {
    const out = values.out
      ? k === 0
        ? values.out
        : `${values.out}-${pages}`
      : mkdtempSync(join(tmpdir(), 'bench-batch-'));
    try {
      runs.push(
        await scale(pages, Number(values.shards) * (pages / sizes[0]), out, joinRuns, Number(values.seed)),
      );
    } finally {
      if (!values.keep && !values.out) rmSync(out, { recursive: true, force: true });
    }
  }
  if (runs.length === 2) printGrowth(runs[0], runs[1]);
}

await main();
