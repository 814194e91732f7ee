/**
 * The batch's join step: sql/dedup.sql on embedded DuckDB over the map step's Parquet, its results
 * written to DIR as Parquet and JSON (the same SQL runs on Spark: README, "Beyond one machine").
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { clusterEdges, regroupDuckDB } from './batch-cluster';
import { applyOverridesDuckDB } from './batch-overrides';
import { CHAIN_FLOOR } from '../core/clusters/view';
import { bandsOf } from '../core/batch/keys';
import { parseNamedSql, substitute } from '../core/batch/sql';
import type { DedupProfile } from '../core/profile';
import { METHOD_LABELS } from '../core/candidates/methods';
import { batchClustering, batchMethod, joinVars } from './batch-profile';
import { earlierShards, joinedShards } from './batch-join-shards';
import { mapKey } from './batch-shards';
import {
  removeResults,
  RESULT_FILES,
  RESULT_TABLES,
  REVISITS,
  STAGE,
  type JoinResult,
  type RevisitKind,
} from './batch-results';

export const SQL_FILE = fileURLToPath(new URL('../../sql/dedup.sql', import.meta.url));

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

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The statements after the label propagation, in order (spark/dedup_join.py runs the same). */
const JOIN_TABLES = ['kept', 'lost', 'gone', 'clusters', 'remove', 'pairs', 'summary'] as const;

/**
 * The join step: sql/dedup.sql on embedded DuckDB, results written to DIR as Parquet and JSON. The
 * results in DIR are current or absent: an earlier run's are removed when the join begins (a join that
 * fails or is killed would otherwise leave results of other shards or another profile looking current),
 * the join writes into DIR/.join-tmp, and its files are renamed into DIR only when it has succeeded,
 * summary.json last.
 */
export async function runJoin(o: JoinOptions): Promise<JoinResult> {
  // Which shards, before anything is removed: a damaged or missing one stops here, results untouched.
  const shards = await joinedShards(o.outDir, o.shards, mapKey(o.profile));
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
    await run('stands');
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
      await run('anchors');
      await run('candidates');
      await release('members', 'anchors');
      candidates = await count('SELECT COUNT(*) FROM candidates');
      await run('verify.minhash');
      await release('candidates');
      for (const t of ['sets.minhash', 'scored.minhash']) await run(t);
      await release('verify', 'sets');
    } else if (method === 'simhash') {
      await run('anchors');
      await run('candidates');
      candidates = await count('SELECT COUNT(*) FROM candidates');
    }
    await run(`edges.${method}`);
    const edges = await count('SELECT COUNT(*) FROM edges');
    await run(`rejected.${method}`);
    const rejected = await count('SELECT COUNT(*) FROM rejected');
    if (method === 'exact') candidates = edges;
    log(
      `join: ${candidates.toLocaleString('en-US')} candidate pairs, ${edges.toLocaleString('en-US')} verified (${METHOD_LABELS[method]}), ${rejected.toLocaleString('en-US')} rejected`,
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
    // The analyst's decisions, as the workbench honours them (core/clusters/overrides.ts).
    const decided = await applyOverridesDuckDB(con, o.profile, clustering === 'star', run, sql);
    if (decided)
      log(
        `join: decisions: ${decided.placed} placed (${decided.unplaced} name pages not in this crawl), ${decided.groups} clusters regrouped, ${decided.conflicts} same-page decisions refused by a cannot-link`,
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
      captures_folded: Number(r.captures_folded),
      loses_text: Number(r.loses_text),
    }));
    const result: JoinResult = {
      method,
      candidates,
      edges,
      rejected,
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
