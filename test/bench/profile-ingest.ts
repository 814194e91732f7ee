/**
 * `npx tsx test/bench/profile-ingest.ts [FILE…]`: where the browser spends an ingest. Builds the app
 * unminified into /tmp/prof-dist, drops FILE into it in headless Chromium (as test/bench/ingest.ts does)
 * and records a V8 CPU profile (100 µs sampling) of the page's main thread and of every dedicated worker,
 * nested ones included (the ingest worker and the part worker it spawns for a large file). Workers are
 * reached with CDP auto-attach in non-flat mode: Target.setAutoAttach on the page's session, then again
 * inside each worker's session, all messages wrapped in Target.sendMessageToTarget.
 *
 * The app terminates its workers as soon as the job ends, which would lose their profiles; so
 * `Worker.prototype.terminate` is held back (in the page by an init script, in each worker by an
 * evaluation while it waits for the debugger) until the profiles are collected. Nothing else changes.
 *
 * Besides the profiles: utime+stime of every thread of every Chromium process (from /proc, sampled
 * every 100 ms, so threads that end are still counted), which shows what the IndexedDB backend costs in
 * the browser process, outside the renderer the profiles see.
 *
 * Without FILE: ../shared/datasets/docsite/crawl.warc.gz and .bench/generated-210mb.warc.gz.
 * Profiles are saved to /tmp/prof-out/<file>-<thread>.cpuprofile (open them in DevTools); given a
 * .cpuprofile instead of a crawl, its breakdown is printed again.
 *
 * - PROF_NOBUILD=1 reuses /tmp/prof-dist (the tree is shared: the build says which commit and which
 *   uncommitted src files it holds).
 * - PROF_WAIT_MS=4000: drop that long after the page opened (the spare worker idle, as an analyst's drop
 *   finds it), not at once.
 * - PROF_CDP=0: no profiler, no attach, only the /proc figures (profiling at 100 µs slows the ingest
 *   by a third or more).
 * - PROF_TRACE=1: a Chromium trace as well (tasks of every thread with their posting site, IndexedDB's
 *   events in the renderer and the browser), saved as /tmp/prof-out/<file>-trace.json; for a long run
 *   set PROF_TRACE_CATS=IndexedDB,leveldb (every task of a 45 s run is more JSON than Node can parse).
 *
 * Reading the numbers: the V8 sampler counts wall time, so a thread that is runnable but waiting for a
 * core counts as busy. On a machine with few cores (the IndexedDB backend takes one core's worth in the
 * browser process) the profiles give the split of a thread's time; the /proc figures give its CPU.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { CDPSession } from 'playwright-core';
import { SourceMapConsumer } from 'source-map-js';
import { dropGivenFile, giveFileToPage, launch, newestDataset, serveDir } from '../e2e/harness';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = '/tmp/prof-dist';
const OUT = '/tmp/prof-out';
const TOP = 30;

// ---------------------------------------------------------------------------------------------------
// CDP channels: the page's Playwright session, and worker sessions reached through it (non-flat mode).

type Params = Record<string, unknown>;
interface Channel {
  send<T = unknown>(method: string, params?: Params): Promise<T>;
  on(event: string, fn: (params: Params) => void): void;
}

function pageChannel(s: CDPSession): Channel {
  return {
    send: (method, params) => (s.send as (m: string, p?: Params) => Promise<never>)(method, params),
    on: (event, fn) => (s.on as (e: string, f: (p: Params) => void) => void)(event, fn),
  };
}

/** A target attached under `parent`: requests and events travel wrapped in the parent's Target domain. */
function childChannel(parent: Channel, sessionId: string): Channel {
  let next = 0;
  const pending = new Map<number, { ok: (v: never) => void; ko: (e: Error) => void }>();
  const listeners = new Map<string, ((p: Params) => void)[]>();
  parent.on('Target.receivedMessageFromTarget', (p) => {
    if (p.sessionId !== sessionId) return;
    const m = JSON.parse(p.message as string) as {
      id?: number;
      result?: never;
      error?: { message: string };
      method?: string;
      params?: Params;
    };
    if (m.id !== undefined) {
      const w = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) w?.ko(new Error(m.error.message));
      else w?.ok(m.result as never);
    } else if (m.method) for (const fn of listeners.get(m.method) ?? []) fn(m.params ?? {});
  });
  return {
    send: (method, params) =>
      new Promise((ok, ko) => {
        const id = ++next;
        // A target that ends never answers: fail instead of waiting forever.
        const timer = setTimeout(() => {
          pending.delete(id);
          ko(new Error(`${method}: no answer in 60 s`));
        }, 60_000);
        pending.set(id, {
          ok: ((v: never) => (clearTimeout(timer), ok(v))) as (v: never) => void,
          ko: (e) => (clearTimeout(timer), ko(e)),
        });
        parent
          .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
          .catch(ko);
      }),
    on: (event, fn) => listeners.set(event, [...(listeners.get(event) ?? []), fn]),
  };
}

