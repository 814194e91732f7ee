/**
 * A large multi-file crawl for `npm run bench:large-crawl`, generated at run time (never committed):
 * sites of heavy-tailed sizes in directories of 50 pages, with planted exact copies and near copies
 * (two paragraphs of ~90 changed) of an earlier page of the same directory (1 in 10: of the site), DUST aliases (`?sid=N` on the same page), and mirror sites; the records interleaved
 * across sites as a crawler writes them, cut into files of ~1 GB, one gzip member per response record;
 * beside them the CDXJ index (pywb's fields) and the truth: each page's near-duplicate group.
 *
 * Every record is a pure function of (seed, its place in the crawl plan), so the files are written by
 * one worker thread per core. Kept in DIR with a manifest and reused when the same plan is asked for.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { mix32 } from '../../src/core/hash';
import { seededRandom } from '../../src/core/random';
import { base32 } from '../../src/core/text/sha1';

export interface LargeCrawl {
  dir: string;
  files: string[];
  index: string;
  truth: string;
  records: number;
  bytes: number;
}

/** Record kinds of the plan. */
const ORIGINAL = 0;
const EXACT = 1;
const NEAR = 2;
const ALIAS = 3;
const MIRROR = 4;

interface Plan {
  seed: number;
  /** Per record: site, page, kind, and the page whose text it is (its group). */
  site: Int32Array;
  page: Int32Array;
  kind: Uint8Array;
  source: Int32Array;
  /** Records of each file: [start, end) into the shuffled order. */
  order: Uint32Array;
  cuts: number[];
}

function buildPlan(seed: number, targetBytes: number, files: number): Plan {
  const rnd = seededRandom(seed);
  const perRecord = 18_000; // ~bytes of a gzip member of a ~70 KB page at level 1 (18.5 KB measured)
  const target = Math.ceil(targetBytes / perRecord);
  const site: number[] = [];
  const page: number[] = [];
  const kind: number[] = [];
  const source: number[] = [];
  for (let s = 0; site.length < target; s++) {
    const size = Math.min(20_000, Math.max(1, Math.floor(20 * (1 / (1 - rnd())) ** (1 / 1.2))));
    const alias = rnd() < 0.1;
    const mirrored = rnd() < 0.03;
    const start = site.length;
    // The page whose text each page of the site has (its near-duplicate group). A copy is of an
    // earlier page of its own directory, or 1 in 10 of any earlier page of the site.
    const own: number[] = [];
    const earlier = (p: number) => {
      const dirStart = p - (p % DIR_PAGES);
      return rnd() < 0.1 || dirStart === p
        ? Math.floor(rnd() * p)
        : dirStart + Math.floor(rnd() * (p - dirStart));
    };
    for (let p = 0; p < size; p++) {
      const r = rnd();
      let k = ORIGINAL;
      let from = p;
      if (p > 0 && r < 0.08) {
        k = EXACT;
        from = own[earlier(p)];
      } else if (p > 0 && r < 0.16) {
        k = NEAR;
        from = own[earlier(p)];
      }
      own.push(from);
      site.push(s);
      page.push(p);
      kind.push(k);
      source.push(from);
      if (alias && rnd() < 0.3) {
        site.push(s);
        page.push(p);
        kind.push(ALIAS);
        source.push(from);
      }
    }
    if (mirrored)
      for (let i = start, end = site.length; i < end; i++)
        if (kind[i] !== ALIAS) {
          site.push(s);
          page.push(page[i]);
          kind.push(MIRROR);
          source.push(source[i]);
        }
  }
  const n = site.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  const cuts = Array.from({ length: files + 1 }, (_, f) => Math.round((f * n) / files));
  return {
    seed,
    site: Int32Array.from(site),
    page: Int32Array.from(page),
    kind: Uint8Array.from(kind),
    source: Int32Array.from(source),
    order,
    cuts,
  };
}

const SYL = 'ka lo mi ne ru sa ti vo pe da gu ri ho ze ma ni ko la be to fi su ra de no'.split(' ');

