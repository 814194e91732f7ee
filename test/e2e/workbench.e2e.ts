import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { dropFile, type OpenApp, openApp, projectFile, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

describe('workbench in Chromium', () => {
  let app: OpenApp;
  let page: Page;
  const dialogs: string[] = [];

  before(async () => {
    app = await openApp({
      beforeLoad: (p) => {
        p.on('dialog', (d) => {
          dialogs.push(`${d.type()}: ${d.message()}`);
          void d.dismiss();
        });
      },
    });
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  it('shows the empty workbench with its three panes waiting', async () => {
    await page.getByText('Drop a crawl file anywhere').waitFor();
    await page.screenshot({ path: join(SHOTS, 'empty.png') });
  });

  it('ingests the sample dropped on the window, with progress, and lists its pages', async () => {
    await dropFile(page, projectFile('sample/sample.warc.gz'));
    await page
      .getByRole('progressbar')
      .waitFor({ timeout: 10_000 })
      .catch(() => {
        /* the sample may be read before the bar is seen */
      });
    await page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 60_000 });
    const count = await page.getByTestId('page-count').textContent();
    assert.match(count ?? '', /^\d[\d,]* of \d[\d,]* pages$/);
    const n = Number((count ?? '').split(' of ')[1].replace(/\D/g, ''));
    assert.ok(n >= 100, `expected the sample's pages, got "${count}"`);
    await page
      .getByRole('region', { name: 'Duplicate clusters' })
      .getByText('No signatures computed yet')
      .waitFor();
    await page.screenshot({ path: join(SHOTS, 'sample-ingested.png') });
  });

  it('filters the pages table and shows a page as text', async () => {
    await page.getByLabel('Filter by URL or title').fill('story');
    const count = await page.getByTestId('page-count').textContent();
    assert.ok(!(count ?? '').startsWith('0 of'), `no story pages: ${count}`);
    await page.locator('.tr').first().click();
    await page.getByTestId('page-text').waitFor();
    const text = await page.getByTestId('page-text').textContent();
    assert.ok((text ?? '').length > 50, 'page text shown');
    await page.getByLabel('Filter by URL or title').fill('');
  });

  it('keeps the dataset across a reload', async () => {
    const before = await page.getByTestId('page-count').textContent();
    await page.reload();
    await page.locator('.dataset-list li').first().waitFor();
    await page.getByTestId('page-count').filter({ hasText: 'of' }).waitFor();
    await page.waitForFunction(
      (b) => document.querySelector('[data-testid="page-count"]')?.textContent === b,
      before,
      { timeout: 10_000 },
    );
  });

  it('shows hostile markup in a crawled page as text, and no dialog fires', async () => {
    await page.getByLabel('Filter by URL or title').fill('alert');
    await page.locator('.tr').first().click();
    const title = await page.getByTestId('detail-title').textContent();
    assert.ok(title?.includes('<script>alert(1)</script>'), `title shown as text: ${title}`);
    // The text is read from storage after the click (the title comes with the row): wait for it, then
    // read it (reading at once could catch the page shown before, as one CI run did).
    await page
      .getByTestId('page-text')
      .filter({ hasText: 'onerror=alert(1)' })
      .waitFor({ timeout: 10_000 })
      .catch(() => {});
    const text = await page.getByTestId('page-text').textContent();
    assert.ok(text?.includes('<img src=x onerror=alert(1)>'), `body shown as text: ${text?.slice(0, 200)}`);
    assert.equal(await page.locator('main img').count(), 0, 'no <img> from crawled content');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'hostile.png') });
    assert.deepEqual(dialogs, []);
    await page.getByLabel('Filter by URL or title').fill('');
  });

  it('rejects a broken file with a clear error and creates no dataset', async () => {
    const before = await page.locator('.dataset-list li').count();
    await dropFile(page, projectFile('test/fixtures/junk.bin'));
    const alert = page.getByRole('alert').filter({ hasText: 'junk.bin' });
    await alert.waitFor({ timeout: 20_000 });
    assert.match((await alert.textContent()) ?? '', /No dataset created.*junk\.bin.*(binary|unknown format)/);
    assert.equal(await page.locator('.dataset-list li').count(), before);
    await page.screenshot({ path: join(SHOTS, 'broken-file.png') });
  });

  it('raised no uncaught error in the page', () => {
    assert.deepEqual(app.errors, []);
  });
});
