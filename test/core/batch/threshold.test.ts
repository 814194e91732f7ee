/**
 * A pair exactly on the Jaccard threshold is decided alike by the workbench engine and the batch's SQL on
 * DuckDB. Before, the SQL compared CAST(j AS FLOAT) with a bare literal — FLOAT on DuckDB, DOUBLE on
 * Spark — and the engine its Float32 measure with the double threshold: 8 of 8 pairs at exactly 0.9 were
 * accepted by the batch and 0 by the engine. Pairs are built with Jaccard exactly 0.7, 0.8, 0.9 and 0.95
 * (s shared of N 5-word shingles each: J = s / (2N − s); and s shingles inside N, J = s / N, where the
 * sizes alone put the pair exactly on the threshold too), from random words (seeded, printed).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { analysePages } from '../../../src/core/candidates/analyse-pages';
import { ENGINE_DEFAULTS } from '../../../src/core/candidates/engine-params';
import { acceptMask, DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import { buildProfile, parseProfile } from '../../../src/core/profile';
import { seededRandom } from '../../../src/core/random';
import { jaccard, shingleSet } from '../../../src/core/signatures/shingles';
import { runJoin } from '../../../src/cli/batch-join';
import { mapShard } from '../../../src/cli/batch-worker';
import { htmlPagesWarc } from '../../../scripts/lib/warc-writer';

const seed = Number(process.env.THRESHOLD_SEED ?? Date.now() % 1e9);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** [shared s, shingles N] with s / (2N − s) exactly the threshold. */
const EXACT: Record<string, [number, number]> = {
  '0.7': [14, 17],
  '0.8': [16, 18],
  '0.9': [18, 19],
  '0.95': [38, 39],
};
/**
 * [s, N]: a page of s shingles inside one of N (its words and more), J = s / N exactly the threshold and
 * the size bound min/max exactly it too: the batch verifies only pairs whose sizes let them reach it.
 */
const SUBSET: Record<string, [number, number]> = {
  '0.7': [14, 20],
  '0.8': [16, 20],
  '0.9': [18, 20],
  '0.95': [19, 20],
};

function pairsCrawl(): { file: string; texts: { url: string; text: string }[] } {
  const rng = seededRandom(seed);
  let next = 0;
  const word = () => `w${Math.floor(rng() * 1e9).toString(36)}${next++}`;
  const texts: { url: string; text: string }[] = [];
  for (const [t, [s, N]] of Object.entries(EXACT)) {
    const a = Array.from({ length: N + 4 }, word);
    const b = [...a.slice(0, s + 4), ...Array.from({ length: N - s }, word)];
    texts.push(
      { url: `http://p${t}.test/a`, text: a.join(' ') },
      { url: `http://p${t}.test/b`, text: b.join(' ') },
    );
  }
  for (const [t, [s, N]] of Object.entries(SUBSET)) {
    const a = Array.from({ length: s + 4 }, word);
    texts.push(
      { url: `http://q${t}.test/a`, text: a.join(' ') },
      { url: `http://q${t}.test/b`, text: [...a, ...Array.from({ length: N - s }, word)].join(' ') },
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'threshold-'));
  dirs.push(dir);
  const file = join(dir, 'pairs.warc');
  writeFileSync(
    file,
    htmlPagesWarc(
      'pairs.warc',
      texts.map((p) => ({ ...p, title: 't' })),
    ),
  );
  return { file, texts };
}

async function batchPairs(file: string, jaccardAt: number): Promise<number> {
  const engine = { ...ENGINE_DEFAULTS, template: { ...ENGINE_DEFAULTS.template, strip: false } };
  const profile = parseProfile(
    JSON.stringify(
      buildProfile({
        dataset: 'pairs',
        pages: 0,
        method: 'minhash',
        thresholds: { ...DEFAULT_THRESHOLDS, jaccard: jaccardAt },
        clustering: 'components',
        engine,
        dust: null,
      }),
    ),
  );
  const outDir = mkdtempSync(join(tmpdir(), 'threshold-out-'));
  dirs.push(outDir);
  await mapShard({ index: 0, name: 'pairs', source: { kind: 'file', path: file }, outDir, profile });
  await runJoin({ profile, outDir, log: () => {} });
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const rows = (
      await con.runAndReadAll(`SELECT COUNT(*) AS n FROM read_parquet('${join(outDir, 'pairs.parquet')}')`)
    ).getRowObjectsJS();
    return Number(rows[0].n);
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

describe(`pairs exactly on the Jaccard threshold (seed ${seed}, THRESHOLD_SEED=… repeats)`, () => {
  it('the engine and the batch on DuckDB accept every pair at J ≥ t, those exactly at t included', async () => {
    const { file, texts } = pairsCrawl();
    // The construction holds: each pair's exact Jaccard is its threshold.
    const keys = Object.keys(EXACT);
    [...keys, ...Object.keys(SUBSET)].forEach((t, i) => {
      expect(jaccard(shingleSet(texts[2 * i].text), shingleSet(texts[2 * i + 1].text)), `seed ${seed}`).toBe(
        Number(t),
      );
    });
    const { result } = analysePages(
      texts.map((p) => ({ text: p.text, normUrl: p.url, outlinks: [], fingerprint: '' })),
      { template: { ...ENGINE_DEFAULTS.template, strip: false } },
    );
    for (const [i, t] of keys.entries()) {
      const want = 2 * (keys.length - i); // pairs at t and above, of both families
      const engine = acceptMask(result.pairs, 'minhash', {
        ...DEFAULT_THRESHOLDS,
        jaccard: Number(t),
      }).accepted;
      expect(engine, `engine at J ≥ ${t}, seed ${seed}`).toBe(want);
      expect(await batchPairs(file, Number(t)), `batch at J ≥ ${t}, seed ${seed}`).toBe(want);
    }
  }, 120_000);
});