/**
 * Hold back Worker#terminate until `__releaseWorkers()`: the app ends its workers the moment a job is
 * done, and a terminated worker's profile cannot be stopped and fetched any more.
 */
function holdTerminate(): void {
  const g = globalThis as unknown as {
    Worker?: { prototype: { terminate(): void } };
    __held?: { terminate(): void }[];
    __terminateAt?: number[];
    __releaseWorkers?: () => number;
  };
  if (!g.Worker || g.__held) return;
  const real = g.Worker.prototype.terminate;
  g.__held = [];
  g.__terminateAt = [];
  g.Worker.prototype.terminate = function (this: { terminate(): void }) {
    g.__held!.push(this);
    g.__terminateAt!.push(performance.now());
  };
  g.__releaseWorkers = () => {
    for (const w of g.__held!) real.call(w);
    return g.__held!.length;
  };
}

interface Profiled {
  name: string;
  url: string;
  chan: Channel;
  attachedAt: number;
}

const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: false };

async function startProfile(chan: Channel): Promise<void> {
  await chan.send('Profiler.enable');
  await chan.send('Profiler.setSamplingInterval', { interval: 100 });
  await chan.send('Profiler.start');
}

/** Attach to every worker under `chan` (recursively), profile it and keep its terminate held. */
function watchWorkers(chan: Channel, into: Profiled[], depth: number): void {
  chan.on('Target.attachedToTarget', (p) => {
    const info = p.targetInfo as { type: string; url: string; title: string };
    const c = childChannel(chan, p.sessionId as string);
    const entry: Profiled = {
      name: `${depth === 0 ? 'worker' : 'nested worker'} ${basename(info.url).replace(/-[\w-]{8}\.js$/, '')} #${into.length}`,
      url: info.url,
      chan: c,
      attachedAt: Date.now(),
    };
    into.push(entry);
    void (async () => {
      try {
        await c.send('Runtime.evaluate', { expression: `(${holdTerminate.toString()})()` });
        await startProfile(c);
        watchWorkers(c, into, depth + 1);
        await c.send('Target.setAutoAttach', AUTO_ATTACH);
      } catch (e) {
        console.error(`profiling ${info.type} ${info.url} failed: ${String(e)}`);
      } finally {
        await c.send('Runtime.runIfWaitingForDebugger').catch(() => {});
      }
    })();
  });
}

// ---------------------------------------------------------------------------------------------------
// /proc: CPU seconds of every thread of every Chromium process under this Node process.

const HZ = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

interface CpuRow {
  proc: string;
  thread: string;
  pid: number;
  seconds: number;
  timeline: string;
}

interface ThreadCpu {
  pid: number;
  proc: string;
  thread: string;
  ticks: number;
}

function statOf(path: string): { comm: string; ppid: number; ticks: number } | null {
  try {
    const s = readFileSync(path, 'utf8');
    const close = s.lastIndexOf(')');
    const comm = s.slice(s.indexOf('(') + 1, close);
    const f = s
      .slice(close + 2)
      .split(' ')
      .map(Number);
    // Fields after the name: state ppid … utime is field 14, stime 15 (1-based over the whole line).
    return { comm, ppid: f[1], ticks: f[11] + f[12] };
  } catch {
    return null;
  }
}

