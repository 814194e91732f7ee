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
