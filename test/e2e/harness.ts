import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type BrowserContext, type ElementHandle, type Page } from 'playwright-core';
import { after, before } from 'node:test';
import { createGzip } from 'node:zlib';
import { ingest } from '../../src/core/ingest/pipeline';
import { generateWarcGz } from '../bench/gen-warc';

const ROOT = resolve(import.meta.dirname, '../..');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.map': 'application/json',
  '.gz': 'application/gzip',
};

/**
 * The app under test. Under `npm run test:e2e` (test/e2e/run.ts) this is the server the README's own
 * command starts (`npm start`), given in E2E_URL. Benchmarks, which run without that runner, get the same
 * production build (dist/) served in-process.
 */
export async function serve(): Promise<{ url: string; close(): Promise<void> }> {
  if (process.env.E2E_URL) return { url: process.env.E2E_URL, close: async () => {} };
  return serveDir(join(ROOT, 'dist'));
}

/**
 * Serves a directory (a static server with no compression, on a free loopback port). `encode` lets a test
 * imitate servers that compress responses or label `.gz` files with `Content-Encoding: gzip`.
 */
export async function serveDir(
  dir: string,
  encode?: (file: string) => 'gzip-label' | 'gzip' | null,
): Promise<{ url: string; close(): Promise<void> }> {
  if (!existsSync(join(dir, 'index.html')))
    throw new Error(`${dir}/index.html is missing: run \`npm run build\` first`);
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(dir, path === '/' ? 'index.html' : path.slice(1)));
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    const how = encode?.(file) ?? null;
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    };
    if (how) headers['content-encoding'] = 'gzip';
    res.writeHead(200, headers);
    const body = createReadStream(file);
    if (how === 'gzip') body.pipe(createGzip()).pipe(res);
    else body.pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** CSP violations seen by every page launched in this process (e2e tests fail on any). */
export const cspViolations: string[] = [];

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with a fresh profile (so IndexedDB starts empty). */
export async function launch(): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'dw-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Count Content-Security-Policy violations in every page of the run: the suite asserts there are none.
  await context.exposeBinding('__cspViolation', (_src, what: string) => cspViolations.push(what));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __cspViolation?: (s: string) => void };
      w.__cspViolation?.(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
      if (cspViolations.length)
        throw new Error(`Content-Security-Policy violations: ${cspViolations.join(' | ')}`);
    },
  };
}

/**
 * Drop files from disk onto the window, as a user dragging them from the desktop would. The files reach
 * the page through a file input (no server, no size limit), then travel in a DataTransfer as a drop does.
 */
