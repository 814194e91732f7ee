import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { ANALYZE } from '../../src/cli/analyze-args';
import { BATCH } from '../../src/cli/batch';
import { helpText, parseCommand, UsageError, type CommandSpec } from '../../src/cli/args';
import { ENGINE_DEFAULTS } from '../../src/core/candidates/engine-params';
import { DEFAULT_METHOD } from '../../src/core/candidates/methods';
import { parseProfile } from '../../src/core/profile';
import { CLUSTER_CSV_COLUMNS } from '../../src/core/clusters/export';
import { parseDelimited } from '../../src/core/csv';

const parse = (argv: string[]) => {
  const a = parseCommand(ANALYZE, argv);
  if (a.help) throw new Error('unexpected help');
  return a;
};

describe('analyze arguments', () => {
  it('gives every default when only the file is named', () => {
    const a = parse(['crawl.warc']);
    expect(a.positionals).toEqual(['crawl.warc']);
    expect(a.values).toEqual({
      json: null,
      'url-column': null,
      'text-column': null,
      'html-column': null,
      cdxj: null,
      'dedup-warc': null,
      clusters: null,
      'dust-rules': null,
      canonical: null,
      'profile-out': null,
      'remove-list': null,
      keep: 'canonical,original,ok,longest-text,earliest',
      'loses-text': 0.2,
      'remove-losing': false,
      sample: 0,
      seed: 1,
      base: '',
      signatures: true,
      dust: true,
      labels: null,
      'whole-file-gzip': false,
    });
  });

  it('reads every existing option, before or after the file, with = or a separate value', () => {
    const a = parse([
      '--json',
      'out.json',
      'crawl.log',
      '--base=https://a.example/',
      '--no-signatures',
      '--no-dust',
      '--labels',
      'l.csv',
      '--whole-file-gzip',
    ]);
    expect(a.positionals).toEqual(['crawl.log']);
    expect(a.values).toMatchObject({
      json: 'out.json',
      base: 'https://a.example/',
      signatures: false,
      dust: false,
      labels: 'l.csv',
    });
    // The last of --no-dust / --dust wins.
    expect(parse(['f', '--no-dust', '--dust']).values.dust).toBe(true);
  });

  it('--help (or -h) anywhere gives the usage with every option and its default', () => {
    for (const argv of [['--help'], ['f', '-h'], ['--bogus', '--help']]) {
      const a = parseCommand(ANALYZE, argv);
      expect(a.help).toBe(true);
    }
    const text = helpText(ANALYZE);
    expect(text).toMatch(/^usage: npm run analyze -- FILE… \[options\]/);
    for (const line of [
      /--json OUT .*\(default: none\)/,
      /--base URL .*\(default: none: inferred from the referers\)/,
      /--no-signatures .*\(default: on\)/,
      /--no-dust .*\(default: on\)/,
      /--labels FILE /,
      /--whole-file-gzip .*\(default: off\)/,
      /-h, --help /,
      /exit status: 0 .* 2 partial .* 1 rejected or missing file/,
    ])
      expect(text).toMatch(line);
    // Each option of the table is in the help: adding one to the table documents it.
    for (const name of Object.keys(ANALYZE.options)) expect(text).toContain(`-${name}`);
  });

  it('refuses an unknown option, naming it as typed', () => {
    expect(() => parse(['f', '--jsn', 'x'])).toThrow(new UsageError('unknown option --jsn'));
    expect(() => parse(['f', '-q'])).toThrow(new UsageError('unknown option -q'));
    expect(() => parse(['f', '--no-json'])).toThrow(new UsageError('unknown option --no-json'));
  });

  it('refuses a missing value, a value on a switch or a missing file; takes several files (one crawl)', () => {
    expect(() => parse(['f', '--json'])).toThrow('--json needs a value: --json OUT');
    // An option right after does not become the value.
    expect(() => parse(['f', '--labels', '--no-dust'])).toThrow('--labels needs a value');
    expect(() => parse(['f', '--dust=no'])).toThrow('--dust takes no value');
    expect(() => parse([])).toThrow('missing FILE');
    expect(parse(['a', 'b', '--no-dust', 'c']).positionals).toEqual(['a', 'b', 'c']);
    // After --, a name that looks like an option is a file.
    expect(parse(['--', '--odd-name.warc']).positionals).toEqual(['--odd-name.warc']);
  });
});

