/**
 * `npm run batch` keeps results that are either current or absent: a shard whose Parquet was damaged
 * after it was marked done is mapped again (named), a join that fails leaves no results behind (not the
 * previous run's), bad option values exit 2 naming the option, and nothing is lost or mixed silently
 * (a file of a mapped shard's name from another folder, a join under another profile, an output URL,
 * a misspelt profile field). Each run is a child process with a
 * time limit, as a person runs it.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_DEFAULTS } from '../../src/core/candidates/engine-params';
import { DEFAULT_THRESHOLDS } from '../../src/core/candidates/methods';
import { buildProfile } from '../../src/core/profile';
import { RESULT_FILES } from '../../src/cli/batch-results';
import { shardDir } from '../../src/cli/batch-shards';
import { generateWarcGz } from '../bench/gen-warc';

/** Time limit of one run: three 60 kB shards map and join in 5–10 s. */
const LIMIT_MS = 120_000;

const dir = mkdtempSync(join(tmpdir(), 'dw-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const out = join(dir, 'out');
const profile = join(dir, 'profile.json');
const shards = ['a.warc.gz', 'b.warc.gz', 'c.warc.gz'].map((f) => join(dir, f));

function batch(...argv: string[]) {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/batch.ts', '--profile', profile, '--out', out, '--workers', '2', ...argv],
    { encoding: 'utf8', timeout: LIMIT_MS, killSignal: 'SIGKILL' },
  );
  expect(r.signal, `batch was still running after ${LIMIT_MS} ms: ${r.stderr}`).toBeNull();
  return r;
}

/** The join's answer in summary.json, without its timings. */
function results(): unknown {
  const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
  return { method: s.method, candidates: s.candidates, edges: s.edges, summary: s.summary };
}

const table = (shard: number, t: string) => join(shardDir(out, basename(shards[shard])), `${t}.parquet`);

let first: unknown;

beforeAll(async () => {
  writeFileSync(
    profile,
    JSON.stringify(
      buildProfile({
        dataset: 'generated',
        pages: 0,
        method: 'minhash',
        thresholds: DEFAULT_THRESHOLDS,
        clustering: 'components',
        // The third shard repeats the first: each capture compared, so they meet in the join.
        engine: { ...ENGINE_DEFAULTS, captures: 'each' },
        dust: null,
      }),
    ),
  );
  // The third shard repeats the first: every page of it has a duplicate in another shard.
  await generateWarcGz(shards[0], 60_000, 11);
  await generateWarcGz(shards[1], 60_000, 12);
  copyFileSync(shards[0], shards[2]);
  const r = batch(...shards);
  expect(r.status, r.stderr).toBe(0);
  first = results();
}, LIMIT_MS);

describe('npm run batch on a rerun', () => {
  it(
    'maps a shard whose Parquet was damaged again, naming it, and gives the same results',
    () => {
      expect((first as { edges: number }).edges).toBeGreaterThan(0);
      // Shard 1: bytes overwritten in the middle (same size); shard 2: cut short.
      const bands = table(1, 'bands');
      const fd = openSync(bands, 'r+');
      writeSync(fd, Buffer.alloc(64), 0, 64, Math.floor(statSync(bands).size / 2));
      closeSync(fd);
      const pages = table(2, 'pages');
      const size = statSync(pages).size;
      truncateSync(pages, Math.floor(size / 2));
      const r = batch(...shards);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        'map: shard 1 b.warc.gz: its output is damaged (bands.parquet is not the file written: its SHA-256 differs): mapped again',
      );
      expect(r.stderr).toContain(
        `map: shard 2 c.warc.gz: its output is damaged (pages.parquet is ${Math.floor(size / 2).toLocaleString('en-US')} bytes, ${size.toLocaleString('en-US')} when it was written): mapped again`,
      );
      // Shard 0 was intact: trusted, not mapped again.
      expect(r.stderr).toContain('map: 1 shard(s) already done');
      expect(r.stderr).not.toMatch(/map: shard 0 a\.warc\.gz: \d+ pages/);
      expect(results()).toEqual(first);
    },
    LIMIT_MS,
  );

  it(
    '--step join refuses a damaged shard, naming it, and says to map it again',
    () => {
      const pages = table(0, 'pages');
      const kept = readFileSync(pages);
      truncateSync(pages, 10);
      const r = batch('--step', 'join');
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        /^error: shard a\.warc\.gz: its output is damaged \(pages\.parquet is 10 bytes, /,
      );
      expect(r.stderr).toContain('Run the map step again');
      writeFileSync(pages, kept);
    },
    LIMIT_MS,
  );

  it(
    'a join that fails leaves no results, not the previous run’s; the next one that succeeds writes them',
    () => {
      for (const f of RESULT_FILES) expect(existsSync(join(out, f)), f).toBe(true);
      // A real fault: DuckDB runs out of memory (1 MB) in the join.
      const r = batch('--memory', '1MB', ...shards);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('error: join failed: Out of Memory Error');
      expect(r.stderr).toContain(`No results in ${out}: the previous run's were removed when the join began`);
      for (const f of [...RESULT_FILES, '.join-tmp']) expect(existsSync(join(out, f)), f).toBe(false);
      const again = batch(...shards);
      expect(again.status, again.stderr).toBe(0);
      expect(results()).toEqual(first);
    },
    LIMIT_MS,
  );
});