function descendants(root: number): number[] {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = statOf(`/proc/${d}/stat`);
    if (st) kids.set(st.ppid, [...(kids.get(st.ppid) ?? []), Number(d)]);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const k of kids.get(p) ?? []) {
      out.push(k);
      walk(k);
    }
  };
  walk(root);
  return out;
}

function procKind(pid: number): string {
  try {
    // Chromium rewrites its children's command lines into one space-separated string.
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    if (!/chrom/.test(cmd[0])) return '';
    const type = cmd.find((a) => a.startsWith('--type='))?.slice(7);
    const sub = cmd.find((a) => a.startsWith('--utility-sub-type='))?.slice(19);
    return type ? (sub ? `${type}:${sub.replace(/\.mojom\..*/, '')}` : type) : 'browser';
  } catch {
    return '';
  }
}

/** Samples all Chromium threads; a thread's last reading stays once it ends. */
class CpuWatch {
  /** Each sample's time and the ticks of every thread then: the per-thread timeline. */
  private series: { at: number; ticks: Map<string, number> }[] = [];
  private first = new Map<string, ThreadCpu>();
  private last = new Map<string, ThreadCpu>();
  private timer: NodeJS.Timeout | null = null;
  private kinds = new Map<number, string>();

  sample(): void {
    const now = new Map<string, number>();
    this.series.push({ at: performance.now(), ticks: now });
    for (const pid of descendants(process.pid)) {
      if (!this.kinds.has(pid)) this.kinds.set(pid, procKind(pid));
      const proc = this.kinds.get(pid)!;
      if (!proc) continue;
      let tids: string[];
      try {
        tids = readdirSync(`/proc/${pid}/task`);
      } catch {
        continue;
      }
      for (const tid of tids) {
        const st = statOf(`/proc/${pid}/task/${tid}/stat`);
        if (!st) continue;
        const key = `${pid}/${tid}`;
        const t = { pid, proc, thread: st.comm, ticks: st.ticks };
        // A thread first seen after the start began at zero: all of its time counts.
        if (!this.first.has(key)) this.first.set(key, this.timer ? { ...t, ticks: 0 } : t);
        this.last.set(key, t);
        now.set(key, st.ticks);
      }
    }
  }

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), 100);
  }

  stop(): CpuRow[] {
    this.sample();
    if (this.timer) clearInterval(this.timer);
    const rows: CpuRow[] = [];
    const t0 = this.series[0].at;
    const width = (this.series[this.series.length - 1].at - t0) / 10;
    for (const [key, t] of this.last) {
      const d = (t.ticks - (this.first.get(key)?.ticks ?? 0)) / HZ;
      if (d <= 0) continue;
      // CPU % of one core in each tenth of the run, from the 100 ms readings (a gap is a thread not alive).
      const slices = new Array<number>(10).fill(0);
      let prev = this.first.get(key)!.ticks;
      for (const s of this.series.slice(1)) {
        const v = s.ticks.get(key);
        if (v === undefined) continue;
        slices[Math.min(9, Math.floor((s.at - t0) / width))] += v - prev;
        prev = v;
      }
      const timeline = slices
        .map((x) => `${Math.round((100 * x) / HZ / (width / 1000))}`.padStart(4))
        .join('');
      rows.push({ proc: t.proc, thread: t.thread, pid: t.pid, seconds: d, timeline });
    }
    return rows;
  }
}

// ---------------------------------------------------------------------------------------------------
// Chromium trace: every task of every thread ("toplevel"), IndexedDB's own events, the worker threads'
// names. A task's posting site (src_file/src_func) says what a browser thread-pool thread was doing.

const TRACE_CONFIG = {
  transferMode: 'ReturnAsStream',
  traceConfig: {
    recordMode: 'recordAsMuchAsPossible',
    // PROF_TRACE_CATS=IndexedDB,leveldb for a long run: every task of every thread is too much to parse.
    includedCategories: process.env.PROF_TRACE_CATS?.split(',') ?? [
      'toplevel',
      'IndexedDB',
      'leveldb',
      'disabled-by-default-devtools.timeline',
    ],
  },
};

interface TraceEvent {
  ph: string;
  name: string;
  cat: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: Record<string, unknown>;
}

