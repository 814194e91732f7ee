/**
 * `npm run bench:hostile` (`-- --small` for the test's sizes, `-- --only bomb-record,bomb-tail` for some cases): the hostile corpus (scripts/lib/hostile.ts)
 * at the trial's sizes (3 GiB zero bombs, 11,000 records after a corrupted length, a 200 MB JSONL line),
 * generated into a temporary folder and removed at the end, read by the CLI (scripts/read-crawl.ts in a
 * child process, with a time limit) and dropped into the app in Chromium (started with the README's own
 * `npm start`, a fresh browser per case). Per case: time and peak memory in each, whether the CLI read
 * every page that must survive the fault, whether the tab stayed alive, and the pages the app kept.
 * Goals: CLI < 1 GB, renderer < 1.5 GB, tab alive.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { npmStart } from '../e2e/npm-start';
import { type HostileCase, TEST_SIZES, TRIAL_SIZES, writeHostileCorpus } from '../../scripts/lib/hostile';
import { dropFile, openApp, SHOTS } from '../e2e/harness';
import { rendererPeakMB } from './renderer-memory';

const ROOT = resolve(import.meta.dirname, '../..');
/** A case that takes longer than this, in either column, is stopped and counted as failed. */
const LIMIT_MS = 300_000;
const GOAL_CLI_MB = 1024;
const GOAL_RENDERER_MB = 1536;
const small = process.argv.includes('--small');
/** `--only a,b`: the cases whose names start with these (all by default). */
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '').split(',').filter(Boolean) : [];

interface CliRead {
  ok: boolean;
  ms: number;
  peakMB: number;
  pages: number;
  lost: string[];
  said: string;
  failure: string | null;
}

/** The CLI's read of one file (scripts/read-crawl.ts, as test/cli/hostile.test.ts runs it). */
function inCli(c: HostileCase): CliRead {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/read-crawl.ts', c.path], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: LIMIT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 256 << 20,
  });
  if (r.signal || r.status !== 0) {
    const why = r.signal ? `killed (${r.signal}, limit ${LIMIT_MS / 1000} s)` : `exit ${r.status}`;
    return { ok: false, ms: NaN, peakMB: NaN, pages: 0, lost: c.keep, said: '', failure: why };
  }
  const read = JSON.parse(r.stdout.trim().split('\n').pop()!) as {
    urls: string[];
    pages: number;
    notes: [string, string][];
    error: { message: string } | null;
    warnings: { message: string }[];
    skipped: Record<string, number>;
    ms: number;
    peakRssMB: number;
  };
  const urls = new Set(read.urls);
  const lost = c.keep.filter((u) => !urls.has(u));
  const said = [
    ...(read.error ? [read.error.message] : []),
    ...read.warnings.map((w) => w.message),
    ...read.notes.map(([, n]) => n),
    ...Object.keys(read.skipped),
  ];
  const hit = c.says ? (said.find((m) => c.says!.test(m)) ?? null) : null;
  return {
    ok: lost.length === 0,
    ms: read.ms,
    peakMB: read.peakRssMB,
    pages: read.pages,
    lost,
    said: c.says ? (hit ?? `expected ${c.says} not said (${said.length} messages)`) : '',
    failure: null,
  };
}

/** Pid → parent pid of every process now (/proc/PID/stat: the field after the parenthesised name). */
interface BrowserRead {
  seconds: number;
  peakMB: number;
  alive: boolean;
  outcome: 'done' | 'crashed' | 'timeout';
  pages: number | null;
  status: string;
  notices: string[];
  shot: string | null;
}

/** One drop into the app in a fresh Chromium (fresh profile, so the dataset list starts empty). */
async function inChromium(c: HostileCase, url: string): Promise<BrowserRead> {
  const app = await openApp({ server: { url, close: async () => {} } });
  const page = app.page;
  let crashed: () => void = () => {};
  const crash = new Promise<'crashed'>((ok) => (crashed = () => ok('crashed')));
  let wasCrashed = false;
  page.on('crash', () => {
    wasCrashed = true;
    crashed();
  });
  let peak = 0;
  const sample = () => (peak = Math.max(peak, rendererPeakMB()));
  const timer = setInterval(sample, 100);
  try {
    await page.getByText('Drop a crawl file anywhere').waitFor();
    const t0 = performance.now();
    await dropFile(page, c.path);
    // Finished or failed as the e2e tests and check:shared see it: no ingest panel, and a dataset that is
    // no longer ingesting or an error notice (a file rejected before its first page makes no dataset).
    const finished = page
      .waitForFunction(
        () =>
          !document.querySelector('.ingest') &&
          !document.querySelector('.dataset-list .status-ingesting') &&
          (document.querySelector('.dataset-list .badge') || document.querySelector('.notice-error')),
        undefined,
        { timeout: LIMIT_MS, polling: 50 },
      )
      .then(() => 'done' as const)
      .catch(() => (wasCrashed ? ('crashed' as const) : ('timeout' as const)));
    const outcome = await Promise.race([finished, crash]);
    const seconds = (performance.now() - t0) / 1000;
    sample();
    const alive =
      !wasCrashed &&
      (await Promise.race([
        page.evaluate(() => document.title.length >= 0),
        new Promise<false>((ok) => setTimeout(() => ok(false), 5_000)),
      ]).catch(() => false));
    let pages: number | null = null;
    let status: string = outcome;
    let notices: string[] = [];
    let shot: string | null = null;
    if (alive) {
      const row = await page
        .locator('.dataset-list li')
        .evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ')));
      const n = /([\d,]+) pages/.exec(row[0] ?? '');
      pages = n ? Number(n[1].replace(/,/g, '')) : 0;
      status = await page
        .locator('.dataset-list .badge')
        .evaluateAll((e) => e[0]?.textContent ?? 'no dataset');
      notices = await page.locator('.notice-text').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
      mkdirSync(SHOTS, { recursive: true });
      shot = join(SHOTS, `hostile-${c.name.replace(/\W+/g, '-')}.png`);
      await page.screenshot({ path: shot });
    }
    return { seconds, peakMB: peak, alive, outcome, pages, status, notices, shot };
  } finally {
    clearInterval(timer);
    await app.close().catch((e: Error) => console.log(`  ${c.name}: ${e.message.slice(0, 300)}`));
  }
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as { port: number }).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

