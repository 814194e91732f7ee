import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type OpenApp, openApp, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/** Template text on the sample: dimmed in the page detail, after the main text in the pair view, a parameter. */
describe('template text in Chromium', () => {
  let app: OpenApp;
  let page: Page;

  before(async () => {
    app = await openApp();
    page = app.page;
    await page.getByRole('button', { name: 'Open sample crawl' }).click();
    await page.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 60_000 });
  });

  after(async () => {
    await app?.close();
  });

  const candidates = async () =>
    Number(
      /of ([\d,]+) candidate pairs/
        .exec((await page.getByTestId('cluster-summary').textContent()) ?? '')?.[1]
        .replace(/,/g, '') ?? NaN,
    );

  it('the page detail dims the lines the news site repeats, not the story itself', async () => {
    await page.getByLabel('Filter by URL or title').fill('story_10');
    await page.locator('.tr').first().click();
    await page.getByTestId('template-legend').waitFor({ timeout: 20_000 });
    const text = page.getByTestId('page-text');
    const dimmed = await text.locator('.template-text').allTextContents();
    const all = (await text.textContent()) ?? '';
    const dimmedChars = dimmed.join('').length;
    assert.ok(dimmed.length > 0, 'template runs are marked');
    assert.ok(
      dimmedChars < all.length / 2,
      `most of a story is its own text (${dimmedChars} of ${all.length})`,
    );
    // Dimmed, still a text node: a computed colour lighter than the text around it.
    const [runColour, textColour] = await text.evaluate((el) => [
      getComputedStyle(el.querySelector('.template-text')!).color,
      getComputedStyle(el).color,
    ]);
    assert.notEqual(runColour, textColour);
    // Another story of the same site shares those lines.
    await page.getByLabel('Filter by URL or title').fill('story_11');
    await page.locator('.tr').first().click();
    await page.getByTestId('template-legend').waitFor({ timeout: 20_000 });
    const other = await page.getByTestId('page-text').locator('.template-text').allTextContents();
    assert.ok(
      dimmed.some((d) =>
        other.some((o) => o.split('\n').some((line) => line.length > 3 && d.includes(line))),
      ),
      'the two stories share template lines',
    );
    const detail = page.locator('aside', { has: page.getByTestId('page-text') });
    await page.getByTestId('template-legend').scrollIntoViewIfNeeded();
    await detail.screenshot({ path: join(SHOTS, 'template-page-detail.png') });
    await page.getByLabel('Filter by URL or title').fill('');
  });

  it('the pair view shows the main text first and the template text collapsed', async () => {
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    await page.getByTestId('cluster-summary').waitFor({ timeout: 60_000 });
    const list = page.getByRole('listbox', { name: 'Clusters' });
    await list.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Cluster detail' }).waitFor();
    const block = page.getByTestId('compare-template');
    await block.waitFor({ timeout: 20_000 });
    assert.equal(await block.evaluate((el) => (el as HTMLDetailsElement).open), false, 'collapsed');
    // Text A of the comparison: its cells, row by row.
    await page.locator('.side-by-side .compare-scroll .compare-cell.compare-a').first().waitFor();
    const main = (
      await page.locator('.side-by-side .compare-scroll .compare-cell.compare-a').allTextContents()
    ).join('');
    const template = (await block.locator('pre').first().textContent()) ?? '';
    assert.ok(main.length > 20 && template.length > 0);
    // Main text first: the template's lines are not in the main column.
    const firstLine = template.split('\n').find((l) => l.length > 12) ?? template.split('\n')[0];
    assert.ok(!main.includes(firstLine), `"${firstLine}" is template, not main text`);
    await block.locator('summary').click();
    assert.equal(await block.evaluate((el) => (el as HTMLDetailsElement).open), true);
    await page.screenshot({ path: join(SHOTS, 'template-compare.png'), fullPage: true });
  });

  it('"Template text: keep" is a signature parameter: another analysis, and back without recomputing', async () => {
    const stripped = await candidates();
    await page.getByText('Signature parameters').click();
    const toggle = page.getByRole('combobox', { name: /^Template text/ });
    assert.equal(await toggle.inputValue(), 'strip', 'template text is left out by default');
    await toggle.selectOption('keep');
    await page.getByText('changed: recomputation needed').waitFor();
    await page.getByRole('button', { name: 'Recompute in the background' }).click();
    await page.getByText('Thresholds (sliders) never need a recomputation').waitFor({ timeout: 60_000 });
    await page.waitForFunction(
      (n) => {
        const s = document.querySelector('[data-testid="cluster-summary"]')?.textContent ?? '';
        const m = /of ([\d,]+) candidate pairs/.exec(s);
        return m !== null && Number(m[1].replace(/,/g, '')) !== n;
      },
      stripped,
      { timeout: 20_000 },
    );
    const kept = await candidates();
    assert.notEqual(kept, stripped, 'whole pages give other candidate pairs');
    await toggle.selectOption('strip');
    // The stripped analysis is still stored: shown again without recomputing.
    await page.getByText('Thresholds (sliders) never need a recomputation').waitFor();
    await page.waitForFunction(
      (n) =>
        (document.querySelector('[data-testid="cluster-summary"]')?.textContent ?? '').includes(
          `of ${n} candidate`,
        ),
      stripped.toLocaleString('en-US'),
      { timeout: 20_000 },
    );
    assert.deepEqual(app.errors, []);
  });
});
