import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type OpenApp, openApp, openSample, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/**
 * Issue "Formats in and out", item 5: the workbench installs (a web app manifest with icons) and opens
 * offline: its service worker caches the built app, so with the network gone a reload still shows it
 * and the sample still opens. The CSP is unchanged (the worker is a script from this origin).
 */
describe('offline', () => {
  let app: OpenApp;
  let page: Page;

  before(async () => {
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.context.setOffline(false);
    await app?.close();
  });

  it('has a manifest with icons the browser can read', async () => {
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    assert.equal(href, '/manifest.webmanifest');
    const manifest = await page.evaluate(async (h) => (await fetch(h!)).json(), href);
    assert.equal(manifest.name, 'Dedup Workbench');
    assert.equal(manifest.display, 'standalone');
    for (const icon of manifest.icons as { src: string; sizes: string }[]) {
      const size = Number(icon.sizes.split('x')[0]);
      const ok = await page.evaluate(
        ([src, size]) =>
          new Promise<boolean>((res) => {
            const img = new Image();
            img.onload = () => res(img.naturalWidth === size && img.naturalHeight === size);
            img.onerror = () => res(false);
            img.src = src as string;
          }),
        [icon.src, size] as const,
      );
      assert.ok(ok, `${icon.src} is a ${icon.sizes} image`);
    }
  });

  it('reloads with the network gone and opens the sample', async () => {
    // The service worker has installed (every file of the app cached) and controls the page.
    await page.waitForFunction(
      async () => {
        const reg = await navigator.serviceWorker.ready;
        return reg.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
      },
      undefined,
      { timeout: 60_000 },
    );
    await app.context.setOffline(true);
    await page.reload();
    await openSample(page, { signatures: true });
    const meta = (await page.locator('.dataset-list .meta').first().textContent()) ?? '';
    assert.match(meta, /475 pages/);
    await page.screenshot({ path: join(SHOTS, 'offline-sample.png') });
    // The Content-Security-Policy is the built one, unchanged.
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(csp ?? '', /default-src 'self'/);
    assert.doesNotMatch(csp ?? '', /'unsafe-inline'|'unsafe-eval'/);
    assert.deepEqual(app.errors, []);
  });
});