describe('command tables', () => {
  const spec = {
    name: 'demo',
    summary: 'A demo.',
    positionals: { name: 'FILE', help: 'files', min: 1, max: Infinity },
    options: {
      shingle: { type: 'number', arg: 'K', default: 4, min: 1, integer: true, help: 'shingle size' },
      ratio: { type: 'number', arg: 'R', default: 0.5, min: 0, max: 1, help: 'a ratio' },
    },
  } satisfies CommandSpec;

  it('takes several files and checks numbers against the table', () => {
    const a = parseCommand(spec, ['a', 'b', '--shingle', '7', 'c', '--ratio=0.25']);
    expect(a.help).toBe(false);
    if (a.help) return;
    expect(a.positionals).toEqual(['a', 'b', 'c']);
    expect(a.values).toEqual({ shingle: 7, ratio: 0.25 });
    expect(() => parseCommand(spec, ['a', '--shingle', '2.5'])).toThrow(
      '--shingle takes a whole number ≥ 1, not "2.5"',
    );
    expect(() => parseCommand(spec, ['a', '--ratio', 'x'])).toThrow(
      '--ratio takes a number from 0 to 1, not "x"',
    );
    expect(() => parseCommand(spec, ['a', '--ratio', '2'])).toThrow('from 0 to 1');
    expect(helpText(spec)).toMatch(/^usage: npm run demo -- FILE… \[options\]/);
    expect(helpText(spec)).toMatch(/--shingle K +shingle size \(default: 4\)/);
  });
});

describe('batch arguments', () => {
  it('requires --out (--profile is optional), checks --step against its choices and --workers as a whole number', () => {
    const ok = parseCommand(BATCH, ['--profile', 'p.json', '--out', 'o', 'a.warc', 'b.warc', '--step=map']);
    expect(ok.help).toBe(false);
    if (ok.help) return;
    expect(ok.values).toMatchObject({
      profile: 'p.json',
      out: 'o',
      step: 'map',
      memory: '3GB',
      shards: null,
    });
    expect(ok.values.workers).toBeGreaterThanOrEqual(1);
    expect(ok.positionals).toEqual(['a.warc', 'b.warc']);
    const bare = parseCommand(BATCH, ['--out', 'o', 'a']);
    expect(!bare.help && bare.values.profile).toBe(null);
    expect(() => parseCommand(BATCH, ['a'])).toThrow('--out is required: --out DIR');
    expect(() => parseCommand(BATCH, ['--profile', 'p', '--out', 'o', '--step', 'reduce'])).toThrow(
      '--step is one of map, join, all, not "reduce"',
    );
    expect(() => parseCommand(BATCH, ['--profile', 'p', '--out', 'o', '--workers', '0'])).toThrow(
      '--workers takes a whole number ≥ 1, not "0"',
    );
  });

  it('checks --memory as a size with a unit and --workers as a whole number, naming the option', () => {
    const values = (...argv: string[]) => {
      const a = parseCommand(BATCH, ['--profile', 'p', '--out', 'o', ...argv]);
      if (a.help) throw new Error('unexpected help');
      return a.values;
    };
    for (const m of ['512MiB', '1.5GB', '3 GB', '3g', '100KB']) expect(values('--memory', m).memory).toBe(m);
    // DuckDB says only "Failed to set config" for these, and takes a negative size as no limit.
    for (const m of ['abc', '3XB', '80%', '0GB', '-1GB', '3', ''])
      expect(() => values(`--memory=${m}`)).toThrow(
        new UsageError(
          `--memory takes a size above 0 with a unit, such as 3GB or 512MiB, not ${JSON.stringify(m)}`,
        ),
      );
    expect(values('--workers', '3').workers).toBe(3);
    for (const w of ['-1', '0', 'abc', '1.5', '0x10', '1e2', 'Infinity'])
      expect(() => values('--workers', w)).toThrow(
        new UsageError(`--workers takes a whole number ≥ 1, not ${JSON.stringify(w)}`),
      );
  });

  it('--help names the required options in the usage and every option with its default', () => {
    const text = helpText(BATCH);
    expect(text).toMatch(/^usage: npm run batch -- --out DIR \[FILE…\] \[options\]/);
    expect(text).toMatch(/--profile P\.json .*without it, the workbench’s defaults \(default: none\)/);
    expect(text).toMatch(/--step map\|join\|all .*\(default: all\)/);
    expect(text).toMatch(/--workers N .*\(default: one per core\)/);
    expect(text).toMatch(/--memory SIZE .*\(default: 3GB\)/);
  });
});

