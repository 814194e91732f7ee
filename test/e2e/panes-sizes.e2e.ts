import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { type OpenApp, openApp, SHOTS } from './harness';
import { computeSignatures, mineDust, openSample } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

/**
 * Issue #24, acceptance: the clusters, PR, DUST, labels and comparison panes at 1280×800, 1920×1080 and
 * 1000×700, each saved as `panes-<pane>-<size>.png` in test-results/ to be looked at. At every size no
 * pane's content runs past its box (nothing clipped sideways), and every pane says what it shows.
 */
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 1000, height: 700 },
] as const;

describe('the analysis panes at three window sizes, in Chromium', () => {
  let app: OpenApp;
  let page: Page;

  before(async () => {
    app = await openApp({ beforeLoad: (p) => p.setViewportSize(SIZES[0]) });
    page = app.page;
    await openSample(page);
    await computeSignatures(page);
    await mineDust(page);
    // A cluster open (its comparison below it) and a label queue started.
    const list = page.getByRole('listbox', { name: 'Clusters' });
    await list.getByRole('option').first().click();
    await page.getByRole('region', { name: 'Cluster detail' }).waitFor();
    const labels = page.getByRole('region', { name: 'Label pairs' });
    await labels.getByRole('button', { name: 'New queue' }).click();
    await labels.locator('.page-text').first().waitFor();
    // A rule open (its instances), and the signature parameters unfolded.
    await page.getByRole('table', { name: 'Rules' }).locator('tbody tr').first().click();
    await page.getByRole('region', { name: 'Rule instances' }).waitFor();
    await page.locator('.pane-clusters details.params summary').first().click();
  });

  after(async () => {
    await app?.close();
  });

  /** Elements inside the pane wider than it: content cut off or pushed sideways. */
  const overflowing = (pane: Locator) =>
    pane.evaluate((root) => {
      const box = root.getBoundingClientRect();
      const out: string[] = [];
      for (const el of root.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        // Inside a box that scrolls sideways on purpose (wide tables, the text columns) is fine.
        let scrolls = false;
        for (let p = el.parentElement; p && p !== root; p = p.parentElement) {
          const s = getComputedStyle(p);
          if (/(auto|scroll|hidden)/.test(s.overflowX)) scrolls = true;
        }
        if (!scrolls && (r.right > box.right + 1 || r.left < box.left - 1))
          out.push(
            `${el.tagName.toLowerCase()}.${el.className}: ${Math.round(r.left)}–${Math.round(r.right)}`,
          );
      }
      return out.slice(0, 5);
    });

  const panes: [string, (p: Page) => Locator][] = [
    ['clusters', (p) => p.getByRole('region', { name: 'Duplicate clusters' })],
    ['pr', (p) => p.getByRole('region', { name: 'Precision and recall' })],
    ['dust', (p) => p.getByRole('region', { name: 'DUST rules' })],
    ['labels', (p) => p.getByRole('region', { name: 'Label pairs' })],
    ['comparison', (p) => p.getByRole('region', { name: 'Cluster detail' }).locator('.side-by-side')],
    ['cluster-detail', (p) => p.getByRole('region', { name: 'Cluster detail' })],
    ['rule-instances', (p) => p.getByRole('region', { name: 'Rule instances' })],
    ['pages', (p) => p.getByRole('region', { name: 'Pages' })],
  ];

  /** Selects narrower than their chosen option's text (plus the arrow): a value cut off. */
  const clippedSelects = (pane: Locator) =>
    pane.locator('select').evaluateAll((els) => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      return (els as HTMLSelectElement[])
        .filter((e) => e.getBoundingClientRect().width > 0)
        .filter((e) => {
          const s = getComputedStyle(e);
          ctx.font = `${s.fontSize} ${s.fontFamily}`;
          const text = e.selectedOptions[0]?.textContent ?? '';
          return ctx.measureText(text).width + 20 > e.clientWidth;
        })
        .map((e) => `${e.getAttribute('aria-label') ?? e.closest('label')?.textContent}: ${e.clientWidth}px`);
    });

  for (const size of SIZES) {
    it(`at ${size.width}×${size.height}: every pane within its box, screenshots saved`, async () => {
      await page.setViewportSize(size);
      for (const [name, of] of panes) {
        const pane = of(page);
        await pane.scrollIntoViewIfNeeded();
        assert.ok(await pane.isVisible(), `${name} pane shown at ${size.width}×${size.height}`);
        assert.deepEqual(await overflowing(pane), [], `${name} pane: nothing past its box`);
        assert.deepEqual(await clippedSelects(pane), [], `${name} pane: no select cuts its value`);
        await page.screenshot({ path: join(SHOTS, `panes-${name}-${size.width}x${size.height}.png`) });
      }
    });
  }
});
