/**
 * Batch = workbench: the sample crawl through the map step (Parquet) and the SQL join on DuckDB gives
 * the same clusters as the in-browser engine at the same profile (connected components and star
 * clusters, the workbench's default, with the shards mapped in either order), for exact fingerprints,
 * MinHash and SimHash; and the LSH candidates the SQL finds from band keys are the engine's.
 * The sample is read as two shards (the file twice), so pages of different shards meet in the join;
 * template text is left out (the default) by the engine's model over both copies and by the batch's
 * model per shard, which count the same distinct texts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../scripts/lib/batch-results';
import { ENGINE_DEFAULTS } from '../../../src/core/candidates/engine-params';
import type { EngineResult } from '../../../src/core/candidates/engine-result';
import { acceptMask, DEFAULT_THRESHOLDS, type MethodId } from '../../../src/core/candidates/methods';
import { SOURCE } from '../../../src/core/candidates/pairs';
import { buildProfile, parseProfile } from '../../../src/core/profile';
import { runJoin } from '../../../src/cli/batch-join';
import { mapShard } from '../../../src/cli/batch-worker';
import { workbenchClusters, workbenchComponents, workbenchRun } from '../../bench/batch-engine';
import { clusterView } from '../../../src/core/clusters/view';

const SAMPLE = fileURLToPath(new URL('../../../sample/sample.warc.gz', import.meta.url));
const SHARDS = 2;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const workbench = () =>
  workbenchRun(
    Array.from({ length: SHARDS }, () => SAMPLE),
    Array.from({ length: SHARDS }, (_, s) => `sample-${s}`),
  );

async function batch(
  method: MethodId,
  clustering: 'components' | 'star' | 'guarded' = 'components',
  order: 'forward' | 'reverse' = 'forward',
  captures: 'each' | 'url' = 'each',
): Promise<{ out: string; candidates: number; edges: number }> {
  const profile = parseProfile(
    JSON.stringify(
      buildProfile({
        dataset: 'sample',
        pages: 0,
        method,
        thresholds: DEFAULT_THRESHOLDS,
        clustering,
        // Each copy compared, as workbenchRun compares them (the file is read twice).
        engine: { ...ENGINE_DEFAULTS, captures },
        dust: null,
      }),
    ),
  );
  const outDir = mkdtempSync(join(tmpdir(), 'batch-eq-'));
  dirs.push(outDir);
  // The shards mapped in the other order: ids come from the shards' names, not their order.
  const shards = Array.from({ length: SHARDS }, (_, s) => s);
  if (order === 'reverse') shards.reverse();
  for (const s of shards)
    await mapShard({
      index: s,
      name: `sample-${s}`,
      source: { kind: 'file', path: SAMPLE },
      outDir,
      profile,
    });
  const j = await runJoin({ profile, outDir, log: () => {} });
  return { out: outDir, candidates: j.candidates, edges: j.edges };
}

const query = queryRows;

/** The clusters of a join's clusters.parquet, as lists of page ids. */
async function batchClusters(out: string): Promise<bigint[][]> {
  const rows = await query(`SELECT cluster, page FROM read_parquet('${join(out, 'clusters.parquet')}')`);
  const byCluster = new Map<string, bigint[]>();
  for (const row of rows) {
    const k = String(row.cluster);
    const list = byCluster.get(k) ?? [];
    list.push(BigInt(row.page as bigint));
    byCluster.set(k, list);
  }
  return [...byCluster.values()];
}

const canon = (clusters: bigint[][]) => clusters.map((c) => c.map(String).sort().join(' ')).sort();