/** 30,000 paragraphs of pseudo-words (Zipf-like choice), the text pages are made of. */
function paragraphs(seed: number): string[] {
  const rnd = seededRandom(seed ^ 0x5bd1e995);
  const words: string[] = [];
  for (let i = 0; i < 8000; i++) {
    let w = '';
    for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) w += SYL[Math.floor(rnd() * SYL.length)];
    words.push(w);
  }
  return Array.from({ length: 30_000 }, () => {
    const ws: string[] = [];
    for (let k = 40 + Math.floor(rnd() * 120); k > 0; k--)
      ws.push(words[Math.floor(words.length * rnd() ** 3)]);
    return `<p>${ws.join(' ')}.</p>`;
  });
}

const DIR_PAGES = 50;
const pageUrl = (host: string, p: number) => `https://${host}/d${Math.floor(p / DIR_PAGES)}/p${p}.html`;

/** The HTML of (site, page) made from `text` (its group's page), changed when it is a near copy. */
function html(paras: string[], seed: number, site: number, text: number, near: number): string {
  let h = mix32(seed ^ Math.imul(site + 1, 0x9e3779b1) ^ Math.imul(text + 1, 0x85ebca6b)) >>> 0;
  const next = () => (h = mix32(h + 0x6d2b79f5) >>> 0);
  const n = 70 + (next() % 40);
  const picks: string[] = [];
  for (let k = 0; k < n; k++) picks.push(paras[next() % paras.length]);
  if (near >= 0) {
    let g = mix32(near * 0x27d4eb2d + site) >>> 0;
    for (let c = 0; c < 2; c++) {
      g = mix32(g + 0x6d2b79f5) >>> 0;
      picks[g % n] = paras[(g >>> 8) % paras.length];
    }
  }
  const nav = Array.from(
    { length: 10 },
    (_, k) => `<li><a href="/d${k}/p${k * 7}.html">section ${k}</a></li>`,
  ).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>site ${site} page ${text}</title></head><body><nav><ul>${nav}</ul></nav><main><h1>Page ${text} of site ${site}</h1>${picks.join('\n')}</main><footer>site-${site}.example</footer></body></html>`;
}

/** Writes file f of the plan; returns its CDXJ lines and truth lines. */
function writeFile(plan: Plan, dir: string, f: number, paras: string[]): number {
  const name = `crawl-${String(f).padStart(3, '0')}.warc.gz`;
  const fd = openSync(join(dir, name), 'w');
  let offset = 0;
  const cdxj: string[] = [];
  const truth: string[] = [];
  const put = (b: Buffer) => {
    writeSync(fd, b);
    offset += b.length;
  };
  put(
    gzipSync(
      Buffer.from(
        `WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Date: 2024-01-15T10:00:00Z\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-${String(f).padStart(12, '0')}>\r\nContent-Length: 42\r\n\r\nsoftware: dedup-workbench bench generator\n\r\n\r\n`,
      ),
      { level: 1 },
    ),
  );
  for (let k = plan.cuts[f]; k < plan.cuts[f + 1]; k++) {
    const i = plan.order[k];
    const s = plan.site[i];
    const p = plan.page[i];
    const kind = plan.kind[i];
    const host = kind === MIRROR ? `mirror-${s}.example` : `site-${s}.example`;
    const url = pageUrl(host, p) + (kind === ALIAS ? `?sid=${(p * 31) % 997}` : '');
    const body = Buffer.from(html(paras, plan.seed, s, plan.source[i], kind === NEAR ? p : -1));
    const digest = base32(createHash('sha1').update(body).digest());
    const http = Buffer.concat([
      Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n`,
      ),
      body,
    ]);
    const id = createHash('sha1').update(`${plan.seed}:${i}`).digest('hex');
    const head =
      `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: ${url}\r\nWARC-Date: 2024-01-15T10:00:00Z\r\n` +
      `WARC-Record-ID: <urn:uuid:${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}>\r\n` +
      `WARC-Payload-Digest: sha1:${digest}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: ${http.length}\r\n\r\n`;
    const member = gzipSync(Buffer.concat([Buffer.from(head), http, Buffer.from('\r\n\r\n')]), { level: 1 });
    const at = offset;
    put(member);
    cdxj.push(
      `${host.split('.').reverse().join(',')})${new URL(url).pathname} 20240115100000 ${JSON.stringify({
        url,
        mime: 'text/html',
        status: '200',
        digest,
        length: String(member.length),
        offset: String(at),
        filename: name,
      })}`,
    );
    // The near-duplicate group: the site and the page whose text it is (mirrors share their site's).
    truth.push(`${url}\t${digest}\t${s}:${plan.source[i]}`);
  }
  closeSync(fd);
  writeFileSync(join(dir, `part-${f}.cdxj`), cdxj.join('\n') + '\n');
  writeFileSync(join(dir, `part-${f}.truth`), truth.join('\n') + '\n');
  return offset;
}

