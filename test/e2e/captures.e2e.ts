import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { appForSuite, AT_1280_800, SHOTS } from './harness';
import { computeSignatures, openCrawl, words, writeCrawl } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

/**
 * Issue #24, item 4: a "Cluster of 5 pages · exact replicas" listed …/bugs.html four times, with nothing
 * to tell the captures apart. Re-fetches of one URL are one page with N captures (the capture list in
 * the cluster's detail); the analyst can still ask to compare captures.
 */
describe('captures of one URL are one page with N captures', () => {
  let page: Page;
  appForSuite((a) => (page = a.page), AT_1280_800);

  const bugs = { url: 'http://docs.test/bugs.html', title: 'Bugs', text: words(1).join(' ') };
  const file = writeCrawl('refetched.warc', [
    bugs,
    ...Array.from({ length: 6 }, (_, i) => ({
      url: `http://docs.test/page${i}.html`,
      title: `Page ${i}`,
      text: words(10 + i).join(' '),
    })),
    bugs,
    { ...bugs, url: 'http://mirror.test/docs/bugs.html' },
    bugs,
    bugs,
  ]);

  const detail = () => page.getByRole('region', { name: 'Cluster detail' });

  async function openOnlyCluster() {
    const list = page.getByRole('listbox', { name: 'Clusters' });
    assert.equal(await list.getByRole('option').count(), 1, 'one cluster');
    await list.getByRole('option').first().click();
    await detail().waitFor();
  }

  it('four fetches of bugs.html and its mirror: a cluster of 2 pages, one with 4 captures', async () => {
    await openCrawl(page, file, 'refetched.warc');
    await page.locator('.dataset-list li', { hasText: 'refetched.warc' }).click();
    await computeSignatures(page);
    const summary = (await page.getByTestId('cluster-summary').textContent()) ?? '';
    assert.match(summary, /^1 cluster · 2 of 8 pages · 1 of 1 candidate pair accepted/);
    assert.match(
      (await page.getByTestId('captures-note').textContent()) ?? '',
      /^3 other captures of URLs captured more than once are counted with their URL’s earliest capture/,
    );
    await openOnlyCluster();
    assert.match(
      (await detail().locator('h2').textContent()) ?? '',
      /^Cluster [0-9a-f]{16} of 2 pages · 5 captures/,
    );
    const rows = detail().locator('table.members tbody tr');
    assert.equal(await rows.count(), 2);
    // Each member's URL by what tells it from the other (its host and path), the whole one in its title.
    const urls = await rows.locator('td:nth-child(3)').allTextContents();
    assert.deepEqual(urls.sort(), ['docs.test/bugs.html', 'mirror.test/docs/bugs.html']);
    const titles = await rows
      .locator('td:nth-child(3) .url')
      .evaluateAll((els) => els.map((e) => e.getAttribute('title')));
    assert.deepEqual(titles.sort(), ['http://docs.test/bugs.html', 'http://mirror.test/docs/bugs.html']);
    // The capture list: each capture's record number and fetch time, the first the one compared.
    const list = detail().getByTestId('capture-list');
    assert.equal(await list.count(), 1, 'only bugs.html was captured more than once');
    await list.locator('summary').click();
    const items = await list.locator('li').allTextContents();
    assert.equal(items.length, 4);
    assert.match(items[0], /^#0 · 2024-05-01T10:00:00(\.000)?Z · 200 · compared$/);
    assert.match(items[3], /^#10 · /);
    await page.screenshot({ path: join(SHOTS, 'captures.png'), fullPage: true });
  });

  it('asked to compare captures, each capture is a page of its own again', async () => {
    await page.locator('details.params summary', { hasText: 'Signature parameters' }).click();
    await page.getByLabel('Captures of one URL').selectOption('each capture');
    await page.getByRole('button', { name: 'Recompute in the background' }).click();
    await page.waitForFunction(() =>
      /^1 cluster · 5 of 11 pages/.test(
        document.querySelector('[data-testid="cluster-summary"]')?.textContent ?? '',
      ),
    );
    assert.equal(await page.getByTestId('captures-note').count(), 0);
    await openOnlyCluster();
    assert.match((await detail().locator('h2').textContent()) ?? '', /^Cluster [0-9a-f]{16} of 5 pages/);
    assert.equal(await detail().getByTestId('capture-list').count(), 0);
  });
});
