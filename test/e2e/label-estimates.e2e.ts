import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { appForSuite, AT_1280_800, SHOTS } from './harness';
import { computeSignatures, openSample } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

/**
 * Issue #24, item 7: precision and recall from labels were shown only in the PR pane, screens away from
 * the labelling pane. They are beside the labels now, with their intervals and the method they are for,
 * and follow each label given.
 */
describe('label estimates beside the labelling pane', () => {
  let page: Page;
  appForSuite((a) => (page = a.page), AT_1280_800);

  it('labelling a pair updates the estimates shown beside the labels', async () => {
    await openSample(page);
    await computeSignatures(page);
    const view = page.getByRole('region', { name: 'Label pairs' });
    const estimates = view.getByTestId('label-estimates');
    await estimates.waitFor();
    assert.match((await estimates.textContent()) ?? '', /No labels yet/);
    await view.getByRole('button', { name: 'New queue' }).click();
    await view.locator('.page-text').first().waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const line = (await view.locator('.pair-measures').textContent()) ?? '';
      const jaccard = Number(/Jaccard ([\d.]+)/.exec(line)?.[1] ?? 0);
      await page.keyboard.press(jaccard >= 0.8 ? 'd' : 'n');
      const n = i + 1;
      const want = `From ${n} label${n === 1 ? '' : 's'}, MinHash, Jaccard ≥ 0.80:`;
      await estimates.filter({ hasText: want }).waitFor();
      seen.push((await estimates.textContent()) ?? '');
    }
    for (const s of seen) assert.match(s, /precision (–|\d+% \[\d+–\d+%\]), recall (–|\d+% \[\d+–\d+%\])/);
    await view.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'label-estimates.png') });
  });
});
