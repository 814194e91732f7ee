/**
 * Issue "Every screen readable", item 1: URLs that can be told apart. A crawl whose clusters' members differ
 * only in the port, in a query parameter or in a path parameter, opened at 1000×700, 1280×800 and
 * 1920×1080: in every cluster the members' rows and the pair's heads read differently (asserted on the
 * text rendered, not on attributes), and no URL overflows its cell.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { appForSuite, SHOTS } from './harness';
import { computeSignatures, openCrawl, words, writeCrawl } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

const GROUPS = [
  [28431, 28432, 28433].map((port) => `http://127.0.0.1:${port}/docs/15/static/runtime-config.html`),
  [
    'http://docs.test/docs/15/static/runtime-config-logging.html?view=printable',
    'http://docs.test/docs/15/static/runtime-config-logging.html',
    'http://docs.test/docs/15/static/runtime-config-logging.html?view=print&lang=en',
  ],
  [
    'http://docs.test/manual/en/current/chapters/server-setup.html;jsessionid=7C1A0F3B9E2D',
    'http://docs.test/manual/en/current/chapters/server-setup.html;jsessionid=8D2B1C4A0F3E',
  ],
];

describe('URLs that can be told apart, at three window sizes', () => {
  let page: Page;
  appForSuite((a) => (page = a.page));

  const file = writeCrawl(
    'urls-apart.warc',
    GROUPS.flatMap((urls, g) =>
      urls.map((url, k) => ({
        url,
        title: `Server Configuration — chapter ${g}`,
        // One text a group (a word changed per copy: near replicas), others apart.
        text: words(100 + g)
          .map((w, i) => (i === 7 * k ? `${w}x` : w))
          .join(' '),
      })),
    ),
  );

  const detail = () => page.getByRole('region', { name: 'Cluster detail' });

  it('reads the crawl and clusters each group', async () => {
    await openCrawl(page, file, 'urls-apart.warc');
    await page.locator('.dataset-list li', { hasText: 'urls-apart.warc' }).click();
    await computeSignatures(page);
    assert.match(
      (await page.getByTestId('cluster-summary').textContent()) ?? '',
      /^3 clusters · 8 of 8 pages/,
    );
  });

  for (const [width, height] of [
    [1000, 700],
    [1280, 800],
    [1920, 1080],
  ])
    it(`at ${width}×${height}: members and pair heads read differently, no URL overflowing`, async () => {
      await page.setViewportSize({ width, height });
      const options = page.getByRole('listbox', { name: 'Clusters' }).getByRole('option');
      assert.equal(await options.count(), 3);
      for (let c = 0; c < 3; c++) {
        await options.nth(c).click();
        await detail().waitFor();
        const cells = detail().locator('table.members tbody tr td:nth-child(3) .url');
        const shown = (await cells.evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText))).map(
          (t) => t.trim(),
        );
        assert.equal(new Set(shown).size, shown.length, `cluster ${c}: ${shown.join(' | ')}`);
        const overflowing = await cells.evaluateAll((els) =>
          els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => (e as HTMLElement).innerText),
        );
        assert.deepEqual(overflowing, [], `cluster ${c} at ${width}px`);
        const heads = detail().getByTestId('compare-head').locator('.url');
        await heads.first().waitFor({ timeout: 20_000 });
        const headTexts = await heads.evaluateAll((els) =>
          els.map((e) => (e as HTMLElement).innerText.trim()),
        );
        assert.equal(headTexts.length, 2);
        assert.notEqual(headTexts[0], headTexts[1], `cluster ${c}: ${headTexts.join(' | ')}`);
      }
      // A member's URL reads whole on a click.
      const first = detail().locator('table.members tbody tr td:nth-child(3) .url').first();
      const whole = (await first.getAttribute('title')) ?? '';
      await first.click();
      assert.equal((await first.innerText()).trim(), whole);
      await first.click();
      await page.screenshot({ path: join(SHOTS, `urls-apart-${width}.png`) });
    });
});