async function stopTrace(root: Channel): Promise<TraceEvent[]> {
  const done = new Promise<string>((ok) => root.on('Tracing.tracingComplete', (p) => ok(p.stream as string)));
  await root.send('Tracing.end');
  const stream = await done;
  const parts: string[] = [];
  for (;;) {
    const r = await root.send<{ data: string; eof: boolean; base64Encoded?: boolean }>('IO.read', {
      handle: stream,
      size: 1 << 22,
    });
    parts.push(r.base64Encoded ? Buffer.from(r.data, 'base64').toString('utf8') : r.data);
    if (r.eof) break;
  }
  await root.send('IO.close', { handle: stream });
  const json = JSON.parse(parts.join('')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(json) ? json : (json.traceEvents ?? []);
}

/** Per thread: time in top-level tasks (busy) and the posting sites that took most of it. */
function printTrace(events: TraceEvent[]): void {
  const names = new Map<string, string>();
  const procs = new Map<number, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'thread_name') names.set(`${e.pid}/${e.tid}`, String(e.args?.name));
    if (e.name === 'process_name') procs.set(e.pid, String(e.args?.name));
  }
  const threads = new Map<string, { busy: number; first: number; last: number; by: Map<string, number> }>();
  const idb = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    const key = `${e.pid}/${e.tid}`;
    if (/IndexedDB|leveldb/.test(e.cat)) {
      const k = `${procs.get(e.pid) ?? e.pid} ${names.get(key) ?? e.tid}: ${e.name}`;
      idb.set(k, (idb.get(k) ?? 0) + e.dur);
    }
    if (e.cat !== 'toplevel') continue;
    const t = threads.get(key) ?? { busy: 0, first: e.ts, last: e.ts, by: new Map() };
    t.busy += e.dur;
    t.first = Math.min(t.first, e.ts);
    t.last = Math.max(t.last, e.ts + e.dur);
    const src = e.args?.src_func
      ? `${String(e.args.src_file ?? '').replace(/^.*\/(?=[^/]+\/[^/]+$)/, '')}:${String(e.args.src_func)}`
      : e.name;
    t.by.set(src, (t.by.get(src) ?? 0) + e.dur);
    threads.set(key, t);
  }
  console.log(
    '\n  trace: time in top-level tasks per thread (s), then the posting sites that took most of it',
  );
  for (const [key, t] of [...threads].sort((a, b) => b[1].busy - a[1].busy).slice(0, 12)) {
    const pid = Number(key.split('/')[0]);
    console.log(
      `    ${(t.busy / 1e6).toFixed(2).padStart(7)} s  ${(procs.get(pid) ?? String(pid)).slice(0, 12).padEnd(12)} ${(names.get(key) ?? key).slice(0, 28).padEnd(28)} (active ${((t.last - t.first) / 1e6).toFixed(2)} s)`,
    );
    for (const [src, us] of [...t.by].sort((a, b) => b[1] - a[1]).slice(0, 4))
      console.log(`             ${(us / 1e6).toFixed(2).padStart(6)} s  ${src.slice(0, 100)}`);
  }
  console.log('  trace: IndexedDB/leveldb events (s, nested events counted in each)');
  for (const [k, us] of [...idb].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`    ${(us / 1e6).toFixed(2).padStart(7)} s  ${k.slice(0, 110)}`);
}

