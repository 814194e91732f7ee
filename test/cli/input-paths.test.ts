/**
 * The CLI on special paths: FIFOs, devices, /proc files, links to a parent folder, link loops and
 * permission errors are refused or read in words, never waited on. Every run of the CLI is a child
 * process with a time limit: a hang fails the test (status null, killed) instead of stalling the suite.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSource } from '../../src/cli/file-source';
import { crawlFiles, inputError, InputError } from '../../src/cli/input-paths';
import { ENGINE_DEFAULTS } from '../../src/core/candidates/engine-params';
import { DEFAULT_THRESHOLDS } from '../../src/core/candidates/methods';
import { buildProfile } from '../../src/core/profile';

const TINY = 'test/fixtures/tiny.warc';
/** tiny.warc's pages, as analyze counts them. */
const TINY_PAGES = 5;
/** Time limit of one CLI run: a tsx start and a tiny file take 1–3 s. */
const LIMIT_MS = 30_000;

const dir = mkdtempSync(join(tmpdir(), 'dw-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (...p: string[]) => join(dir, ...p);

function run(argv: string[]) {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/analyze.ts', '--no-dust', '--no-signatures', ...argv],
    { encoding: 'utf8', timeout: LIMIT_MS, killSignal: 'SIGKILL' },
  );
  // A run that hit the limit was killed: say so rather than compare a status of null.
  expect(r.signal, `the CLI was still running after ${LIMIT_MS} ms: ${r.stderr}`).toBeNull();
  return r;
}

function mkfifo(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

describe('special files named on the command line', () => {
  it('a FIFO with no writer is refused at once, not waited on', () => {
    const fifo = mkfifo(at('no-writer.fifo'));
    const r = run([fifo]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      `error: ${fifo}: not a regular file (a FIFO, with no writer: nothing to read)`,
    );
  });

  it('a device is refused as one, never read (/dev/zero would never end, /dev/null is not an empty file)', () => {
    for (const dev of ['/dev/zero', '/dev/null']) {
      const r = run([dev]);
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`error: ${dev}: not a regular file (a character device)`);
    }
  });

  it('a pipe with data is read as a stream (/dev/stdin at the end of a shell pipe)', () => {
    // A shell pipe, not spawnSync's `input` (a socket): `timeout` kills the CLI if it waits.
    const r = spawnSync(
      'sh',
      [
        '-c',
        'cat "$1" | timeout -s KILL "$2" "$0" --import tsx src/cli/analyze.ts --no-dust --no-signatures /dev/stdin',
        process.execPath,
        TINY,
        String(LIMIT_MS / 1000),
      ],
      { encoding: 'utf8', timeout: LIMIT_MS + 5_000, killSignal: 'SIGKILL' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^file {6}stdin$/m);
    expect(r.stdout).toMatch(/^format {4}warc$/m);
    expect(r.stdout).toMatch(new RegExp(`^pages {5}${TINY_PAGES}$`, 'm'));
  });

  it('a /proc file (size 0, not empty) is read for what it holds, not called empty', () => {
    const r = run(['/proc/self/status']);
    expect(r.status).toBe(1);
    expect(r.stderr).not.toMatch(/empty|0 bytes/);
    expect(r.stderr).toMatch(/^error: status: unknown format/);
  });

  it('a symbolic link loop is called one, not "no such file"', () => {
    symlinkSync('loop-b', at('loop-a'));
    symlinkSync('loop-a', at('loop-b'));
    const r = run([at('loop-a')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`error: ${at('loop-a')}: symbolic link loop`);
  });

  it('a broken link names its target', () => {
    symlinkSync('gone.warc', at('broken.warc'));
    const r = run([at('broken.warc')]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      `error: ${at('broken.warc')}: a symbolic link to gone.warc, which does not exist`,
    );
  });
});

describe('folders', () => {
  // crawl/ holds tiny.warc, a link to its parent, a second way to itself, a FIFO and a link loop.
  const root = at('root');
  const crawl = join(root, 'crawl');
  mkdirSync(crawl, { recursive: true });
  copyFileSync(TINY, join(crawl, 'tiny.warc'));
  symlinkSync('..', join(crawl, 'up'));
  symlinkSync('crawl', join(root, 'same'));
  symlinkSync('x', join(crawl, 'x'));
  mkfifo(join(crawl, 'pipe'));

  it('walks each real folder once: the WARC is read once, the parent link is a loop, the rest is listed', () => {
    for (const start of [crawl, root]) {
      const r = run([start]);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^file {6}tiny\.warc$/m);
      expect(r.stdout).toMatch(new RegExp(`^pages {5}${TINY_PAGES}$`, 'm'));
      expect(r.stderr).toContain(
        `note: ${join(crawl, 'up')}: symbolic link loop: it leads back to ${realpathSync(root)}, a folder above it; skipped`,
      );
      expect(r.stderr).toContain(`note: ${join(crawl, 'pipe')}: not a regular file (a FIFO); skipped`);
      expect(r.stderr).toContain(`note: ${join(crawl, 'x')}: symbolic link loop`);
    }
  });

  it('lists the files of a walk in path order, each real file and folder once', () => {
    const w = crawlFiles([root, join(crawl, 'tiny.warc')]);
    expect(w.files).toEqual([join(crawl, 'tiny.warc')]);
    const reasons = Object.fromEntries(w.skipped.map((s) => [s.path, s.reason]));
    // `same` sorts after `crawl`: it is the second way to the same folder.
    expect(reasons[join(root, 'same')]).toBe(`the same folder as ${crawl}, read once`);
    expect(reasons[join(crawl, 'tiny.warc')]).toBe(`the same file as ${join(crawl, 'tiny.warc')}, read once`);
    expect(reasons[join(crawl, 'up')]).toMatch(/^symbolic link loop/);
  });
});

describe('permission errors', () => {
  it('are said in words naming the path', () => {
    const e = (code: string) => Object.assign(new Error(code), { code });
    expect(inputError('/x/a.warc', e('EACCES'), 'open').message).toBe(
      '/x/a.warc: permission denied (it cannot be opened for reading)',
    );
    expect(inputError('/x', e('EACCES'), 'list').message).toBe(
      '/x: permission denied (the folder cannot be listed)',
    );
    expect(inputError('/x/a.warc', e('EPERM'), 'open').message).toBe(
      '/x/a.warc: operation not permitted (it cannot be opened for reading)',
    );
  });

  // root reads whatever the mode says: the words above are all that can be checked then.
  it.skipIf(process.getuid?.() === 0)(
    'a file that cannot be read, and a folder that cannot be listed',
    async () => {
      const file = at('locked.warc');
      copyFileSync(TINY, file);
      chmodSync(file, 0o000);
      await expect(fileSource(file)).rejects.toThrow(
        new InputError(file, { kind: 'permission', code: 'EACCES', doing: 'open' }),
      );
      const folder = at('locked');
      mkdirSync(folder);
      chmodSync(folder, 0o000);
      expect(() => crawlFiles([folder])).toThrow(
        `${folder}: permission denied (the folder cannot be listed)`,
      );
      chmodSync(folder, 0o755);
    },
  );
});

describe('npm run batch on special paths', () => {
  it('refuses a shard that is not a regular file before any thread opens it', () => {
    const profile = at('profile.json');
    writeFileSync(
      profile,
      JSON.stringify(
        buildProfile({
          dataset: 'x',
          pages: 0,
          method: 'minhash',
          thresholds: DEFAULT_THRESHOLDS,
          clustering: 'components',
          engine: ENGINE_DEFAULTS,
          dust: null,
        }),
      ),
    );
    const fifo = mkfifo(at('shard.fifo'));
    for (const [shard, why] of [
      [fifo, 'not a regular file (a FIFO)'],
      ['/dev/zero', 'not a regular file (a character device)'],
      ['/proc/self/status', 'the system says it is 0 bytes long but it holds data'],
    ]) {
      const r = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'src/cli/batch.ts', '--profile', profile, '--out', at('batch-out'), shard],
        { encoding: 'utf8', timeout: LIMIT_MS, killSignal: 'SIGKILL' },
      );
      expect(r.signal, `batch was still running after ${LIMIT_MS} ms`).toBeNull();
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`error: ${shard}: ${why}`);
    }
  });
});
