import assert from 'node:assert/strict';
import { createReadStream, statSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ingest } from '../../src/core/ingest/pipeline';
import { appForSuite, AT_1280_800, projectFile } from './harness';

/** The sample's repost with one paragraph appended (scripts/lib/sample-news.ts) and its original. */
const REPOST = 'http://www.example-news.test/story_2003';
const ORIGINAL = 'http://www.example-news.test/story_1024';

/** seq of each sample page, as the core numbers them (the browser reads the sample in one part too). */
async function sampleSeqs(): Promise<Map<string, number>> {
  const file = projectFile('sample/sample.warc.gz');
  const seqs = new Map<string, number>();
  await ingest(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    { fileName: 'sample.warc.gz', totalBytes: statSync(file).size },
    async (batch) => {
      for (const p of batch) if (!seqs.has(p.page.url)) seqs.set(p.page.url, p.page.seq);
    },
  );
  return seqs;
}

const settle = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok()))),
  );

/**
 * Whether the element lies inside its scroll box and inside the window: whole when it fits there, else
 * as much of it as fits (a highlight taller than the window fills it).
 */
async function inView(page: Page, selector: string): Promise<boolean[]> {
  return page.evaluate((sel) => {
    return [...document.querySelectorAll(sel)].map((el) => {
      const r = el.getBoundingClientRect();
      let box = { top: 0, bottom: window.innerHeight };
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (/(auto|scroll)/.test(s.overflowY) && p.scrollHeight > p.clientHeight) {
          const b = p.getBoundingClientRect();
          box = { top: Math.max(box.top, b.top), bottom: Math.min(box.bottom, b.bottom) };
        }
      }
      const shown = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top);
      return shown >= Math.min(r.height, box.bottom - box.top) - 1 && r.height > 0;
    });
  }, selector);
}

/**
 * Issue #24, item 8: in the sample's repost with an appended paragraph the only difference lies below
 * the boxes' fold. Next difference brings it into view in A and in B, side by side.
 */
describe('pair comparison: headers, difference count, next difference', () => {
  let page: Page;
  appForSuite((a) => (page = a.page), AT_1280_800);

  it('opens the pair whose only difference is out of view and jumps to it', async () => {
    const seqs = await sampleSeqs();
    await page.getByRole('button', { name: 'Open sample crawl' }).click();
    await page.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    await page.getByTestId('cluster-summary').waitFor({ timeout: 240_000 });
    // Open the pair's cluster by the URL (cl= is the seq of its centre, one of the two pages).
    const detail = page.getByRole('region', { name: 'Cluster detail' });
    let opened = false;
    for (const url of [ORIGINAL, REPOST]) {
      const u = new URL(page.url());
      u.searchParams.set('cl', String(seqs.get(url)));
      await page.goto(u.toString());
      await page.getByTestId('cluster-summary').waitFor({ timeout: 240_000 });
      if (await detail.isVisible().catch(() => false)) {
        opened = true;
        break;
      }
      await page.waitForTimeout(1500);
      if (await detail.isVisible()) {
        opened = true;
        break;
      }
    }
    assert.ok(opened, 'the cluster of story_1024 and story_2003 opens');
    const urls = await detail
      .locator('.members .url')
      .evaluateAll((els) => els.map((e) => e.getAttribute('title')));
    assert.deepEqual([...urls].sort(), [ORIGINAL, REPOST].sort());

    const compare = detail.getByRole('group', { name: /Comparison of A and B/ });
    await compare.waitFor({ timeout: 10_000 });
    await detail.getByTestId('diff-count').filter({ hasText: '1 difference' }).waitFor({ timeout: 20_000 });
    // Headers: A and B with their URL.
    const heads = await compare.getByTestId('compare-head').allTextContents();
    assert.equal(heads.length, 2);
    assert.match(heads[0], /^A/);
    assert.match(heads[1], /^B/);
    assert.ok(heads.some((h) => h.includes('story_2003')) && heads.some((h) => h.includes('story_1024')));
    // The difference starts out of view…
    await compare.scrollIntoViewIfNeeded();
    await settle(page);
    assert.deepEqual(
      await inView(page, '.compare-scroll [data-diff="0"]'),
      [false, false],
      'out of view at first',
    );
    // …and the next difference brings it into view in both boxes.
    await compare.getByRole('button', { name: 'Next difference' }).click();
    await settle(page);
    await page.waitForTimeout(300);
    assert.deepEqual(
      await inView(page, '.compare-scroll [data-diff="0"]'),
      [true, true],
      'in view in A and B',
    );
    assert.match((await compare.getByTestId('diff-position').textContent()) ?? '', /1 of 1/);
    // The same by the keyboard: back to the top, then ].
    await compare.getByTestId('compare-scroll').evaluate((el) => (el.scrollTop = 0));
    await settle(page);
    assert.deepEqual(await inView(page, '.compare-scroll [data-diff="0"]'), [false, false]);
    await compare.getByTestId('compare-scroll').focus();
    await page.keyboard.press('[');
    await page.keyboard.press(']');
    await settle(page);
    await page.waitForTimeout(300);
    assert.deepEqual(await inView(page, '.compare-scroll [data-diff="0"]'), [true, true], '] brings it back');
    // Screenshots of the comparison at the sizes.
    for (const [w, h] of [
      [1280, 800],
      [1000, 700],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      await settle(page);
      await compare.getByRole('button', { name: 'Next difference' }).click();
      await compare.getByTestId('compare-scroll').focus();
      await page.keyboard.press(']');
      await settle(page);
      await page.waitForTimeout(300);
      assert.deepEqual(await inView(page, '.compare-scroll [data-diff="0"]'), [true, true], `at ${w}×${h}`);
      await page.screenshot({ path: `/tmp/compare-${w}x${h}.png` });
    }
  });
});
