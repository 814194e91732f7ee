import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINE_DEFAULTS } from '../../../src/core/candidates/engine';
import { DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import { batchPrecision, readBatchResult, sampleIndices } from '../../../src/core/batch/result';
import { buildProfile } from '../../../src/core/profile';
import { runJoin } from '../../../src/cli/batch';
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

  it('says which file is missing', async () => {
    await expect(readBatchResult({})).rejects.toThrow(/clusters\.parquet is missing/);
  });
});
