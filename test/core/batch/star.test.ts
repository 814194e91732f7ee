/**
 * Star clusters in SQL (sql/dedup.sql `star.*`, run by the join's own loop, clusterEdges) against the
 * workbench's greedy pass (starsOf) on random graphs drawn from a seed: chains of drifting versions,
 * cliques, stars, hubs and sparse random edges, with page ids sparse and out of order (as the batch's
 * shard-keyed ids are). The engine breaks ties of degree by page index, the SQL by page id: the engine
 * is given the pages numbered in id order. Components are checked the same way, and components with a
 * chain guard (components in SQL, each split by the driver's guardedGroups) against guardedOf over the
 * whole graph, with similarities drawn from a few values so that ties are common.
 */
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { SQL_FILE } from '../../../src/cli/batch-join';
import { clusterEdges, regroupDuckDB } from '../../../src/cli/batch-cluster';
import { sortedBy } from '../../../src/core/candidates/methods';
import { acceptedList, componentsOf, guardedOf, starsOf } from '../../../src/core/clusters/clusters';
import { findPair } from '../../../src/core/candidates/pair-index';
import { CHAIN_FLOOR } from '../../../src/core/clusters/view';
import { parseNamedSql, substitute } from '../../../src/core/batch/sql';
import { seededRandom, type Rng } from '../../../src/core/random';

const SEED = Number(process.env.STAR_SEED ?? 20261127);
const TRIALS = 40;

interface Graph {
  n: number;
  ids: bigint[];
  a: number[];
  b: number[];
}

/** A random graph of several shapes at once; each pair at most once, a < b by index. */
function drawGraph(rng: Rng): Graph {
  const n = 20 + Math.floor(rng() * 180);
  const seen = new Set<number>();
  const a: number[] = [];
  const b: number[] = [];
  const edge = (x: number, y: number) => {
    if (x === y) return;
    const [p, q] = x < y ? [x, y] : [y, x];
    if (seen.has(p * n + q)) return;
    seen.add(p * n + q);
    a.push(p);
    b.push(q);
  };
  const page = () => Math.floor(rng() * n);
  const shapes = 1 + Math.floor(rng() * 6);
  for (let s = 0; s < shapes; s++) {
    const size = 2 + Math.floor(rng() * 25);
    const nodes = Array.from({ length: size }, page);
    const kind = Math.floor(rng() * 4);
    if (kind === 0) for (let i = 1; i < size; i++) edge(nodes[i - 1], nodes[i]); // a drifting chain
    if (kind === 1)
      for (let i = 0; i < size; i++) for (let j = i + 1; j < size; j++) edge(nodes[i], nodes[j]);
    if (kind === 2) for (let i = 1; i < size; i++) edge(nodes[0], nodes[i]); // a hub
    // a chain with shortcuts: near-duplicates of near-duplicates
    if (kind === 3)
      for (let i = 1; i < size; i++) {
        edge(nodes[i - 1], nodes[i]);
        if (i > 1 && rng() < 0.5) edge(nodes[i - 2], nodes[i]);
      }
  }
  const sparse = Math.floor(rng() * n);
  for (let e = 0; e < sparse; e++) edge(page(), page());
  // Ids as the batch's: a shard key in the high bits, a record number in the low ones, in no order
  // related to the index; distinct.
  const ids = new Set<bigint>();
  while (ids.size < n)
    ids.add((BigInt(1 + Math.floor(rng() * 1000)) << 24n) | BigInt(Math.floor(rng() * 5000)));
  return { n, ids: [...ids], a, b };
}

/** The engine's clustering of `g`, pages numbered in id order, as sorted lists of ids. */
function engine(g: Graph, mode: 'star' | 'components'): string[] {
  const byId = Array.from({ length: g.n }, (_, i) => i).sort((x, y) => (g.ids[x] < g.ids[y] ? -1 : 1));
  const rank = new Int32Array(g.n);
  byId.forEach((p, k) => (rank[p] = k));
  const a = g.a.map((x) => rank[x]);
  const b = g.b.map((x) => rank[x]);
  const edges = Uint32Array.from(a.keys());
  const clusters = mode === 'star' ? starsOf(g.n, a, b, edges) : componentsOf(g.n, a, b, edges);
  return canon(clusters.map((c) => c.members.map((k) => g.ids[byId[k]])));
}

const canon = (clusters: bigint[][]) => clusters.map((c) => c.map(String).sort().join(' ')).sort();

/**
 * The engine's chain guard over `g` with similarities `sim` (pair k of g): accepted pairs at ≥ t taken
 * by similarity descending, ties by pair order; every pair (any similarity) a lookup of the guard.
 */
