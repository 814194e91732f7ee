// Issue #24, item 12: at 1280×800 the precision–recall controls wrapped inside themselves (the three D
// inputs split 2 + 1, a checkbox away from its words, a clipped menu); at 1920×1080 the rule table showed
// about 6 rows and the enlarged chart stayed 760 px wide; texts said "read in 0 s" and "1 hosts".
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { appForSuite, AT_1280_800, type OpenApp, SHOTS } from './harness';
import { computeSignatures, mineDust, openCrawl, openSample, words, writeCrawl } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

/** Counts in the singular written as plurals ("1 hosts"), and a duration rounded to nothing. */
const WRONG_TEXT =
  /\b1 (hosts|pages|files|records|clusters|labels|rules|URLs|sites|members|lines|characters|pairs)\b|read in 0 s\b/;

describe('layout and wording at 1280×800 and 1920×1080, in Chromium', () => {
  let app: OpenApp;
  let page: Page;
  appForSuite((a) => ([app, page] = [a, a.page]), AT_1280_800);

  const bodyText = () => page.evaluate(() => document.body.innerText);

  it('says "1 host" and a read time in tenths for a small one-host crawl', async () => {
    const file = writeCrawl(
      'one-host.warc',
      [0, 1, 2].map((d) => ({ url: `http://one.test/p${d}`, title: `Page ${d}`, text: words(d).join(' ') })),
    );
    await openCrawl(page, file, 'one-host.warc');
    const meta = (await page.locator('.dataset-header .meta').first().textContent()) ?? '';
    assert.match(meta, /3 pages · 1 host\b/, meta);
    assert.match(meta, /read in (< 0\.1|\d+\.\d) s/, meta);
    const text = await bodyText();
    assert.doesNotMatch(text, WRONG_TEXT);
  });

  it('keeps each precision–recall control on one line with its words at 1280×800', async () => {
    await openSample(page);
    await computeSignatures(page);
    const controls = page.locator('.pr-controls');
    await controls.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'layout-pr-controls-1280.png') });
    const groups = await controls.evaluate((el) =>
      [...el.querySelectorAll('label')].map((label) => {
        const range = document.createRange();
        const words = [...label.childNodes].filter((n) => n.nodeType === 3 && (n.textContent ?? '').trim());
        const text = words.map((n) => {
          range.selectNodeContents(n);
          const r = range.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom };
        });
        const inputs = [...label.querySelectorAll('input, select')].map((i) => {
          const r = i.getBoundingClientRect();
          // A menu shows its whole choice when it is at least as wide as it would be with room.
          let natural = r.width;
          if (i instanceof HTMLSelectElement) {
            const probe = i.cloneNode(true) as HTMLSelectElement;
            probe.style.cssText = 'position:absolute;visibility:hidden;width:auto;max-width:none';
            document.body.append(probe);
            natural = probe.getBoundingClientRect().width;
            probe.remove();
          }
          return { top: r.top, bottom: r.bottom, width: r.width, natural };
        });
        return { name: (label.textContent ?? '').trim(), text, inputs };
      }),
    );
    assert.ok(groups.length >= 4, `controls: ${groups.map((g) => g.name).join(' | ')}`);
    for (const g of groups) {
      const mid = (b: { top: number; bottom: number }) => (b.top + b.bottom) / 2;
      const all = [...g.text, ...g.inputs].map(mid);
      assert.ok(
        Math.max(...all) - Math.min(...all) <= 6,
        `"${g.name}": words and inputs on one row (centres ${all.map((v) => v.toFixed(0)).join(', ')})`,
      );
      for (const i of g.inputs)
        assert.ok(i.width >= i.natural - 1, `"${g.name}": menu clipped (${i.width} of ${i.natural})`);
    }
  });

  it('shows the rule table over the height of a 1920×1080 window', async () => {
    await mineDust(page);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.waitForTimeout(400);
    const box = page.locator('.pane-dust .rules-scroll');
    await box.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'layout-rules-1920.png') });
    const { total, visible } = await box.evaluate((el) => {
      const b = el.getBoundingClientRect();
      const rows = [...el.querySelectorAll('tbody tr')];
      return {
        total: rows.length,
        visible: rows.filter((r) => {
          const x = r.getBoundingClientRect();
          return x.top >= b.top - 1 && x.bottom <= b.bottom + 1;
        }).length,
      };
    });
    assert.ok(total >= 7, `rules: ${total}`);
    assert.equal(visible, Math.min(total, 20), `rows in view: ${visible} of ${total}`);
  });

  it('draws the enlarged precision–recall chart across the pane at 1920×1080', async () => {
    await page.getByRole('button', { name: 'Enlarge Precision–recall' }).click();
    const frame = page.locator('.pane-frame.enlarged');
    await page.waitForTimeout(300);
    const pane = (await frame.boundingBox())!;
    const chart = (await frame.getByRole('img', { name: 'Precision-recall curves' }).boundingBox())!;
    await page.screenshot({ path: join(SHOTS, 'layout-pr-enlarged-1920.png') });
    assert.ok(chart.width >= 0.9 * pane.width, `chart ${chart.width} px of a ${pane.width} px pane`);
    assert.ok(chart.y + chart.height <= 1080, 'the chart fits the window');
    await page.getByRole('button', { name: 'Restore' }).click();
  });

  it('writes no "1 hosts" and no "read in 0 s" anywhere', async () => {
    assert.doesNotMatch(await bodyText(), WRONG_TEXT);
  });

  it('raised no uncaught error in the page', () => {
    assert.deepEqual(app.errors, []);
  });
});
