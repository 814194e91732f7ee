import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { appForSuite, crawlForSuite, dropFile, readInParts, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/** A WARC.gz large enough to be read by several workers in parallel, with cancel in the middle. */
describe('an 18 MB WARC.gz in Chromium', () => {
  let file = '';
  let expectedPages = 0;
  let page: Page;
  crawlForSuite('large.warc.gz', 18e6, 11, (c) => ({ file, pages: expectedPages } = c));
  appForSuite((app) => (page = app.page));

  it('cancel, then discard: no dataset is left', async () => {
    await dropFile(page, file);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Discard' }).click({ timeout: 20_000 });
    await page.getByText('Drop a crawl file anywhere').waitFor();
    assert.equal(await page.locator('.dataset-list li').count(), 0);
  });

  it('cancel, then keep: the pages read so far stay, marked cancelled', async () => {
    await dropFile(page, file);
    await page.getByRole('progressbar').waitFor();
    // Some pages are stored before Cancel (an event, not a sleep): the dataset's row counts them.
    await page
      .getByText(/\b[1-9][\d,]* pages? stored so far/)
      .first()
      .waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Cancel' }).click();
    const keep = page.getByRole('button', { name: /^Keep [\d,]+ pages$/ });
    await keep.waitFor({ timeout: 20_000 });
    const kept = Number(((await keep.textContent()) ?? '').replace(/\D/g, ''));
    await keep.click();
    await page.locator('.dataset-list .badge.status-cancelled').waitFor();
    await page
      .getByTestId('page-count')
      .filter({ hasText: `of ${kept.toLocaleString('en-US')} pages` })
      .waitFor();
    assert.ok(kept > 0 && kept < expectedPages, `kept ${kept} of ${expectedPages}`);
    // Deleted (after its confirm), so the next read is the only dataset.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete large.warc.gz' }).click();
    await page.getByText('Drop a crawl file anywhere').waitFor();
    assert.equal(await page.locator('.dataset-list li').count(), 0);
  });

  it('reads it whole, in parallel workers, with the same page count as the Node CLI', async () => {
    page.once('dialog', (d) => void d.accept());
    await page.reload();
    await dropFile(page, file);
    await page.getByRole('progressbar').waitFor();
    await page.screenshot({ path: join(SHOTS, 'large-progress.png') });
    await page.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 120_000 });
    await page
      .getByTestId('page-count')
      .filter({ hasText: `of ${expectedPages.toLocaleString('en-US')} pages` })
      .waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(SHOTS, 'large-ready.png') });
    assert.ok(await readInParts(page), 'read in two parts');
  });
});
