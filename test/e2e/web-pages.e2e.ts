import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { appForSuite, dropFile, projectFile, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/**
 * Issue "Every number on screen true", item 5: a crawler's own files are not pages. wget writes its
 * arguments as a `resource` record of `metadata://gnu.org/software/wget/warc/wget_arguments.txt` (and
 * its log and manifest likewise): they counted towards the pages, the clusters and the DUST list.
 */
describe("a crawler's own files are not pages", () => {
  let page: Page;
  appForSuite((a) => (page = a.page));

  it("wget's metadata:// resource is listed as skipped, by scheme, and only the two web pages count", async () => {
    await dropFile(page, projectFile('test/fixtures/wget-angle.warc.gz'));
    await page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 60_000 });
    const meta = (await page.locator('.dataset-list .meta').first().textContent()) ?? '';
    const pages = Number(/([\d,]+) pages?/.exec(meta)?.[1].replace(/,/g, '') ?? -1);
    assert.equal(pages, 2, `two web pages, not the wget arguments file: ${meta}`);
    await page.locator('.dataset-list li').first().click();
    const body = (await page.locator('main').textContent()) ?? '';
    assert.match(
      body,
      /resource records of metadata: URIs \(not web pages\)/,
      'the skipped record is listed by its scheme',
    );
    await page.screenshot({ path: join(SHOTS, 'web-pages-only.png') });
  });
});