export async function dropFile(page: Page, ...paths: string[]): Promise<void> {
  const input = (await page.evaluateHandle(() => {
    const i = document.createElement('input');
    i.type = 'file';
    i.multiple = true;
    i.hidden = true;
    document.body.append(i);
    return i;
  })) as ElementHandle<HTMLInputElement>;
  await input.setInputFiles(paths);
  await input.evaluate((i) => {
    const dt = new DataTransfer();
    for (const f of Array.from(i.files ?? [])) dt.items.add(f);
    i.remove();
    for (const type of ['dragenter', 'dragover', 'drop']) {
      window.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  });
  await input.dispose();
}

/** The app opened in a fresh Chromium profile: what a test drives, and one close for both. */
export interface OpenApp {
  url: string;
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page (tests assert there are none). */
  errors: string[];
  close(): Promise<void>;
}

/**
 * The e2e setup every test file shares: the app under test (`serve()`, i.e. `npm start` under the e2e
 * runner, or the given server), a fresh Chromium, its first page on the app.
 */
export async function openApp(
  opts: {
    server?: { url: string; close(): Promise<void> };
    beforeLoad?: (page: Page) => void | Promise<void>;
  } = {},
): Promise<OpenApp> {
  const server = opts.server ?? (await serve());
  const browser = await launch();
  const errors: string[] = [];
  browser.page.on('pageerror', (e) => errors.push(e.message));
  await opts.beforeLoad?.(browser.page);
  await browser.page.goto(server.url);
  return {
    url: server.url,
    context: browser.context,
    page: browser.page,
    errors,
    close: async () => {
      try {
        await browser.close();
      } finally {
        await server.close();
      }
      if (errors.length) throw new Error(`uncaught errors in the page: ${errors.join(' | ')}`);
    },
  };
}

/** A laptop's window, 1280 × 800, set before the app loads (openApp's and appForSuite's option). */
export const AT_1280_800 = { beforeLoad: (p: Page) => p.setViewportSize({ width: 1280, height: 800 }) };

/**
 * The app opened once for a suite (node:test's before and after, inside a describe): `use` is given it
 * before the suite's tests run; it is closed after them (and an uncaught error in the page fails then).
 */
export function appForSuite(use: (app: OpenApp) => void, opts?: Parameters<typeof openApp>[0]): void {
  let app: OpenApp | undefined;
  before(async () => {
    app = await openApp(opts);
    use(app);
  });
  after(async () => {
    await app?.close();
  });
}

/** What the benches and tests read of the newest dataset's row (straight from IndexedDB). */
export interface DatasetRowDigest {
  elapsedMs: number;
  storeMs: number;
  bytesDecoded: number;
  pages: number;
  records: number;
  sources?: { parts?: number }[];
}

/** The newest dataset's row, read from the app's IndexedDB in the page. */
export async function newestDataset(page: Page): Promise<DatasetRowDigest> {
  return page.evaluate(async () => {
    const open = indexedDB.open('dedup-workbench');
    const idb: IDBDatabase = await new Promise((ok, ko) => {
      open.onsuccess = () => ok(open.result);
      open.onerror = () => ko(open.error);
    });
    const req = idb.transaction('datasets').objectStore('datasets').getAll();
    const all: (DatasetRowDigest & { id: number })[] = await new Promise((ok) => {
      req.onsuccess = () => ok(req.result);
    });
    idb.close();
    return all.reduce((a, b) => (b.id > a.id ? b : a));
  });
}

/** Whether a file of the newest dataset was read in parallel parts (its source's `parts`). */
export async function readInParts(page: Page): Promise<boolean> {
  const row = await newestDataset(page);
  return (row.sources ?? []).some((x) => x.parts !== undefined && x.parts >= 2);
}

/**
 * A generated WARC.gz of about `bytes` (test/bench/gen-warc.ts, seeded) for a suite (node:test's before
 * and after, inside a describe), in a folder of its own: `use` is given its path and the number of pages
 * the core reads from it — what the app must show; the folder is deleted after the suite.
 */
export function crawlForSuite(
  name: string,
  bytes: number,
  seed: number,
  use: (crawl: { file: string; pages: number }) => void,
): void {
  const dir = mkdtempSync(join(tmpdir(), 'dw-generated-'));
  before(async () => {
    const file = join(dir, name);
    await generateWarcGz(file, bytes, seed);
    const s = await ingest(
      createReadStream(file) as AsyncIterable<Uint8Array>,
      { fileName: name, totalBytes: statSync(file).size },
      async () => {},
    );
    use({ file, pages: s.pages });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
}

/** A file of the project (fixtures, the sample) by its path from the repository root. */
export const projectFile = (rel: string): string => join(ROOT, rel);

export const SHOTS = join(ROOT, 'test-results');

/** Distinct web URLs of the sample's pages with text, as the core reads them (no two share a URL). */
export async function sampleUrls(): Promise<string[]> {
  const file = projectFile('sample/sample.warc.gz');
  const urls = new Set<string>();
  await ingest(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    { fileName: 'sample.warc.gz', totalBytes: statSync(file).size },
    async (batch) => {
      for (const p of batch) if (p.content.text && /^https?:/.test(p.page.url)) urls.add(p.page.url);
    },
  );
  return [...urls].sort();
}

/** Opens the embedded sample (as "Open sample crawl" does) and waits until it is read; with
 * `signatures`, computes them too and waits for the clusters' summary. */
export async function openSample(page: Page, o: { signatures?: boolean } = {}): Promise<void> {
  await page.getByRole('button', { name: 'Open sample crawl' }).click();
  await page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 60_000 });
  if (!o.signatures) return;
  await page.getByRole('button', { name: 'Compute signatures' }).click();
  await page.getByTestId('cluster-summary').waitFor({ timeout: 60_000 });
}

/** The newest analysis the app stored (IndexedDB): its sizes, its timings, and sums of two measure columns. */
export interface StoredAnalysisDigest {
  n: number;
  elapsedMs: number;
  count: number;
  sumJaccard: number;
  sumCosine: number;
  timings: Record<string, number>;
}

export async function newestAnalysis(page: Page): Promise<StoredAnalysisDigest> {
  return page.evaluate(
    () =>
      new Promise<StoredAnalysisDigest>((resolve, reject) => {
        const r = indexedDB.open('dedup-workbench');
        r.onerror = () => reject(r.error);
        r.onsuccess = () => {
          const all = r.result.transaction('analyses').objectStore('analyses').getAll();
          all.onsuccess = () => {
            r.result.close();
            const a = all.result.at(-1) as {
              n: number;
              elapsedMs: number;
              pairs: { count: number; jaccard: Float32Array; cosine: Float32Array };
              timings: Record<string, number>;
            };
            resolve({
              n: a.n,
              elapsedMs: a.elapsedMs,
              count: a.pairs.count,
              sumJaccard: a.pairs.jaccard.reduce((x, y) => x + y, 0),
              sumCosine: a.pairs.cosine.reduce((x, y) => x + y, 0),
              timings: a.timings,
            });
          };
        };
      }),
  );
}

/**
 * A file on disk handed to the page as `window.benchFile` (a File named 'bench-input'), through a file
 * input of its own: Chromium reads it from disk by path, nothing is copied through the driver (the app's
 * CSP allows no fetch from another origin). The benches time the app's read of it.
 */
export async function giveFileToPage(page: Page, file: string): Promise<void> {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-file';
    input.hidden = true;
    document.body.append(input);
  });
  await page.locator('#bench-file').setInputFiles(file);
  await page.evaluate(() => {
    const input = document.getElementById('bench-file') as HTMLInputElement;
    (window as unknown as { benchFile: File }).benchFile = new File([input.files![0]], 'bench-input');
    input.remove();
  });
}

/**
 * Drops the file giveFileToPage handed over onto the app, as a person drops it, and waits (polling every
 * 20 ms in the page) until the read has ended: its seconds from the drop, timed in the page.
 */
export async function dropGivenFile(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const file = (window as unknown as { benchFile: File }).benchFile;
    const t0 = performance.now();
    const dt = new DataTransfer();
    dt.items.add(file);
    // The moment the page shows the dataset read: seen by a MutationObserver as the DOM changes (a 20 ms
    // poll added 0–20 ms to every figure), with the poll kept as a fallback. (No named function in here:
    // tsx would wrap it in a helper the page does not have.)
    let end = 0;
    const seen = new MutationObserver(() => {
      if (
        !end &&
        document.querySelector('.dataset-list .badge:not(.status-ingesting)') &&
        !document.querySelector('.ingest')
      )
        end = performance.now();
    });
    seen.observe(document.body, { childList: true, subtree: true, attributes: true });
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    while (!end) {
      await new Promise((r) => setTimeout(r, 20));
      if (
        !end &&
        document.querySelector('.dataset-list .badge:not(.status-ingesting)') &&
        !document.querySelector('.ingest')
      )
        end = performance.now();
    }
    seen.disconnect();
    return (end - t0) / 1000;
  });
}
