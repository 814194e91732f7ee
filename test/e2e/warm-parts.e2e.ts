import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { INGEST_WARM_MARK } from '../../src/state/spare-worker';
import { appForSuite, crawlForSuite, dropFile, readInParts, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/**
 * A 10 MB WARC.gz (under PARALLEL_MIN_BYTES, over WARM_PARALLEL_MIN_BYTES): read by one worker when it is
 * dropped as the page opens, in two parts once the ingest workers have started and warmed up
 * (src/workers/warm-up.ts; the page marks it, src/state/spare-worker.ts) — the same pages either way.
 */
describe('a 10 MB WARC.gz, dropped at once and dropped later', () => {
  let file = '';
  let expectedPages = 0;
  let page: Page;
  crawlForSuite('ten.warc.gz', 10e6, 23, (c) => ({ file, pages: expectedPages } = c));
  appForSuite((app) => (page = app.page));

  async function readWhole(): Promise<void> {
    await page.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 60_000 });
    await page
      .getByTestId('page-count')
      .filter({ hasText: `of ${expectedPages.toLocaleString('en-US')} pages` })
      .waitFor({ timeout: 20_000 });
  }

  async function deleteIt(): Promise<void> {
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete ten.warc.gz' }).click();
    await page.getByText('Drop a crawl file anywhere').waitFor();
  }

  it('dropped as the page opens: one worker reads it', async () => {
    // The workers start their part workers and warm up after 2 s idle: this drop comes before that.
    await dropFile(page, file);
    await readWhole();
    assert.equal(await readInParts(page), false, 'read by one worker');
    await deleteIt();
  });

  it('dropped once the workers are warm: read in two parts, the same pages', async () => {
    await page.reload();
    await page.getByText('Drop a crawl file anywhere').waitFor();
    // An analyst's drop once the page has been open a while: 2 s idle, then the part worker's start and
    // the warm-ups (well under a second each on two cores, longer on a loaded machine). Waited for by the
    // page's mark, not a fixed time.
    await page.waitForFunction(
      (mark) => performance.getEntriesByName(mark, 'mark').length > 0,
      INGEST_WARM_MARK,
      { timeout: 60_000 },
    );
    await dropFile(page, file);
    await readWhole();
    await page.screenshot({ path: join(SHOTS, 'warm-parts-10mb.png') });
    assert.equal(await readInParts(page), true, 'read in two parts');
  });
});