// ---------------------------------------------------------------------------------------------------
// Profile analysis: self time per function (mapped to the original source through the build's source
// maps), grouped into categories.

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, SourceMapConsumer | null>();
function sourceOf(f: CallFrame): string {
  const m = /\/assets\/([^/?#]+\.js)/.exec(f.url);
  if (!m) return '';
  if (!maps.has(m[1])) {
    const p = join(DIST, 'assets', `${m[1]}.map`);
    maps.set(m[1], existsSync(p) ? new SourceMapConsumer(JSON.parse(readFileSync(p, 'utf8'))) : null);
  }
  const c = maps.get(m[1]);
  if (!c || f.lineNumber < 0) return '';
  const o = c.originalPositionFor({ line: f.lineNumber + 1, column: Math.max(0, f.columnNumber) });
  return o.source ? `${o.source.replace(/^(\.\.\/)+/, '')}:${o.line}` : '';
}

const CATEGORIES: [string, (fn: string, src: string) => boolean][] = [
  ['idle', (fn) => fn === '(idle)'],
  ['GC', (fn) => fn === '(garbage collector)'],
  ['(program): native, not JS', (fn) => fn === '(program)'],
  [
    'inflate (fflate, DecompressionStream via gzip.ts)',
    (_, s) => /fflate|core\/ingest\/gzip(-member|-native)?\.ts/.test(s),
  ],
  ['HTML tokenizer/extractor', (_, s) => /htmlparser2|entities\/|core\/html\//.test(s)],
  ['charset decode', (fn, s) => /core\/text\/charset\.ts/.test(s) || (!s && fn === 'decode')],
  ['fingerprint', (_, s) => /core\/text\/(fingerprint|template|tokens)\.ts|core\/signatures\//.test(s)],
  [
    'payload digest (SHA-1: hash-wasm, sha1.ts)',
    (fn, s) => /core\/text\/sha1\.ts|hash-wasm|^wasm:/.test(s) || fn === 'computeDigest',
  ],
  [
    'structured clone / IndexedDB / Dexie',
    (fn, s) =>
      /dexie|src\/db\//.test(s) ||
      (!s && /^(put|add|get|getAll|bulkPut|bulkAdd|transaction|objectStore|structuredClone)$/.test(fn)),
  ],
  ['Comlink/postMessage', (fn, s) => /comlink/.test(s) || (!s && fn === 'postMessage')],
  ['WARC/HTTP records, pipeline', (_, s) => /core\/ingest\/|core\/url\/|workers\/ingest/.test(s)],
  ['UI (React, D3, zustand, app)', (_, s) => /react|scheduler|d3-|zustand|src\/ui|src\/state/.test(s)],
  ['other', () => true],
];

interface Breakdown {
  name: string;
  /** Busy share (not idle) of each tenth of [from, to] (the main thread's profile span), in %. */
  timeline: string;
  wallMs: number;
  busyMs: number;
  categories: Map<string, number>;
  top: { ms: number; fn: string; where: string }[];
}

function analyse(name: string, p: CpuProfile, from: number, to: number): Breakdown {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const t: number[] = [];
  let at = p.startTime;
  for (const d of p.timeDeltas) t.push((at += d));
  const idleId = p.nodes.find((n) => n.callFrame.functionName === '(idle)')?.id;
  const slices = new Array<number>(10).fill(0);
  const width = (to - from) / 10;
  for (let i = 0; i < p.samples.length; i++) {
    // A sample stands for the time until the next one (the last: until the profile's end).
    const dt = Math.max(0, (i + 1 < t.length ? t[i + 1] : p.endTime) - t[i]);
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + dt);
    const k = Math.floor((t[i] - from) / width);
    if (p.samples[i] !== idleId && k >= 0 && k < 10) slices[k] += dt;
  }
  // Before the thread existed or after its profile ended counts as "-", not as idle.
  const timeline = slices
    .map((us, k) =>
      from + (k + 1) * width < p.startTime || from + k * width > p.endTime
        ? '   -'
        : `${Math.round((100 * us) / width)}`.padStart(4),
    )
    .join('');
  const fnTime = new Map<string, { ms: number; fn: string; where: string }>();
  const categories = new Map<string, number>(CATEGORIES.map(([c]) => [c, 0]));
  let busy = 0;
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    const src = sourceOf(f);
    const fn = f.functionName || '(anonymous)';
    const cat = CATEGORIES.find(([, test]) => test(fn, src))![0];
    categories.set(cat, categories.get(cat)! + us / 1000);
    if (cat !== 'idle') busy += us / 1000;
    const where = f.url ? `${basename(f.url)}:${f.lineNumber + 1}${src ? ` (${src})` : ''}` : '(native)';
    const key = `${fn}@${where}`;
    const e = fnTime.get(key) ?? { ms: 0, fn, where };
    e.ms += us / 1000;
    fnTime.set(key, e);
  }
  const top = [...fnTime.values()].sort((a, b) => b.ms - a.ms).slice(0, TOP);
  return { name, timeline, wallMs: (p.endTime - p.startTime) / 1000, busyMs: busy, categories, top };
}

function printBreakdown(b: Breakdown): void {
  const pct = (ms: number) => `${((100 * ms) / b.wallMs).toFixed(1).padStart(5)}%`;
  console.log(
    `\n  ${b.name}: wall ${(b.wallMs / 1000).toFixed(2)} s, sampled non-idle ${(b.busyMs / 1000).toFixed(2)} s` +
      ` (of which (program) ${(b.categories.get('(program): native, not JS')! / 1000).toFixed(2)} s)`,
  );
  console.log(`    busy % per tenth of the main thread's profile: ${b.timeline}`);
  console.log('    category                                          ms   % wall');
  for (const [c, ms] of [...b.categories].sort((x, y) => y[1] - x[1]))
    if (ms > 0) console.log(`    ${c.padEnd(44)} ${ms.toFixed(0).padStart(7)} ${pct(ms)}`);
  console.log(`    top ${TOP} self time:`);
  for (const f of b.top)
    console.log(
      `    ${f.ms.toFixed(1).padStart(8)} ms ${pct(f.ms)}  ${f.fn.slice(0, 40).padEnd(40)} ${f.where}`,
    );
}

// ---------------------------------------------------------------------------------------------------

async function profileFile(file: string): Promise<void> {
  const app = await serveDir(DIST);
  const b = await launch();
  const cpu = new CpuWatch();
  try {
    await b.context.addInitScript(`(${holdTerminate.toString()})()`);
    await b.page.goto(app.url);
    await giveFileToPage(b.page, file);
    // PROF_WAIT_MS: drop this long after the page opened (its spare worker idle and warm, as an analyst's
    // drop is) instead of at once, as bench:ingest does.
    await new Promise((ok) => setTimeout(ok, Number(process.env.PROF_WAIT_MS ?? 0)));

    const session = await b.context.newCDPSession(b.page);
    const root = pageChannel(session);
    const workers: Profiled[] = [];
    // PROF_CDP=0: no profiler, no attach; the /proc figures alone, as a baseline without the profiling cost.
    const profiling = process.env.PROF_CDP !== '0';
    if (profiling) {
      watchWorkers(root, workers, 0);
      await root.send('Target.setAutoAttach', AUTO_ATTACH);
      await startProfile(root);
    }
    // PROF_TRACE=1: a Chromium trace too (task-level, every process the page uses, the browser's included).
    const tracing = process.env.PROF_TRACE === '1';
    if (tracing) await root.send('Tracing.start', TRACE_CONFIG);
    cpu.start();
    const t0 = Date.now();
    const seconds = await dropGivenFile(b.page);
    const threads = cpu.stop();
    const trace = tracing ? await stopTrace(root) : null;
    const wallAll = (Date.now() - t0) / 1000;

    const profiles: { name: string; profile: CpuProfile }[] = [];
    for (const w of workers) {
      try {
        const { profile } = await w.chan.send<{ profile: CpuProfile }>('Profiler.stop');
        profiles.push({ name: w.name, profile });
      } catch (e) {
        console.error(`  ${w.name}: no profile (${String(e)})`);
      }
    }
    const mainProfile = profiling
      ? (await root.send<{ profile: CpuProfile }>('Profiler.stop')).profile
      : null;
    if (mainProfile) profiles.unshift({ name: 'main thread', profile: mainProfile });
    let released = 0;
    // Deepest first: releasing a worker's held workers ends them, and a dead target never answers.
    for (const w of [...workers].reverse()) {
      const r = await w.chan
        .send<{ result: { value?: number } }>('Runtime.evaluate', {
          expression: 'globalThis.__releaseWorkers?.() ?? 0',
          returnByValue: true,
        })
        .catch(() => null);
      released += r?.result.value ?? 0;
    }
    released += await b.page.evaluate(
      () => (globalThis as unknown as { __releaseWorkers?: () => number }).__releaseWorkers?.() ?? 0,
    );

    const timing = await newestDataset(b.page);

    console.log(
      `\n=== ${file}\n  ingest ${seconds.toFixed(2)} s in the page (drop → dataset done; ${wallAll.toFixed(2)} s with the driver);` +
        ` in the worker ${(timing.elapsedMs / 1000).toFixed(2)} s, of which awaiting IndexedDB ${(timing.storeMs / 1000).toFixed(2)} s;` +
        ` ${timing.pages} pages, ${(timing.bytesDecoded / 1e6).toFixed(1)} MB decoded; ${workers.length} workers attached, ${released} terminations held`,
    );
    console.log(
      '  (profiling at 100 µs costs time itself: compare the wall figures with npm run bench:ingest)',
    );

    mkdirSync(OUT, { recursive: true });
    const stem = basename(file).replace(/\.warc\.gz$/, '');
    for (const { name, profile } of profiles) {
      const out = join(OUT, `${stem}-${name.replace(/[^\w.-]+/g, '_')}.cpuprofile`);
      writeFileSync(out, JSON.stringify(profile));
      printBreakdown(analyse(name, profile, mainProfile!.startTime, mainProfile!.endTime));
      console.log(`    saved ${out}`);
    }

    // CPU by process (and the busiest threads): the renderer runs the page and its workers; IndexedDB's
    // backend (LevelDB/SQLite, the blob writes) runs in the browser process.
    const byProc = new Map<string, number>();
    for (const r of threads) {
      const k = `${r.proc} (pid ${r.pid})`;
      byProc.set(k, (byProc.get(k) ?? 0) + r.seconds);
    }
    const total = [...byProc.values()].reduce((a, x) => a + x, 0);
    console.log(
      `\n  CPU seconds by Chromium process over the ingest (${wallAll.toFixed(2)} s wall; ${total.toFixed(2)} s CPU in all):`,
    );
    for (const [k, s] of [...byProc].sort((x, y) => y[1] - x[1]))
      console.log(`    ${s.toFixed(2).padStart(7)} s  ${k}`);
    console.log('  busiest threads (CPU s; then % of a core in each tenth of the run):');
    for (const r of threads.sort((x, y) => y.seconds - x.seconds).slice(0, 16))
      console.log(
        `    ${r.seconds.toFixed(2).padStart(7)} s  ${r.proc.slice(0, 20).padEnd(20)} ${r.thread.padEnd(16)} ${r.timeline}`,
      );
    if (trace) {
      const out = join(OUT, `${basename(file).replace(/\.warc\.gz$/, '')}-trace.json`);
      writeFileSync(out, JSON.stringify({ traceEvents: trace }));
      printTrace(trace);
      console.log(`  saved ${out}`);
    }
  } finally {
    await b.close();
    await app.close();
  }
}

const files = process.argv.slice(2);
if (
  (files.length === 0 || !files.every((f) => f.endsWith('.cpuprofile'))) &&
  (process.env.PROF_NOBUILD !== '1' || !existsSync(join(DIST, 'index.html')))
) {
  console.log(`building into ${DIST} (unminified, with source maps)…`);
  execFileSync('npx', ['vite', 'build', '--minify', 'false', '--outDir', DIST, '--emptyOutDir'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // The tree is shared: say what was built (the commit, and src files changed but not committed).
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
  const dirty = execFileSync('git', ['status', '--porcelain', 'src'], { cwd: ROOT }).toString().trim();
  console.log(
    `built ${head}${dirty ? `, with uncommitted changes in: ${dirty.replace(/\s*\n\s*/g, ', ')}` : ''}`,
  );
}
if (files.length === 0) {
  files.push(
    resolve(ROOT, '../shared/datasets/docsite/crawl.warc.gz'),
    join(ROOT, '.bench/generated-210mb.warc.gz'),
  );
}
for (const f of files) {
  // A saved profile: print its breakdown again (the build in /tmp/prof-dist maps it to the sources).
  if (f.endsWith('.cpuprofile')) {
    const p = JSON.parse(readFileSync(f, 'utf8')) as CpuProfile;
    printBreakdown(analyse(basename(f), p, p.startTime, p.endTime));
  } else await profileFile(f);
}
