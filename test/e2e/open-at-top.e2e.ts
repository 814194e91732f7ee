// Issue #24, item 6: a dataset with labels opened scrolled some 650 px down to its labels list (the list
// scrolled its first row into view on load), the header and the panes off screen. Opening a dataset leaves
// the page at its top; only the analyst's own keys and clicks bring a row into view.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { appForSuite, AT_1280_800, type OpenApp, SHOTS } from './harness';
import { computeSignatures, openCrawl, openSample, scrolled, words, writeCrawl } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

describe('a dataset with labels opens at the top of the page, in Chromium', () => {
  let app: OpenApp;
  let page: Page;
  appForSuite((a) => ([app, page] = [a, a.page]), AT_1280_800);

  /** Waits until the labels list has drawn its rows and every effect of the load has run. */
  async function labelsShown(n: number): Promise<void> {
    await page
      .getByTestId('labels-count')
      .filter({ hasText: `${n} labels` })
      .waitFor({ timeout: 30_000 });
    await page.locator('.labels-list [role="option"]').first().waitFor();
    await page.waitForTimeout(800);
  }

  it('labels three pairs of the sample from the keyboard', async () => {
    await openSample(page);
    await computeSignatures(page);
    await page.getByRole('button', { name: 'New queue' }).click();
    await page.locator('.pair-measures').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    for (const k of ['d', 'n', 'd']) {
      await page.keyboard.press(k);
      await page.waitForTimeout(150);
    }
    await labelsShown(3);
  });

  it('reloads at the top: header, clusters and precision–recall in view', async () => {
    await page.reload();
    await page.getByTestId('cluster-summary').waitFor({ timeout: 60_000 });
    await labelsShown(3);
    await page.screenshot({ path: join(SHOTS, 'open-at-top-reload.png') });
    assert.deepEqual(await scrolled(page), { window: 0, main: 0 }, 'scrolled on load');
    const header = (await page.locator('.dataset-header h1').boundingBox())!;
    assert.ok(header.y >= 0 && header.y < 100, `dataset header at ${header.y}`);
  });

  it('opens the dataset from the list at the top, after another one', async () => {
    const other = writeCrawl(
      'other.warc',
      [0, 1, 2].map((d) => ({
        url: `http://other.test/p${d}`,
        title: `Other ${d}`,
        text: words(d).join(' '),
      })),
    );
    await openCrawl(page, other, 'other.warc');
    await page.locator('.dataset-list li', { hasText: 'sample.warc.gz' }).locator('button.dataset').click();
    await labelsShown(3);
    assert.deepEqual(await scrolled(page), { window: 0, main: 0 }, 'scrolled on opening from the list');
  });

  it('still brings the active row into view on the analyst’s own keys', async () => {
    const list = page.getByRole('listbox', { name: 'Labels' });
    await list.focus();
    await page.keyboard.press('End');
    await page.waitForTimeout(300);
    const row = (await page.locator('.labels-list [role="option"][aria-selected="true"]').boundingBox())!;
    const height = page.viewportSize()!.height;
    assert.ok(row.y >= 0 && row.y + row.height <= height + 1, `active row at ${row.y} of ${height}`);
  });

  it('raised no uncaught error in the page', () => {
    assert.deepEqual(app.errors, []);
  });
});
