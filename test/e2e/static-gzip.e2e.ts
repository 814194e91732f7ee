import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type OpenApp, openApp, serveDir, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/**
 * The built app behind a static server of the unhelpful kind: every `.gz` file goes out labelled
 * `Content-Encoding: gzip` (as Apache's `AddEncoding x-gzip .gz` and `vite preview` do), and every other
 * response is gzip-compressed on the fly. Under such a server `fetch('sample.warc.gz')` used to return
 * the first gzip member inflated and nothing else: a sample of 0 pages.
 */
describe('the sample opens behind a server that gzip-encodes responses', () => {
  let app: OpenApp;
  let page: Page;
  const requests: { url: string; encoding: string | undefined }[] = [];

  before(async () => {
    app = await openApp({
      server: await serveDir(resolve(import.meta.dirname, '../../dist'), (file) =>
        file.endsWith('.gz') ? 'gzip-label' : 'gzip',
      ),
      beforeLoad: (p) => {
        p.on('response', (r) => requests.push({ url: r.url(), encoding: r.headers()['content-encoding'] }));
      },
    });
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  it('opens the whole sample crawl', async () => {
    await page.getByRole('button', { name: 'Open sample crawl' }).click();
    await page.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 60_000 });
    const meta = (await page.locator('.dataset-list .meta').first().textContent()) ?? '';
    const pages = Number(/([\d,]+) pages/.exec(meta)?.[1].replace(/,/g, '') ?? 0);
    assert.ok(pages >= 400, `the whole sample: ${meta}`);
    assert.ok(
      requests.some((r) => r.encoding === 'gzip'),
      'the server did gzip-encode what the page loaded',
    );
    await page.screenshot({ path: join(SHOTS, 'sample-behind-gzip-server.png') });
  });
});
