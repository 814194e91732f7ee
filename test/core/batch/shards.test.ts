/**
 * Page ids from the shard's name (keys.ts shardKey), not its place in one run's list: two halves of a
 * crawl mapped by two separate runs, in the other order, and joined give the result of one run over
 * both; two files of one name, or two names of one key, are refused by name. LSH buckets over the
 * full-verification size are verified against their anchors, counted, as the engine does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runJoin } from '../../../src/cli/batch-join';
import { runMap } from '../../../src/cli/batch-map';
import { collidingKeys } from '../../../src/cli/batch-shards';
import { pageId, SEQ_BITS, SHARD_KEY_BITS, shardKey } from '../../../src/core/batch/keys';
import { SOURCE } from '../../../src/core/candidates/pairs';
import { defaultProfile, parseProfile } from '../../../src/core/profile';
import { seededRandom } from '../../../src/core/random';
import { RESULT_COLUMNS, resultRows } from '../../../scripts/lib/batch-results';
import { workbenchRun } from '../../bench/batch-engine';
import { generateWarcGz } from '../../bench/gen-warc';

const SAMPLE = fileURLToPath(new URL('../../../sample/sample.warc.gz', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  dirs.push(d);
  return d;
};

describe('page ids across runs', () => {
  it('keys are 39 bits of the name, ids positive and unique per (name, record)', () => {
    const seed = 3120261126;
    const rng = seededRandom(seed);
    const ids = new Set<bigint>();
    for (let k = 0; k < 2000; k++) {
      const name = `CC-MAIN-2026-${Math.floor(rng() * 1e9)}-${k}.warc.gz`;
      const key = shardKey(name);
      expect(key, `seed ${seed}: ${name}`).toBe(shardKey(name));
      expect(key >= 0n && key < 1n << BigInt(SHARD_KEY_BITS), `seed ${seed}: ${name}`).toBe(true);
      const seq = Math.floor(rng() * 2 ** SEQ_BITS);
      const id = pageId(key, seq);
      expect(id > 0n && id < 1n << 63n).toBe(true);
      expect(id >> BigInt(SEQ_BITS)).toBe(key);
      ids.add(id);
    }
    expect(ids.size).toBe(2000);
    expect(() => pageId(1n, 2 ** SEQ_BITS)).toThrow(/at most 16,777,216 records \(split the file\)/);
  });

  it('two halves mapped by two runs, in the other order, join to the result of one run', async () => {
    const gen = join(temp('shards-in-'), 'second.warc.gz');
    await generateWarcGz(gen, 300_000, 7);
    const profile = defaultProfile();
    const files = [
      { name: 'sample.warc.gz', source: { kind: 'file' as const, path: SAMPLE } },
      { name: 'second.warc.gz', source: { kind: 'file' as const, path: gen } },
    ];
    const one = temp('shards-one-');
    await runMap({ profile, outDir: one, shards: files, workers: 2, log: () => {} });
    await runJoin({ profile, outDir: one, log: () => {} });
    const two = temp('shards-two-');
    // Another machine maps the second half first, then the first half in a run of its own.
    await runMap({ profile, outDir: two, shards: [files[1]], workers: 1, log: () => {} });
    await runMap({ profile, outDir: two, shards: [files[0]], workers: 1, log: () => {} });
    await runJoin({ profile, outDir: two, log: () => {} });
    for (const [table, cols] of Object.entries(RESULT_COLUMNS)) {
      const a = await resultRows(join(one, `${table}.parquet`), cols);
      const b = await resultRows(join(two, `${table}.parquet`), cols);
      expect(a.length, table).toBeGreaterThan(2);
      expect(b, table).toEqual(a);
    }
  }, 120_000);

  it('refuses two files of one name, and two names of one key, naming them', async () => {
    const out = temp('shards-dup-');
    await expect(
      runMap({
        profile: defaultProfile(),
        outDir: out,
        shards: [
          { name: 'x.warc.gz', source: { kind: 'file', path: '/a/x.warc.gz' } },
          { name: 'x.warc.gz', source: { kind: 'file', path: '/b/x.warc.gz' } },
        ],
        log: () => {},
      }),
    ).rejects.toThrow('two shards are named x.warc.gz (/a/x.warc.gz and /b/x.warc.gz)');
    // A collision of 39-bit keys takes ~2^19.5 names to meet: the check is shown with a coarser key.
    const byLength = (n: string) => BigInt(n.length);
    expect(() => collidingKeys(['a.warc.gz', 'bb.warc.gz', 'c.warc.gz'], byLength)).toThrow(
      'shards a.warc.gz and c.warc.gz have the same key (9), so their pages would share ids: rename one of the files',
    );
    expect(() => collidingKeys(['a.warc.gz', 'b.warc.gz', 'a.warc.gz'])).not.toThrow();
  });
});

describe('LSH buckets over the full-verification size', () => {
  it('are verified against their anchors as the engine verifies them, and counted', async () => {
    const out = temp('buckets-');
    const names = ['a', 'b', 'c'].map((n) => `sample-${n}`);
    await runMap({
      profile: defaultProfile(),
      outDir: out,
      workers: 1,
      shards: names.map((name) => ({ name, source: { kind: 'file' as const, path: SAMPLE } })),
      log: () => {},
    });
    // Each copy compared (the file is read three times), as workbenchRun compares them.
    const each = parseProfile(
      JSON.stringify({ profile: 'dedup-workbench', version: 1, engine: { captures: 'each' } }),
    );
    const all = await runJoin({ profile: each, outDir: out, log: () => {} });
    expect(all.anchored).toEqual({ buckets: 0, memberships: 0 });
    // Three copies of each page share every band key: with full verification up to 2 pages, those
    // buckets are verified against their first page only.
    const capped = parseProfile(
      JSON.stringify({
        profile: 'dedup-workbench',
        version: 1,
        method: 'minhash',
        engine: { minhash: { fullBucket: 2, anchors: 1 }, captures: 'each' },
      }),
    );
    const anchored = await runJoin({ profile: capped, outDir: out, log: () => {} });
    const sizes = (
      await resultRows(
        join(out, 'shards', '*', 'bands.parquet'),
        'method, band, key, COUNT(*) OVER (PARTITION BY method, band, key) AS size',
      )
    ).map((r) => JSON.parse(r) as { method: string; band: number; key: string; size: string });
    const over = new Map<string, number>();
    for (const r of sizes)
      if (r.method === 'minhash' && Number(r.size) > 2) over.set(`${r.band} ${r.key}`, Number(r.size));
    expect(over.size).toBeGreaterThan(100);
    expect(anchored.anchored).toEqual({
      buckets: over.size,
      memberships: [...over.values()].reduce((a, b) => a + b, 0),
    });
    expect(anchored.candidates).toBeLessThan(all.candidates);
    // The engine, pages read in id order, with the same setting: the same LSH candidates.
    const { r, ids } = await workbenchRun([SAMPLE, SAMPLE, SAMPLE], names, {
      minhash: capped.engine.minhash,
    });
    expect(r.candidates.lshAnchoredBuckets).toBe(over.size);
    const lsh = new Set<string>();
    for (let k = 0; k < r.pairs.count; k++)
      if (r.pairs.sources[k] & SOURCE.lsh) lsh.add(`${ids[r.pairs.a[k]]} ${ids[r.pairs.b[k]]}`);
    expect(anchored.candidates).toBe(lsh.size);
  }, 120_000);
});