// The entry point: exit codes and messages as a person sees them (one tsx process each).
describe('npm run analyze', () => {
  const run = (...argv: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/analyze.ts', ...argv], { encoding: 'utf8' });

  it('--help prints the usage and exits 0', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('usage: npm run analyze -- FILE… [options]');
    expect(r.stdout).toContain('--no-dust');
  });

  it('an unknown option exits 2 naming it; a missing file exits 1', () => {
    const u = run('test/fixtures/tiny.warc', '--frobnicate');
    expect(u.status).toBe(2);
    expect(u.stderr).toContain('error: unknown option --frobnicate');
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    try {
      const missing = join(dir, 'nope.warc');
      const m = run(missing);
      expect(m.status).toBe(1);
      expect(m.stderr.trim()).toBe(`error: ${missing}: no such file`);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('reads several files and a WACZ as one crawl, listing each file and skipping what is not a crawl', () => {
    const r = run(
      'test/fixtures/crawl.wacz',
      'test/fixtures/crawl-stray.log',
      'test/fixtures/junk.bin',
      '--no-dust',
      '--no-signatures',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^file {6}3 files$/m);
    expect(r.stdout).toMatch(/^pages {5}9$/m); // 4 from the WACZ's two WARCs + 5 fetched URLs of the log
    expect(r.stdout).toContain('crawl.wacz › archive/data-2.warc: warc, 1 pages');
    expect(r.stdout).toContain('junk.bin: skipped');
    expect(r.stdout).toContain('status -5003: blocked by quota');
    expect(r.stdout).toContain('page list 4 listed in pages.jsonl, 3 read as pages');
  });

  it('--profile-out writes the profile of what ran: the defaults and the valid DUST rules, read back whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    try {
      const out = join(dir, 'p.json');
      const r = run('sample/sample.warc.gz', '--no-signatures', '--profile-out', out);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`profile   written to ${out}`);
      const p = parseProfile(readFileSync(out, 'utf8'));
      expect(p.source.dataset).toBe('sample.warc.gz');
      expect(p.engine).toEqual(ENGINE_DEFAULTS);
      expect(p.method).toBe(DEFAULT_METHOD);
      // The sample's valid rules, as the workbench's DUST run lists them (7 on the sample).
      expect(p.dust.rules.length).toBeGreaterThanOrEqual(5);
      expect(p.dust.rules.every((x) => x.status === 'valid')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true });
    }
  }, 60_000);

  it('--clusters writes the default clusters as the workbench exports them, JSON or CSV by the name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    try {
      const json = join(dir, 'c.json');
      const csv = join(dir, 'c.csv');
      const a = run('sample/sample.warc.gz', '--clusters', json);
      const b = run('sample/sample.warc.gz', '--no-dust', '--clusters', csv);
      expect(a.status).toBe(0);
      expect(b.status).toBe(0);
      const x = JSON.parse(readFileSync(json, 'utf8'));
      expect(x.method).toBe(DEFAULT_METHOD);
      expect(x.source.dataset).toBe('sample.warc.gz');
      expect(x.canonical).toBe('canonical URLs from the mined DUST rules');
      // As many clusters as the report counts for the default method (its line starts with '*').
      const line = a.stdout.split('\n').find((l) => l.startsWith('* '))!;
      expect(x.clusters.length).toBe(Number(/(\d+) clusters/.exec(line)![1]));
      for (const c of x.clusters) {
        expect(c.size).toBe(c.members.length);
        for (const m of c.members)
          // A removed member also says how much of its text the kept copy lacks (lostShare, losesText).
          expect(Object.keys(m).slice(0, 4)).toEqual(['url', 'surt', 'canonical', 'canonicalSurt']);
      }
      // Without DUST rules the CSV leaves the canonical cells empty; one row a member.
      const rows = parseDelimited(readFileSync(csv, 'utf8')).filter((r) => r.length > 1);
      expect(rows[0]).toEqual([...CLUSTER_CSV_COLUMNS]);
      expect(rows.length - 1).toBe(x.clusters.reduce((n: number, c: { size: number }) => n + c.size, 0));
      expect(rows.slice(1).every((r) => r[3] === '' && r[2].startsWith('test,example'))).toBe(true);
      // Another kept-copy policy given on the command line decides the remove list and the profile.
      const removeList = join(dir, 'r.csv');
      const profile = join(dir, 'p.json');
      const c = run(
        'sample/sample.warc.gz',
        '--no-dust',
        '--keep',
        'earliest,ok',
        '--remove-list',
        removeList,
        '--profile-out',
        profile,
      );
      expect(c.status).toBe(0);
      const removed = parseDelimited(readFileSync(removeList, 'utf8')).filter((r) => r.length > 1);
      const reason = removed[0].indexOf('kept_reason');
      expect(new Set(removed.slice(1).map((r) => r[reason]))).toContain('kept: earliest capture');
      expect(JSON.parse(readFileSync(profile, 'utf8')).keep).toEqual(['earliest', 'ok']);
      const bad = run('sample/sample.warc.gz', '--keep', 'newest');
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/--keep/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  }, 60_000);

  it('--dedup-warc writes the WARC again with revisits and says what it saved, --cdxj its index; one WARC only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    try {
      const out = join(dir, 'dedup.warc.gz');
      const cdxj = join(dir, 'sample.cdxj');
      const r = run('sample/sample.warc.gz', '--no-dust', '--dedup-warc', out, '--cdxj', cdxj);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`cdxj        475 captures written to ${cdxj}`);
      const lines = readFileSync(cdxj, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(475);
      expect(lines.filter((l) => l.includes('"dedup":"revisit"')).length).toBeGreaterThan(0);
      expect(r.stdout).toContain(`dedup warc  written to ${out}`);
      const m = /total URLs ([\d,]+), unique payloads ([\d,]+), duplicate URLs ([\d,]+) \(revisits\)/.exec(
        r.stdout,
      );
      expect(m).not.toBeNull();
      expect(Number(m![3].replace(/,/g, ''))).toBeGreaterThan(0);
      expect(statSync(out).size).toBeLessThan(statSync('sample/sample.warc.gz').size);
      const two = run('test/fixtures/tiny.warc', 'test/fixtures/tiny.warc.gz', '--dedup-warc', out);
      expect(two.status).toBe(1);
      expect(two.stderr).toContain(
        '--dedup-warc and --cdxj read one WARC again: give one WARC file (here 2)',
      );
    } finally {
      rmSync(dir, { recursive: true });
    }
  }, 60_000);

  it('reads a Parquet table by the columns named on the command line, and says how when they are needed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    try {
      const file = join(dir, 'odd.parquet');
      writeFileSync(
        file,
        new Uint8Array(
          parquetWriteBuffer({
            columnData: [
              { name: 'link', data: ['http://o.test/1', 'http://o.test/2'], type: 'STRING' },
              { name: 'body', data: ['<p>one</p>', '<p>two</p>'], type: 'STRING' },
            ],
          }),
        ),
      );
      const refused = run(file, '--no-dust', '--no-signatures');
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('its columns are "link", "body" (choose them: --url-column NAME');
      const read = run(file, '--no-dust', '--no-signatures', '--url-column', 'link', '--html-column', 'body');
      expect(read.status).toBe(0);
      expect(read.stdout).toMatch(/^pages {5}2$/m);
    } finally {
      rmSync(dir, { recursive: true });
    }
  }, 60_000);

  it('reads a file with the options and exits 0', () => {
    const r = run('test/fixtures/tiny.warc', '--no-dust', '--no-signatures');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^file {6}tiny\.warc$/m);
    expect(r.stdout).not.toContain('signatures');
    expect(r.stdout).not.toContain('dust');
  });
});