interface Job {
  plan: Plan;
  dir: string;
  files: number[];
}

if (!isMainThread && (workerData as { largeCrawl?: boolean })?.largeCrawl) {
  const job = (workerData as { job: Job }).job;
  const paras = paragraphs(job.plan.seed);
  for (const f of job.files) {
    parentPort!.postMessage({ f, bytes: writeFile(job.plan, job.dir, f, paras) });
  }
}

/** The crawl in DIR (written unless its manifest says it is there with the same plan). */
export async function generateLargeCrawl(
  dir: string,
  o: { seed: number; targetBytes: number; files: number; log?: (l: string) => void },
): Promise<LargeCrawl> {
  const manifest = join(dir, 'manifest.json');
  const key = JSON.stringify({ seed: o.seed, targetBytes: o.targetBytes, files: o.files, v: 2 });
  if (existsSync(manifest)) {
    const m = JSON.parse(readFileSync(manifest, 'utf8')) as { key: string; crawl: LargeCrawl };
    if (m.key === key) return m.crawl;
  }
  mkdirSync(dir, { recursive: true });
  const plan = buildPlan(o.seed, o.targetBytes, o.files);
  const threads = Math.max(1, Math.min(availableParallelism(), o.files));
  let bytes = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: threads }, (_, t) => {
      const job: Job = {
        plan,
        dir,
        files: Array.from({ length: o.files }, (_, f) => f).filter((f) => f % threads === t),
      };
      return new Promise<void>((ok, ko) => {
        const code = `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(import.meta.url)}); })`;
        const w = new Worker(code, { eval: true, workerData: { largeCrawl: true, job } });
        w.on('message', (m: { f: number; bytes: number }) => {
          bytes += m.bytes;
          o.log?.(`generated ${++done}/${o.files} files, ${(bytes / 1e9).toFixed(1)} GB`);
        });
        w.on('error', ko);
        w.on('exit', (code) => (code === 0 ? ok() : ko(new Error(`generator thread exited ${code}`))));
      });
    }),
  );
  const index = join(dir, 'crawl.cdxj');
  const truthFile = join(dir, 'truth.tsv');
  for (const [out, ext] of [
    [index, 'cdxj'],
    [truthFile, 'truth'],
  ]) {
    const fd = openSync(out, 'w');
    for (let f = 0; f < o.files; f++) {
      const part = join(dir, `part-${f}.${ext}`);
      writeSync(fd, readFileSync(part));
      rmSync(part);
    }
    closeSync(fd);
  }
  const crawl: LargeCrawl = {
    dir,
    files: Array.from({ length: o.files }, (_, f) =>
      join(dir, `crawl-${String(f).padStart(3, '0')}.warc.gz`),
    ),
    index,
    truth: truthFile,
    records: plan.site.length,
    bytes,
  };
  writeFileSync(manifest, JSON.stringify({ key, crawl }, null, 2));
  return crawl;
}