function engineGuarded(g: Graph, sim: number[], t: number): string[] {
  const byId = Array.from({ length: g.n }, (_, i) => i).sort((x, y) => (g.ids[x] < g.ids[y] ? -1 : 1));
  const rank = new Int32Array(g.n);
  byId.forEach((p, k) => (rank[p] = k));
  const rows = g.a
    .map((x, k) => {
      const [p, q] = [rank[x], rank[g.b[k]]];
      return { a: Math.min(p, q), b: Math.max(p, q), s: Math.fround(sim[k]) };
    })
    .sort((x, y) => x.a - y.a || x.b - y.b);
  const table = {
    count: rows.length,
    a: Uint32Array.from(rows, (r) => r.a),
    b: Uint32Array.from(rows, (r) => r.b),
  };
  const similarity = Float32Array.from(rows, (r) => r.s);
  const ordered = sortedBy(
    similarity,
    acceptedList(rows.length, (k) => similarity[k] >= Math.fround(t)),
    true,
  );
  const clusters = guardedOf(g.n, table.a, table.b, ordered, similarity, CHAIN_FLOOR, (i, j) =>
    findPair(table, i, j),
  );
  return canon(clusters.map((c) => c.members.map((k) => g.ids[byId[k]])));
}

describe('star clusters and components in SQL equal the workbench engine', () => {
  it(`on ${TRIALS} random graphs (seed ${SEED}; STAR_SEED=… to replay)`, async () => {
    const statements = parseNamedSql(readFileSync(SQL_FILE, 'utf8'));
    const sql = (name: string) =>
      substitute(statements.get(name)!, { jaccard: 0.8, guard_floor: CHAIN_FLOOR });
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const rng = seededRandom(SEED);
    let differ = 0;
    let guardDiffers = 0;
    try {
      for (let trial = 0; trial < TRIALS; trial++) {
        const g = drawGraph(rng);
        const expected = { star: engine(g, 'star'), components: engine(g, 'components') };
        if (expected.star.join('|') !== expected.components.join('|')) differ++;
        // Similarities from a few values (ties), some under the guard's floor, some under the threshold.
        const sim = g.a.map(
          () => [0.3, 0.45, 0.5, 0.55, 0.7, 0.8, 0.85, 0.9, 0.9, 0.95, 1][Math.floor(rng() * 11)],
        );
        const t = 0.8;
        const guarded = engineGuarded(g, sim, t);
        if (guarded.join('|') !== expected.components.join('|')) guardDiffers++;
        for (const mode of ['star', 'components', 'guarded'] as const) {
          for (const t of [
            'scored',
            'guard',
            'guard_pairs',
            'guard_kept',
            'edges',
            'labels',
            'labels_next',
            'star',
            'star_next',
            'star_rank',
            'star_before',
            'star_members',
          ])
            await con.run(`DROP TABLE IF EXISTS ${t}`);
          await con.run('CREATE TABLE scored (a BIGINT, b BIGINT, similarity DOUBLE)');
          // Pairs in both orientations and any order; every pair accepted but for the chain guard.
          const rows = g.a.map((x, k) => {
            const [p, q] = rng() < 0.5 ? [g.ids[x], g.ids[g.b[k]]] : [g.ids[g.b[k]], g.ids[x]];
            return `(${p}, ${q}, ${mode === 'guarded' ? sim[k] : 1})`;
          });
          if (rows.length > 0) await con.run(`INSERT INTO scored VALUES ${rows.join(', ')}`);
          await con.run(
            `CREATE TABLE edges AS SELECT * FROM scored WHERE CAST(similarity AS FLOAT) >= CAST(${t} AS FLOAT)`,
          );
          await clusterEdges(
            mode,
            'minhash',
            {
              run: (name) => con.run(sql(name)),
              count: async (name) => Number((await con.runAndReadAll(sql(name))).getRows()[0][0]),
              swap: async (t) => {
                await con.run(`DROP TABLE ${t}`);
                await con.run(`ALTER TABLE ${t}_next RENAME TO ${t}`);
              },
              regroup: () => regroupDuckDB(con, CHAIN_FLOOR),
            },
            () => {},
          );
          const got = new Map<string, bigint[]>();
          for (const [page, label] of (await con.runAndReadAll('SELECT page, label FROM labels')).getRows()) {
            const list = got.get(String(label)) ?? [];
            list.push(page as bigint);
            got.set(String(label), list);
          }
          const want = mode === 'guarded' ? guarded : expected[mode];
          expect(canon([...got.values()]), `seed ${SEED} trial ${trial} (${mode})`).toEqual(want);
        }
      }
    } finally {
      con.closeSync();
      db.closeSync();
    }
    // The graphs drawn tell stars from components (else the test would say little).
    expect(differ, `seed ${SEED}`).toBeGreaterThan(TRIALS / 2);
    expect(guardDiffers, `seed ${SEED}`).toBeGreaterThan(TRIALS / 2);
  }, 120_000);
});
