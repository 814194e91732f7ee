import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { appForSuite, AT_1280_800, SHOTS } from './harness';
import { computeSignatures, openCrawl, openSample, words, writeCrawl } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

/**
 * Issue #24, item 2: the precision–recall pane said "C = 1.000, D = 0.022: precision 99.0%…" whatever
 * the method, and plotted "precision 100.0%, recall 0.0%" for a dataset with no candidate pair. It names
 * the chosen method and its threshold, draws the method's own curve beside the papers' C and D curves,
 * and says in words when there is nothing to measure.
 */
describe('precision–recall pane: the chosen method, and an empty result in words', () => {
  let page: Page;
  appForSuite((a) => (page = a.page), AT_1280_800);

  const pr = () => page.getByRole('region', { name: 'Precision and recall' });

  it('with MinHash selected, names MinHash and its threshold and draws its own curve', async () => {
    await openSample(page);
    await computeSignatures(page);
    await page.getByLabel('Method', { exact: true }).selectOption('minhash');
    await pr().getByRole('img', { name: 'Precision-recall curves' }).waitFor();
    const current = (await pr().getByTestId('pr-current').textContent()) ?? '';
    assert.match(current, /^MinHash, Jaccard ≥ 0\.80: precision \d+\.\d%, recall \d+\.\d%/);
    assert.doesNotMatch(current, /C = /, 'the RP + HM point is not named as the method’s');
    // The papers' three C curves and the RP curve stay; MinHash's own curve over its threshold is added.
    assert.equal(await pr().locator('path[data-curve]').count(), 5);
    assert.match((await pr().locator('.legend').textContent()) ?? '', /MinHash \(LSH\), Jaccard varies/);
    // The slider moves the named operating point.
    const slider = page.getByRole('slider', { name: 'jaccard' });
    await slider.focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid="pr-current"]')
        ?.textContent?.startsWith('MinHash, Jaccard ≥ 0.90'),
    );
    // The papers' method names its own pair of thresholds.
    await page.getByLabel('Method', { exact: true }).selectOption('rp-hm');
    await page.waitForFunction(() =>
      /^RP \+ HM, C = 1\.000, D = 0\.022: precision/.test(
        document.querySelector('[data-testid="pr-current"]')?.textContent ?? '',
      ),
    );
    assert.equal(await pr().locator('path[data-curve]').count(), 4);
    await page.getByLabel('Method', { exact: true }).selectOption('minhash');
    await pr().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'pr-method.png') });
  });

  it('fits its axes to the curves, 0–100% one click away', async () => {
    const ticks = (axis: 'x' | 'y') =>
      pr()
        .locator(`g.axis.${axis} .tick text`)
        .allTextContents()
        .then((t) => t.map((x) => Number(x.replace('%', ''))));
    const fitted = { x: await ticks('x'), y: await ticks('y') };
    // The sample's curves all reach past 50% recall: the recall axis does not start at 0.
    assert.ok(Math.min(...fitted.x) >= 40, `recall ticks ${fitted.x}`);
    assert.equal(Math.max(...fitted.x), 100);
    assert.match((await pr().locator('.pr-zoom').textContent()) ?? '', /fitted to the curves/);
    await pr().getByRole('button', { name: 'Show 0–100%' }).click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('g.axis.x .tick text')].some((t) => t.textContent === '0%'),
    );
    assert.equal(Math.min(...(await ticks('y'))), 0);
    await pr().getByRole('button', { name: 'Fit to the curves' }).click();
    await page.waitForFunction(
      () => ![...document.querySelectorAll('g.axis.x .tick text')].some((t) => t.textContent === '0%'),
    );
  });

  it('a dataset with no candidate pair says so instead of plotting a point', async () => {
    // Two pages of unrelated words: no method finds a pair.
    const file = writeCrawl('no-pairs.warc', [
      { url: 'http://a.test/one', title: 'One', text: words(1).join(' ') },
      { url: 'http://b.test/two', title: 'Two', text: words(2).join(' ') },
    ]);
    await openCrawl(page, file, 'no-pairs.warc');
    await computeSignatures(page);
    assert.match((await page.getByTestId('cluster-summary').textContent()) ?? '', /of 0 candidate pairs/);
    await pr().getByTestId('pr-empty').waitFor();
    assert.match((await pr().getByTestId('pr-empty').textContent()) ?? '', /No candidate pairs/);
    assert.equal(await pr().locator('circle.operating-point').count(), 0, 'no point plotted');
    assert.doesNotMatch((await pr().textContent()) ?? '', /precision 100\.0%, recall 0\.0%/);
    await page.screenshot({ path: join(SHOTS, 'pr-empty.png') });
  });
});
