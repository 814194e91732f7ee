import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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
 * Serves the production build (dist/), under /__fixtures/ the test fixtures and under /__tmp/ files a
 * test generated, so a test can drop them into the page from the same origin. In-process: nothing to
 * kill afterwards.
 */
export async function serve(tmpDir?: string): Promise<{ url: string; close(): Promise<void> }> {
  const dist = join(ROOT, 'dist');
  if (!existsSync(join(dist, 'index.html'))) throw new Error('dist/ is missing: run `npm run build` first');
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const [base, rel] = path.startsWith('/__fixtures/')
      ? [join(ROOT, 'test/fixtures'), path.slice('/__fixtures/'.length)]
      : tmpDir && path.startsWith('/__tmp/')
        ? [tmpDir, path.slice('/__tmp/'.length)]
        : [dist, path === '/' ? 'index.html' : path.slice(1)];
    const file = normalize(join(base, rel));
    if (!file.startsWith(base) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

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
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Drop a file fetched from `url` onto the window, as a user dragging it from the desktop would. */
export async function dropFile(page: Page, url: string, name: string): Promise<void> {
  await page.evaluate(
    async ({ url, name }) => {
      const blob = await (await fetch(url)).blob();
      const dt = new DataTransfer();
      dt.items.add(new File([blob], name));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        window.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }
    },
    { url, name },
  );
}

export const SHOTS = join(ROOT, 'test-results');
