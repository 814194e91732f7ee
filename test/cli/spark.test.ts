/**
 * The join on a real Apache Spark: spark/dedup_join.py under spark-submit in local mode (a pinned
 * PySpark installed once into a cached virtual environment, scripts/lib/spark-env.ts) over the map
 * step's Parquet of the sample in two shards, against the DuckDB join of the same folder: the same
 * clusters, pairs and summary, row for row, with star clusters (the default) and with components.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runJoin } from '../../src/cli/batch-join';
import { runMap } from '../../src/cli/batch-map';
import { joinVars } from '../../src/cli/batch-profile';
import { RESULT_FILES, REVISITS } from '../../src/cli/batch-results';
import { pickResult, readBatchResult, type ResultFile } from '../../src/core/batch/result';
import { guardedGroups, type GuardPair } from '../../src/core/batch/guarded';
import { defaultProfile, parseProfile } from '../../src/core/profile';
import { seededRandom } from '../../src/core/random';

const bufferOf = (path: string) => {
  const b = readFileSync(path);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};
import {
  compareEngines,
  ensureSparkEnv,
  runSparkJoin,
  sparkPrerequisites,
} from '../../scripts/lib/spark-env';

const SAMPLE = fileURLToPath(new URL('../../sample/sample.warc.gz', import.meta.url));
const DRIVER = fileURLToPath(new URL('../../spark/dedup_join.py', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the join on Spark (spark/dedup_join.py)', () => {
  it('gives the DuckDB join’s clusters, pairs and summary on the sample in two shards', async () => {
    const missing = sparkPrerequisites();
    if (missing) throw new Error(`cannot run Spark here: ${missing} (.ci/run installs it)`);
    const spark = ensureSparkEnv((l) => process.stderr.write(l + '\n'));
    const out = mkdtempSync(join(tmpdir(), 'batch-spark-'));
    dirs.push(out);
    const profile = defaultProfile();
    await runMap({
      profile,
      outDir: out,
      workers: 1,
      shards: [0, 1].map((i) => ({ name: `sample-${i}`, source: { kind: 'file', path: SAMPLE } })),
      log: () => {},
    });
    // Four joins on Spark in one session (starting Spark costs ~20 s a run): each DuckDB join's results
    // are kept apart first (every join writes into DIR), then the four Spark joins run, then each pair is
    // compared.
    const keep = (name: string) => {
      const to = join(out, `duck-${name}`);
      mkdirSync(to);
      for (const f of [...RESULT_FILES, REVISITS])
        if (existsSync(join(out, f))) copyFileSync(join(out, f), join(to, f));
      return to;
    };
    const duck = await runJoin({ profile, outDir: out, log: () => {} });
    const duckDefault = keep('default');

    // SimHash on the same map output: the one SQL spelling that differs (xor() / ^) gives one answer;
    // and connected components where the default profile above has star clusters.
    expect(profile.clustering).toBe('star');
    const simhash = parseProfile(JSON.stringify({ ...profile, method: 'simhash', clustering: 'components' }));
    const plan = join(out, 'join-simhash.json');
    writeFileSync(plan, JSON.stringify({ vars: joinVars(simhash), profile: simhash }));
    const duckSim = await runJoin({ profile: simhash, outDir: out, log: () => {} });
    expect(duckSim.edges).toBeGreaterThan(100);
    const duckSimhash = keep('simhash');

    // The chain guard: components in SQL, each split on the executors by the driver's Python port.
    const guarded = parseProfile(JSON.stringify({ ...profile, clustering: 'guarded' }));
    const guardPlan = join(out, 'join-guarded.json');
    writeFileSync(guardPlan, JSON.stringify({ vars: joinVars(guarded), profile: guarded }));
    await runJoin({ profile: guarded, outDir: out, log: () => {} });
    const duckGuarded = keep('guarded');

    // Against an earlier crawl (the sample mapped once more, under another name): the same revisits.
    const earlier = mkdtempSync(join(tmpdir(), 'batch-spark-earlier-'));
    dirs.push(earlier);
    await runMap({
      profile,
      outDir: earlier,
      workers: 1,
      shards: [{ name: 'earlier-sample', source: { kind: 'file', path: SAMPLE } }],
      log: () => {},
    });
    const against = await runJoin({ profile, outDir: out, against: earlier, log: () => {} });
    expect(against.against?.revisits['identical-payload']).toBeGreaterThan(100);
    const duckAgainst = keep('against');

    const jobs = join(out, 'jobs.json');
    writeFileSync(
      jobs,
      JSON.stringify([
        ['--out', out],
        ['--out', out, '--vars', plan, '--results', join(out, 'spark-simhash')],
        ['--out', out, '--vars', guardPlan, '--results', join(out, 'spark-guarded')],
        ['--out', out, '--against', earlier, '--results', join(out, 'spark-against')],
      ]),
    );
    const run = runSparkJoin(spark, DRIVER, out, 2, ['--jobs', jobs]);
    expect(run.stdout).toMatch(/pages 944, clusters \d+, duplicates removed \d+ .* on Spark 3\.5\.9/);
    expect(run.stdout.split('\n').filter((l) => /^pages \d+, clusters /.test(l))).toHaveLength(4);
    for (const t of await compareEngines(duckDefault, join(out, 'spark'))) {
      expect(t.duckdb.length, t.table).toBeGreaterThan(2);
      expect(t.spark, t.table).toEqual(t.duckdb);
    }
    // The workbench's result view opens Spark's folders of parts as it opens DuckDB's files.
    // A folder picked in the browser lists its files (never its folders), each by its relative path.
    const listed = readdirSync(join(out, 'spark'), { recursive: true, encoding: 'utf8' })
      .map((p) => `spark/${p}`)
      .filter((p) => statSync(join(out, p)).isFile());
    const { folder, tables } = pickResult(listed.map((path) => ({ path })));
    expect(folder).toBe('spark');
    const parts = (name: ResultFile) => (tables[name] ?? []).map((k) => bufferOf(join(out, listed[k])));
    const view = await readBatchResult({
      'clusters.parquet': parts('clusters.parquet'),
      'pairs.parquet': parts('pairs.parquet'),
      'summary.parquet': parts('summary.parquet'),
    });
    expect(view.pairs).toBe(duck.edges);
    expect(view.summary.find((r) => r.host === null)?.clusters).toBe(
      duck.summary.find((r) => r.host === null)?.clusters,
    );
    const summary = JSON.parse(readFileSync(join(out, 'spark', 'summary.json'), 'utf8')) as {
      candidates: number;
      edges: number;
      summary: unknown;
      engine: string;
    };
    expect(summary.engine).toBe('spark 3.5.9');
    expect([summary.candidates, summary.edges]).toEqual([duck.candidates, duck.edges]);
    expect(summary.summary).toEqual(duck.summary);

    for (const t of await compareEngines(duckSimhash, join(out, 'spark-simhash'))) {
      expect(t.duckdb.length, t.table).toBeGreaterThan(2);
      expect(t.spark, `simhash ${t.table}`).toEqual(t.duckdb);
    }
    for (const t of await compareEngines(duckGuarded, join(out, 'spark-guarded'))) {
      expect(t.duckdb.length, t.table).toBeGreaterThan(2);
      expect(t.spark, `guarded ${t.table}`).toEqual(t.duckdb);
    }
    const compared = await compareEngines(duckAgainst, join(out, 'spark-against'));
    expect(compared.map((t) => t.table)).toContain('revisits');
    for (const t of compared) {
      expect(t.duckdb.length, t.table).toBeGreaterThan(2);
      expect(t.spark, `against ${t.table}`).toEqual(t.duckdb);
    }
    // The session's scratch tables are gone with it.
    expect(existsSync(join(out, 'spark', '.join-warehouse'))).toBe(false);
  }, 600_000);

  it('splits components by the chain guard in Python as guardedGroups does, on random components', () => {
    const spark = ensureSparkEnv();
    const seed = Number(process.env.GUARD_SEED ?? 20261127);
    const rng = seededRandom(seed);
    const cases = Array.from({ length: 200 }, () => {
      const n = 2 + Math.floor(rng() * 14);
      const ids = Array.from({ length: n }, () => BigInt(1 + Math.floor(rng() * 1e9)));
      const seen = new Set<string>();
      const pairs: GuardPair[] = [];
      for (let e = 0; e < n * 2; e++) {
        const [x, y] = [Math.floor(rng() * n), Math.floor(rng() * n)];
        const key = `${ids[Math.min(x, y)]} ${ids[Math.max(x, y)]}`;
        if (ids[x] === ids[y] || seen.has(key)) continue;
        seen.add(key);
        const similarity = [0.5, 0.55, 0.7, 0.8, 0.85, 0.9, 0.9, 1, 0.8000001][Math.floor(rng() * 9)];
        pairs.push({ a: ids[x], b: ids[y], similarity, accepted: similarity >= 0.8 });
      }
      return pairs;
    });
    const script = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(dirname(DRIVER))})`,
      'from dedup_join import guarded_groups',
      'cases = json.load(sys.stdin)',
      'print(json.dumps([guarded_groups([(int(a), int(b), s, ok) for a, b, s, ok in c], 0.5) for c in cases]))',
    ].join('\n');
    const input = JSON.stringify(
      cases.map((c) => c.map((p) => [String(p.a), String(p.b), p.similarity, p.accepted])),
    );
    const r = spawnSync(join(dirname(spark.sparkSubmit), 'python'), ['-c', script], {
      input,
      encoding: 'utf8',
      env: spark.env,
    });
    expect(r.status, r.stderr).toBe(0);
    const python = JSON.parse(r.stdout) as number[][][];
    let split = 0;
    cases.forEach((c, k) => {
      const expected = guardedGroups(c, 0.5).map((g) => g.map(String));
      if (expected.length !== 1 || expected[0].length !== new Set(c.flatMap((p) => [p.a, p.b])).size) split++;
      expect(
        python[k].map((g) => g.map(String)),
        `seed ${seed} case ${k} (GUARD_SEED=… to replay)`,
      ).toEqual(expected);
    });
    expect(split).toBeGreaterThan(50);
  }, 120_000);
});
