import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINE_DEFAULTS } from '../../../src/core/candidates/engine-params';
import { DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import { DuckDBInstance } from '@duckdb/node-api';
import type { AsyncBuffer } from 'hyparquet';
import { batchPrecision, pickResult, readBatchResult, sampleIndices } from '../../../src/core/batch/result';
import { buildProfile } from '../../../src/core/profile';
import { runJoin } from '../../../src/cli/batch-join';
import { mapShard } from '../../../src/cli/batch-worker';

const SAMPLE = fileURLToPath(new URL('../../../sample/sample.warc.gz', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'batch-result-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const buffer = (path: string) => {
  const b = readFileSync(path);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};

describe('batch result reader', () => {
  it('draws k distinct indices uniformly, reproducibly', () => {
    const s = sampleIndices(1000, 50, 3);
    expect(new Set(s).size).toBe(50);
    expect(s).toEqual(sampleIndices(1000, 50, 3));
    expect(sampleIndices(5, 50, 3)).toEqual([0, 1, 2, 3, 4]);
    // Each index about equally often over many draws (mean inclusion k/n = 0.1).
    const hits = new Array<number>(100).fill(0);
    for (let seed = 0; seed < 2000; seed++) for (const i of sampleIndices(100, 10, seed)) hits[i]++;
    expect(Math.min(...hits)).toBeGreaterThan(140);
    expect(Math.max(...hits)).toBeLessThan(270);
  });

  it('reads the join output: histogram, sampled clusters, pairs and summary agree', async () => {
    const profile = buildProfile({
      dataset: 'sample',
      pages: 0,
      method: 'minhash',
      thresholds: DEFAULT_THRESHOLDS,
      clustering: 'components',
      engine: ENGINE_DEFAULTS,
      dust: null,
    });
    await mapShard({
      index: 0,
      name: 'sample',
      source: { kind: 'file', path: SAMPLE },
      outDir: out,
      profile,
    });
    const j = await runJoin({ profile, outDir: out, log: () => {} });
    const v = await readBatchResult({
      'clusters.parquet': buffer(join(out, 'clusters.parquet')),
      'pairs.parquet': buffer(join(out, 'pairs.parquet')),
      'summary.parquet': buffer(join(out, 'summary.parquet')),
    });
    const all = v.summary.find((r) => r.host === null)!;
    expect(v.clusters).toBe(all.clusters);
    expect(v.histogram.reduce((s, h) => s + h.count, 0)).toBe(v.clusters);
    expect(v.pairs).toBe(j.edges);
    expect(v.sampledClusters).toHaveLength(20);
    for (const c of v.sampledClusters) expect(c.urls.length).toBe(Math.min(c.size, 20));
    expect(v.sampledPairs).toHaveLength(Math.min(100, j.edges));
    expect(v.pi).toBeCloseTo(v.sampledPairs.length / j.edges);
    for (const p of v.sampledPairs) expect(p.similarity).toBeGreaterThanOrEqual(0.8);
    // 3 of 4 sure labels are duplicates; unsure ones are left out.
    const e = batchPrecision(['dup', 'dup', 'not', 'dup', 'unsure', undefined], v.pi);
    expect(e.value).toBeCloseTo(0.75);
    expect(e.lo).toBeLessThan(0.75);
    expect(e.hi).toBeGreaterThan(0.75);
  }, 60_000);

  it('picks the result folder among the files of a folder: DuckDB files or Spark parts, the shallowest', () => {
    const paths = [
      'out/join.json',
      'out/shards/a.warc.gz-0001/pages.parquet',
      'out/clusters.parquet',
      'out/pairs.parquet',
      'out/summary.parquet',
      'out/remove.parquet',
      'out/spark/clusters.parquet/_SUCCESS',
      'out/spark/clusters.parquet/part-00000-x.snappy.parquet',
      'out/spark/clusters.parquet/part-00001-x.snappy.parquet',
      'out/spark/pairs.parquet/part-00000-y.snappy.parquet',
    ];
    const all = pickResult(paths.map((path) => ({ path })));
    expect(all.folder).toBe('out');
    expect(all.tables).toEqual({ 'clusters.parquet': [2], 'pairs.parquet': [3], 'summary.parquet': [4] });
    const spark = pickResult(paths.slice(6).map((path) => ({ path: path.replace('out/', '') })));
    expect(spark.folder).toBe('spark');
    expect(spark.tables).toEqual({ 'clusters.parquet': [1, 2], 'pairs.parquet': [3] });
    // Files picked one by one have no folder.
    expect(pickResult([{ path: 'clusters.parquet' }]).tables).toEqual({ 'clusters.parquet': [0] });
    expect(pickResult([{ path: 'out/shards/x/pages.parquet' }]).tables).toEqual({});
  });

  it('reads tables in parts and row groups as one table', async () => {
    // The join output above, rewritten in 3 parts of row groups of 40 rows (as Spark may write it).
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const parts = (table: string) => [0, 1, 2].map((k) => join(out, `${table}-part-${k}.parquet`));
    for (const [table, key] of [
      ['clusters', 'page'],
      ['pairs', 'a'],
    ] as const)
      for (const [k, path] of parts(table).entries())
        await con.run(
          `COPY (SELECT * FROM read_parquet('${join(out, `${table}.parquet`)}') WHERE ${key} % 3 = ${k} ORDER BY ${key}) TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 40)`,
        );
    const members = (
      await con.runAndReadAll(
        `SELECT cluster, page, url FROM read_parquet('${join(out, 'clusters.parquet')}') ORDER BY page`,
      )
    ).getRowObjectsJS();
    con.closeSync();
    db.closeSync();
    const whole = await readBatchResult({
      'clusters.parquet': buffer(join(out, 'clusters.parquet')),
      'pairs.parquet': buffer(join(out, 'pairs.parquet')),
    });
    const v = await readBatchResult(
      {
        'clusters.parquet': parts('clusters').map((f) => buffer(f)),
        'pairs.parquet': parts('pairs').map((f) => buffer(f)),
      },
      { clusters: 3 },
    );
    expect(v.histogram).toEqual(whole.histogram);
    expect(v.clusters).toBe(whole.clusters);
    expect(v.pairs).toBe(whole.pairs);
    for (const c of v.sampledClusters)
      expect(c.urls).toEqual(
        members
          .filter((m) => String(m.cluster) === c.cluster)
          .slice(0, 20)
          .map((m) => String(m.url)),
      );
  });

  it('reads only the row groups that hold a sampled cluster or pair (footers aside)', async () => {
    // 200,000 pages in clusters of 2 and as many pairs, long URLs, row groups of 10,000 rows.
    const big = (t: string) => join(out, `big-${t}.parquet`);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const url = (x: string) =>
      `'https://example.test/' || md5(CAST(${x} AS VARCHAR)) || '/' || md5(CAST(${x} + 1 AS VARCHAR))`;
    await con.run(
      `COPY (SELECT CAST(i // 2 AS BIGINT) AS cluster, CAST(i AS BIGINT) AS page, ${url('i')} AS url, CAST(2 AS BIGINT) AS cluster_size FROM range(200000) t(i)) TO '${big('clusters')}' (FORMAT parquet, ROW_GROUP_SIZE 10000)`,
    );
    await con.run(
      `COPY (SELECT CAST(i AS BIGINT) AS a, CAST(i + 1 AS BIGINT) AS b, CAST(0.9 AS DOUBLE) AS similarity, ${url('i')} AS url_a, ${url('i + 7')} AS url_b FROM range(200000) t(i)) TO '${big('pairs')}' (FORMAT parquet, ROW_GROUP_SIZE 10000)`,
    );
    con.closeSync();
    db.closeSync();
    const reads = new Map<string, number>();
    const counted = (path: string): AsyncBuffer => {
      const b = buffer(path);
      return {
        byteLength: b.byteLength,
        slice: (start, end) => {
          reads.set(path, (reads.get(path) ?? 0) + (end ?? b.byteLength) - start);
          return b.slice(start, end);
        },
      };
    };
    const v = await readBatchResult(
      { 'clusters.parquet': counted(big('clusters')), 'pairs.parquet': counted(big('pairs')) },
      { clusters: 3, pairs: 3 },
    );
    expect(v.clusters).toBe(100_000);
    expect(v.pairs).toBe(200_000);
    expect(v.sampledPairs).toHaveLength(3);
    for (const c of v.sampledClusters) expect(c.urls).toHaveLength(2);
    // Pairs: the footer (hyparquet reads the last 512 KiB), at most 3 of 20 row groups for the sample, and
    // for the review queue of the least similar pairs the similarity column and the rows it picks (here
    // all alike: the first 50, in one more group), never the URLs of every group.
    const pairsSize = readFileSync(big('pairs')).length;
    expect(reads.get(big('pairs'))!).toBeLessThan(512 * 1024 + (pairsSize * 5) / 20 + 64 * 1024);
    expect(v.weakestAccepted).toHaveLength(50);
    // Clusters: two columns of every row (the histogram), URLs of at most 3 row groups.
    const clustersSize = readFileSync(big('clusters')).length;
    expect(reads.get(big('clusters'))!).toBeLessThan(clustersSize * 0.6 + 512 * 1024);
  }, 60_000);

  it('says which file is missing', async () => {
    await expect(readBatchResult({})).rejects.toThrow(/clusters\.parquet is missing/);
  });
});