describe('batch map + SQL join equals the workbench engine', () => {
  let wb: Promise<{ r: EngineResult; ids: bigint[] }> | null = null;
  const engineRun = () => (wb ??= workbench());

  for (const method of ['exact', 'minhash', 'simhash'] as const) {
    it(`${method}: same connected components`, async () => {
      const { r, ids } = await engineRun();
      const expected = workbenchComponents({ r, ids }, method);
      expect(expected.length).toBeGreaterThan(50);
      const { out, candidates, edges } = await batch(method);
      expect(canon(await batchClusters(out))).toEqual(canon(expected));
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
        summary: { host: string | null; pages: number; clusters: number; duplicates_removed: number }[];
      };
      const all = summary.summary.find((s) => s.host === null)!;
      expect(all.pages).toBe(r.n);
      expect(all.clusters).toBe(expected.length);
      expect(all.duplicates_removed).toBe(expected.reduce((s, c) => s + c.length - 1, 0));

      if (method === 'simhash') {
        // The blocks' equi-join, verified by Hamming distance, gives exactly the engine's SimHash pairs
        // (its block method keeps the pairs within maxHamming, the profile's threshold here).
        let sim = 0;
        for (let k = 0; k < r.pairs.count; k++) if (r.pairs.sources[k] & SOURCE.simhash) sim++;
        expect(candidates).toBeGreaterThanOrEqual(sim);
        expect(edges).toBe(sim);
        expect(edges).toBe(acceptMask(r.pairs, 'simhash', DEFAULT_THRESHOLDS).accepted);
      }
      if (method === 'minhash') {
        // The band keys' equi-join proposes exactly the engine's LSH candidates…
        const lsh = new Set<string>();
        for (let k = 0; k < r.pairs.count; k++)
          if (r.pairs.sources[k] & SOURCE.lsh) lsh.add(`${ids[r.pairs.a[k]]}-${ids[r.pairs.b[k]]}`);
        expect(candidates).toBe(lsh.size);
        const pairs = await query(
          `SELECT a, b, similarity FROM read_parquet('${join(out, 'pairs.parquet')}')`,
        );
        // …and verifies them to the engine's exact Jaccard (float32 in the engine).
        const jaccardOf = new Map<string, number>();
        for (let k = 0; k < r.pairs.count; k++)
          jaccardOf.set(`${ids[r.pairs.a[k]]}-${ids[r.pairs.b[k]]}`, r.pairs.jaccard[k]);
        expect(pairs.length).toBe(acceptMask(r.pairs, 'minhash', DEFAULT_THRESHOLDS).accepted);
        for (const p of pairs) {
          const key = `${String(p.a)}-${String(p.b)}`;
          expect(lsh.has(key)).toBe(true);
          expect(Math.fround(p.similarity as number)).toBe(jaccardOf.get(key));
        }
      }
    }, 120_000);
  }

  const modes = [
    ['exact', 'star'],
    ['minhash', 'star'],
    ['simhash', 'star'],
    ['exact', 'guarded'],
    ['minhash', 'guarded'],
  ] as const;
  for (const [method, mode] of modes) {
    it(`${method}: the same ${mode} clusters, whichever order the shards are mapped in`, async () => {
      const run = await engineRun();
      const expected = workbenchClusters(run, method, mode);
      // (On the sample, read twice, stars and components happen to agree; star.test.ts draws graphs
      // on which they do not.)
      for (const order of ['forward', 'reverse'] as const) {
        const { out } = await batch(method, mode, order);
        expect(canon(await batchClusters(out)), `${method}, shards mapped ${order}`).toEqual(canon(expected));
        const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
          clustering: string;
          summary: { host: string | null; clusters: number; duplicates_removed: number }[];
        };
        expect(summary.clustering).toBe(mode);
        const all = summary.summary.find((s) => s.host === null)!;
        expect(all.clusters).toBe(expected.length);
        expect(all.duplicates_removed).toBe(expected.reduce((s, c) => s + c.length - 1, 0));
      }
    }, 180_000);
  }

  it('folds captures of one URL into its earliest, as the workbench does by default, and counts them', async () => {
    // The file read twice: every URL captured twice at one time; the first read (the smaller id) stands.
    const run = await workbenchRun(
      Array.from({ length: SHARDS }, () => SAMPLE),
      Array.from({ length: SHARDS }, (_, s) => `sample-${s}`),
      { captures: 'url' },
    );
    const standing = run.ids.filter((_, i) => !run.folded.has(i));
    const expected = clusterView(run.r, 'minhash', DEFAULT_THRESHOLDS, 'star').clusters.map((c) =>
      c.members.map((i) => standing[i]),
    );
    expect(expected.length).toBeGreaterThan(10);
    const { out } = await batch('minhash', 'star', 'forward', 'url');
    expect(canon(await batchClusters(out))).toEqual(canon(expected));
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      summary: { host: string | null; captures_folded: number }[];
    };
    expect(summary.summary.find((s) => s.host === null)!.captures_folded).toBe(run.folded.size);
    expect(run.folded.size).toBe(run.ids.length / 2);
  }, 180_000);

  it('refuses SimHash with the chain guard, naming why, rather than apply another clustering', async () => {
    await expect(batch('simhash', 'guarded')).rejects.toThrow(/chain guard .* SimHash/);
  });
});
