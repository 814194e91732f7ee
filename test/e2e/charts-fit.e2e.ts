// Issue #24, item 11: the cluster-size histogram drew a bar for a count of 0; graph labels overlapped, ran
// past their box and shortened `127.0.0.1:28431` to `127:`, losing the port that tells sites apart. Charts
// draw exactly their data and their labels fit, apart, with host and port.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type OpenApp, openApp, SHOTS } from './harness';
import { computeSignatures, type CrawlPage, openCrawl, words, writeCrawl } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

/** `doc`'s words with word `at` changed: copies of one text at Jaccard ≈ 0.95 of each other, none equal. */
const variant = (doc: number, at: number) =>
  words(doc)
    .map((w, i) => (i === at ? `changed${at}` : w))
    .join(' ');

/**
 * Two sites on one address, told apart by their ports: eight near-copies of one long-named page (four on
 * each port) make one cluster of 8; two near-copies of another make a cluster of 2; sizes 3–7 have none.
 */
function portsCrawl(): CrawlPage[] {
  const pages: CrawlPage[] = [];
  for (const port of [28431, 28432])
    for (let k = 0; k < 4; k++)
      pages.push({
        url: `http://127.0.0.1:${port}/docs/section-alpha/chapter-one/a-rather-long-page-name-${k}.html`,
        title: `Guide ${port} ${k}`,
        text: variant(1, 20 + 35 * (k + (port === 28432 ? 4 : 0))),
      });
  pages.push({ url: 'http://127.0.0.1:28431/notes/a.html', title: 'Notes', text: variant(2, 10) });
  pages.push({ url: 'http://127.0.0.1:28432/notes/a.html', title: 'Notes', text: variant(2, 200) });
  for (let d = 10; d < 16; d++)
    pages.push({
      url: `http://127.0.0.1:28431/other/${d}.html`,
      title: `Other ${d}`,
      text: words(d).join(' '),
    });
  return pages;
}

interface Bar {
  count: number;
  height: number;
}

describe('charts draw their data and labels that fit, in Chromium', () => {
  let app: OpenApp;
  let page: Page;

  before(async () => {
    app = await openApp({ beforeLoad: (p) => p.setViewportSize({ width: 1280, height: 800 }) });
    page = app.page;
    await openCrawl(page, writeCrawl('ports.warc', portsCrawl()), 'ports.warc');
    await computeSignatures(page);
  });

  after(async () => {
    await app?.close();
  });

  /** The histogram's bars: the count each stands for (its tooltip) and its drawn height. */
  async function bars(): Promise<Bar[]> {
    return page
      .locator('svg.histogram')
      .first()
      .evaluate((svg) =>
        [...svg.querySelectorAll('rect')].map((r) => {
          const m = /^([\d,]+) clusters? of/.exec(r.querySelector('title')?.textContent ?? '');
          return {
            count: m ? Number(m[1].replace(/,/g, '')) : NaN,
            height: r.getBoundingClientRect().height,
          };
        }),
      );
  }

  it('draws no bar for a cluster size without clusters', async () => {
    await page
      .getByTestId('cluster-summary')
      .filter({ hasText: /^2 clusters/ })
      .waitFor();
    const all = await bars();
    assert.deepEqual(
      all.map((b) => b.count),
      [1, 0, 0, 0, 0, 0, 1],
      'sizes 2–8: one cluster of 2, one of 8',
    );
    for (const b of all) {
      if (b.count === 0) assert.equal(b.height, 0, 'a count of 0 draws no bar');
      else assert.ok(b.height > 10, `a count of ${b.count} draws a bar (${b.height} px)`);
    }
  });

  it('draws the cluster graph with labels that keep host and port, fit the box and do not overlap', async () => {
    await page.locator('.cluster-list li', { has: page.locator('.size', { hasText: /^8$/ }) }).click();
    const svg = page.locator('.cluster-graph svg');
    await svg.locator('.edge').first().waitFor();
    await page.locator('.cluster-graph').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'charts-fit-graph.png') });
    const { box, labels } = await svg.evaluate((el) => ({
      box: el.getBoundingClientRect().toJSON() as DOMRect,
      labels: [...el.querySelectorAll('text')].map((t) => ({
        text: t.textContent ?? '',
        r: t.getBoundingClientRect().toJSON() as DOMRect,
      })),
    }));
    assert.ok(labels.length >= 4, `labels drawn: ${labels.length}`);
    for (const l of labels) {
      assert.match(l.text, /^127\.0\.0\.1:2843[12]\//, `label "${l.text}" keeps host and port`);
      assert.ok(
        l.r.left >= box.left && l.r.right <= box.right && l.r.top >= box.top && l.r.bottom <= box.bottom,
        `label "${l.text}" inside the graph's box`,
      );
    }
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const [a, b] = [labels[i].r, labels[j].r];
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        assert.ok(apart, `labels "${labels[i].text}" and "${labels[j].text}" overlap`);
      }
    // Both sites are named.
    assert.ok(
      labels.some((l) => l.text.includes(':28431/')) && labels.some((l) => l.text.includes(':28432/')),
    );
  });

  it('draws no bar at all when no pair passes the threshold', async () => {
    await page.getByRole('slider', { name: 'jaccard' }).focus();
    await page.keyboard.press('End');
    await page
      .getByTestId('cluster-summary')
      .filter({ hasText: /^0 clusters/ })
      .waitFor();
    const all = await bars();
    assert.ok(all.length > 0, 'the histogram still draws its axes and buckets');
    for (const b of all) {
      assert.equal(b.count, 0);
      assert.equal(b.height, 0, 'a count of 0 draws no bar');
    }
  });

  it('raised no uncaught error in the page', () => {
    assert.deepEqual(app.errors, []);
  });
});