/** The workbench as the README starts it, on PORT or a free port. */
async function startApp(): Promise<{ url: string; stop(): void }> {
  return npmStart(String(process.env.PORT ?? (await freePort())));
}

process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
const dir = mkdtempSync(join(tmpdir(), 'dw-hostile-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const sizes = small ? TEST_SIZES : TRIAL_SIZES;
console.log(
  `Hostile corpus at ${small ? 'the test' : 'the trial'}'s sizes (bombs ${sizes.bomb / 2 ** 20} MiB, ${sizes.after.toLocaleString('en-US')} records after a bad length, a ${sizes.line / 2 ** 20} MiB line) in ${dir}`,
);
const cases = writeHostileCorpus(dir, sizes).filter(
  (c) => only.length === 0 || only.some((o) => c.name.startsWith(o)),
);

const cli = new Map<string, CliRead>();
for (const c of cases) {
  cli.set(c.name, inCli(c));
  process.stdout.write(`  CLI ${c.name} done\n`);
}
const app = await startApp();
console.log(`Chromium: \`npm start\` serves ${app.url}`);
const browser = new Map<string, BrowserRead>();
try {
  for (const c of cases) {
    browser.set(c.name, await inChromium(c, app.url));
    process.stdout.write(`  Chromium ${c.name} done\n`);
  }
} finally {
  app.stop();
}

const mb = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '—');
const cols = [
  'case',
  'CLI s',
  'CLI peak MB',
  'CLI pages kept ok?',
  'Chromium s',
  'renderer peak MB',
  'tab alive',
  'pages',
  'goals',
];
const rows: string[][] = [];
const failed: string[] = [];
for (const c of cases) {
  const n = cli.get(c.name)!;
  const b = browser.get(c.name)!;
  const missed = [
    ...(n.failure || !(n.peakMB < GOAL_CLI_MB) ? ['CLI < 1 GB'] : []),
    ...(!(b.peakMB < GOAL_RENDERER_MB) ? ['renderer < 1.5 GB'] : []),
    ...(!b.alive || b.outcome !== 'done' ? [b.alive ? `tab alive (${b.outcome})` : 'tab alive'] : []),
  ];
  if (missed.length) failed.push(`${c.name} (${missed.join(', ')})`);
  rows.push([
    c.name,
    n.failure ? n.failure : (n.ms / 1000).toFixed(2),
    mb(n.peakMB),
    n.ok ? 'yes' : `NO (lost ${n.lost.length})`,
    b.outcome === 'timeout' ? `> ${LIMIT_MS / 1000}` : b.seconds.toFixed(2),
    mb(b.peakMB),
    b.alive ? 'yes' : 'NO',
    b.pages === null ? '—' : `${b.pages.toLocaleString('en-US')} (CLI ${n.pages.toLocaleString('en-US')})`,
    missed.length ? `NOT met: ${missed.join(', ')}` : 'met',
  ]);
}
const width = cols.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r: string[]) => `| ${r.map((x, i) => x.padEnd(width[i])).join(' | ')} |`;
console.log(`\n${line(cols)}\n|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
console.log('\nWhat each read said (CLI: the message the case expects; Chromium: status and notices):');
for (const c of cases) {
  const n = cli.get(c.name)!;
  const b = browser.get(c.name)!;
  console.log(`  ${c.name}`);
  if (n.said) console.log(`    CLI:      ${n.said.slice(0, 200)}`);
  if (n.lost.length) console.log(`    CLI lost: ${n.lost.join(' ')}`);
  console.log(`    Chromium: ${b.status}${b.notices.map((t) => ` · ${t.slice(0, 200)}`).join('')}`);
  if (b.shot) console.log(`    screenshot: ${b.shot}`);
}
console.log(
  `\nGoals (CLI < 1 GB, renderer < 1.5 GB, tab alive): ${failed.length ? `NOT met in ${failed.length} of ${cases.length} cases: ${failed.join('; ')}` : `met in all ${cases.length} cases`}`,
);
