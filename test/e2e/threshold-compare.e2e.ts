/**
 * Issue "The analyst's decisions persist", scope 3: what a threshold move changes. On the sample, the
 * Jaccard slider pinned at 0.80 and moved to 0.70: the pairs gained are listed (and only gained: a lower
 * threshold loses none), a listed pair opens its cluster, and the LSH S-curve marks both thresholds.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { appForSuite, AT_1280_800, SHOTS } from './harness';
import { computeSignatures, openSample } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

describe('compare two thresholds, in Chromium', () => {
  let page: Page;
  appForSuite((a) => (page = a.page), AT_1280_800);

  it('Jaccard 0.80 → 0.70: the gained pairs listed, none lost, the S-curve marked', async () => {
    await openSample(page);
    await computeSignatures(page);
    await page.getByRole('button', { name: 'Compare thresholds…' }).click();
    const compare = page.getByRole('region', { name: 'Compare thresholds' });
    await compare.waitFor();
    const slider = page.getByRole('slider', { name: 'jaccard' });
    assert.equal(await slider.inputValue(), '0.8');
    await slider.fill('0.7');
    await compare.getByTestId('compare-gained').waitFor();
    const said = (await compare.getByTestId('compare-summary').textContent()) ?? '';
    const m = /^([\d,]+) pairs gained, 0 lost/.exec(said);
    assert.ok(m, said);
    const gained = Number(m[1].replace(/,/g, ''));
    assert.ok(gained > 0, said);
    // As many more accepted pairs in the clusters' own count.
    const accepted = (s: string | null) =>
      Number(/([\d,]+) of [\d,]+ candidate pairs? accepted/.exec(s ?? '')![1].replace(/,/g, ''));
    const now = accepted(await page.getByTestId('cluster-summary').textContent());
    const rows = await compare.getByTestId('compare-gained').locator('li').allTextContents();
    assert.ok(rows.length >= 1);
    // Each listed pair's Jaccard is in [0.70, 0.80).
    for (const r of rows.filter((x) => x.startsWith('J '))) {
      const j = Number(/^J ([\d.]+)/.exec(r)![1]);
      assert.ok(j >= 0.7 && j < 0.8, r);
    }
    await slider.fill('0.8');
    await page
      .getByTestId('cluster-summary')
      .filter({ hasText: `${(now - gained).toLocaleString('en-US')} of ` })
      .waitFor();
    await slider.fill('0.7');
    await compare.getByTestId('compare-gained').waitFor();
    // The S-curve of the stored bands with A and B marked.
    const marks = await compare.locator('.threshold-mark text').allTextContents();
    assert.equal(marks.length, 2);
    assert.match(marks[0], /^A 0\.80: \d+\.\d%$/);
    assert.match(marks[1], /^B 0\.70: \d+\.\d%$/);
    // A listed pair opens its cluster.
    await compare.getByTestId('compare-gained').locator('li button').first().click();
    await page.getByRole('region', { name: 'Cluster detail' }).waitFor();
    await compare.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'threshold-compare.png') });
  });
});