describe('npm run batch with bad option values', () => {
  it(
    'exits 2 naming the option, before any work',
    () => {
      for (const [argv, message] of [
        [['--memory', 'abc'], '--memory takes a size above 0 with a unit, such as 3GB or 512MiB, not "abc"'],
        [['--memory', '3XB'], '--memory takes a size above 0 with a unit, such as 3GB or 512MiB, not "3XB"'],
        [['--workers', '-2'], '--workers takes a whole number ≥ 1, not "-2"'],
      ] as const) {
        const r = batch(...argv, ...shards);
        expect(r.status).toBe(2);
        expect(r.stderr.split('\n')[0]).toBe(`error: ${message}`);
      }
    },
    LIMIT_MS,
  );
});

describe('a batch that loses nothing silently', () => {
  const run = (...argv: string[]) => {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/batch.ts', '--workers', '2', ...argv],
      {
        encoding: 'utf8',
        timeout: LIMIT_MS,
        killSignal: 'SIGKILL',
      },
    );
    expect(r.signal, `batch was still running after ${LIMIT_MS} ms: ${r.stderr}`).toBeNull();
    return r;
  };

  it(
    'refuses a file of the same name from another folder, naming both, before writing anything',
    () => {
      const other = join(dir, 'other', 'a.warc.gz');
      // Another crawl's a.warc.gz: other bytes, the same base name.
      mkdirSync(join(dir, 'other'), { recursive: true });
      copyFileSync(shards[1], other);
      const plan = readFileSync(join(out, 'join.json'), 'utf8');
      const r = batch(other);
      expect(r.status).toBe(1);
      expect(r.stderr.split('\n')[0]).toBe(
        `error: shard a.warc.gz: ${out} already holds a shard of that name mapped from ${shards[0]}, so ${other} would be skipped as done; name it apart (--name-prefix) or map into another --out`,
      );
      // Nothing written: the plan is the earlier run's.
      expect(readFileSync(join(out, 'join.json'), 'utf8')).toBe(plan);
    },
    LIMIT_MS,
  );

  it(
    'a join with another profile than the map refuses its shards, naming them',
    () => {
      const p = JSON.parse(readFileSync(profile, 'utf8')) as { engine: { minhash: { seed: number } } };
      p.engine.minhash.seed += 1;
      const other = join(dir, 'other-profile.json');
      writeFileSync(other, JSON.stringify(p));
      const r = run('--profile', other, '--out', out, '--step', 'join');
      expect(r.status).toBe(1);
      expect(r.stderr.split('\n')[0]).toMatch(
        /^error: shard a\.warc\.gz: mapped with another profile \(other signature parameters or DUST rules than this join's\); /,
      );
      expect(r.stderr).toContain('Run the map step again with this profile');
    },
    LIMIT_MS,
  );

  it(
    'refuses an output URL by its scheme (exit 2), and a profile field it does not know (exit 1)',
    () => {
      const s3 = run('--profile', profile, '--out', 's3a://bucket/x', ...shards);
      expect(s3.status).toBe(2);
      expect(s3.stderr.split('\n')[0]).toBe(
        'error: --out takes a local folder (s3a:// URLs are not written to: write locally, then copy), not "s3a://bucket/x"',
      );
      expect(existsSync('s3a:')).toBe(false);
      const p = JSON.parse(readFileSync(profile, 'utf8')) as Record<string, unknown>;
      const misspelt = join(dir, 'misspelt.json');
      writeFileSync(misspelt, JSON.stringify({ ...p, overides: { cannotLink: [] } }));
      const r = run('--profile', misspelt, '--out', out, ...shards);
      expect(r.status).toBe(1);
      expect(r.stderr.split('\n')[0]).toMatch(
        /^error: .*overides: no such field \(known: profile, version, /,
      );
    },
    LIMIT_MS,
  );
});
