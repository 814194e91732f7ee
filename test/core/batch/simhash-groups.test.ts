/**
 * Near-identical pages in linear time (issue "Nothing lost past a damaged byte…", scope 4): a group of
 * near-identical pages fills one SimHash block bucket far past the full bucket, and both the engine
 * (simhashCandidates) and the batch's SQL verify it against its anchors — the same accepted pairs and
 * the same clusters, about anchors × size pairs instead of size²/2. Random texts, seeded (printed).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analysePages } from '../../../src/core/candidates/analyse-pages';
import { ENGINE_DEFAULTS } from '../../../src/core/candidates/engine-params';
import { acceptMask, DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import { SOURCE } from '../../../src/core/candidates/pairs';
import { componentsOf } from '../../../src/core/clusters/clusters';
import { buildProfile, parseProfile } from '../../../src/core/profile';
import { seededRandom } from '../../../src/core/random';
import { runJoin } from '../../../src/cli/batch-join';
import { mapShard } from '../../../src/cli/batch-worker';
import { queryRows } from '../../../scripts/lib/batch-results';
import { htmlPagesWarc } from '../../../scripts/lib/warc-writer';

const seed = Number(process.env.SIMHASH_GROUP_SEED ?? Date.now() % 1e9);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe(`a large group of near-identical pages under SimHash (seed ${seed}, SIMHASH_GROUP_SEED=… repeats)`, () => {
  it('the engine and the batch accept the same pairs, anchored, and give the same clusters', async () => {
    const rng = seededRandom(seed);
    const word = () => `w${Math.floor(rng() * 5000)}`;
    const base = Array.from({ length: 400 }, word);
    const group = 250 + Math.floor(rng() * 100);
    const texts: { url: string; title: string; text: string }[] = [];
    for (let k = 0; k < group; k++) {
      const w = [...base];
      w[Math.floor(rng() * w.length)] = word();
      texts.push({ url: `http://near.test/${k}`, title: 't', text: w.join(' ') });
    }
    for (let k = 0; k < 60; k++)
      texts.push({
        url: `http://other.test/${k}`,
        title: 't',
        text: Array.from({ length: 300 }, word).join(' '),
      });
    const dir = mkdtempSync(join(tmpdir(), 'simhash-groups-'));
    dirs.push(dir);
    const file = join(dir, 'near.warc');
    writeFileSync(file, htmlPagesWarc('near.warc', texts));

    const template = { ...ENGINE_DEFAULTS.template, strip: false };
    const { result } = analysePages(
      texts.map((p) => ({ text: p.text, normUrl: p.url, outlinks: [], fingerprint: '' })),
      { template },
    );
    const mask = acceptMask(result.pairs, 'simhash', DEFAULT_THRESHOLDS).mask;
    // The SimHash generator's own pairs within the distance: the method accepts those only, as MinHash
    // its LSH's (pairs other generators propose are measured, not accepted by it).
    const engineEdges: string[] = [];
    const accepted: number[] = [];
    for (let k = 0; k < result.pairs.count; k++) {
      if (!mask[k]) continue;
      accepted.push(k);
      if (result.pairs.sources[k] & SOURCE.simhash)
        engineEdges.push(`${result.pairs.a[k]} ${result.pairs.b[k]}`);
    }
    expect(accepted.length, `seed ${seed}`).toBe(engineEdges.length);
    // Anchored: far fewer pairs than the group's every pair.
    expect(engineEdges.length, `seed ${seed}`).toBeLessThan((group * (group - 1)) / 4);
    expect(engineEdges.length, `seed ${seed}`).toBeGreaterThan(group - 1);

    const profile = parseProfile(
      JSON.stringify(
        buildProfile({
          dataset: 'near',
          pages: 0,
          method: 'simhash',
          thresholds: DEFAULT_THRESHOLDS,
          clustering: 'components',
          engine: { ...ENGINE_DEFAULTS, template },
          dust: null,
        }),
      ),
    );
    const out = join(dir, 'out');
    await mapShard({ index: 0, name: 'near', source: { kind: 'file', path: file }, outDir: out, profile });
    await runJoin({ profile, outDir: out, log: () => {} });
    // Page ids are the shard's key « 24 | the record's order: the low 24 bits are the engine's index.
    const low = (v: unknown) => Number(BigInt(v as bigint) & 0xffffffn);
    const rows = await queryRows(`SELECT a, b FROM read_parquet('${join(out, 'pairs.parquet')}')`);
    const batchEdges = rows.map((r) => [low(r.a), low(r.b)].sort((x, y) => x - y).join(' '));
    expect(batchEdges.sort(), `seed ${seed}`).toEqual(engineEdges.sort());
    // The same clusters: the workbench's (components over every accepted pair) and the batch's.
    const engineClusters = componentsOf(texts.length, result.pairs.a, result.pairs.b, accepted)
      .map((c) => c.members.map(String).sort().join(' '))
      .sort();
    const clusterRows = await queryRows(
      `SELECT cluster, page FROM read_parquet('${join(out, 'clusters.parquet')}')`,
    );
    const byCluster = new Map<string, number[]>();
    for (const r of clusterRows)
      byCluster.set(String(r.cluster), [...(byCluster.get(String(r.cluster)) ?? []), low(r.page)]);
    const batchClusters = [...byCluster.values()].map((m) => m.map(String).sort().join(' ')).sort();
    expect(batchClusters, `seed ${seed}`).toEqual(engineClusters);
    // Almost the whole group is one cluster (a page alike to no anchor, under the distance only to
    // other non-anchors, is what anchoring may leave out — in both engines alike, as above).
    expect(Math.max(...[...byCluster.values()].map((m) => m.length)), `seed ${seed}`).toBeGreaterThanOrEqual(
      Math.floor(0.95 * group),
    );
  }, 120_000);
});
