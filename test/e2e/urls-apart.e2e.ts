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
import { appForSuite, type OpenApp, SHOTS } from './harness';
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
  let app: OpenApp;
  appForSuite((a) => ([app, page] = [a, a.page]));

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
        // The graph: one label a node, each different, none covering another, all inside the picture.
        const graph = detail().locator('.cluster-graph svg');
        const labels = await graph.locator('text.node-label').evaluateAll((els) =>
          els.map((e) => {
            const b = (e as SVGTextElement).getBBox();
            return { text: e.textContent ?? '', x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height };
          }),
        );
        const nodes = await graph.locator('g.nodes g').count();
        assert.equal(
          labels.length,
          nodes,
          `cluster ${c}: every node labelled (${labels.map((l) => l.text)})`,
        );
        assert.equal(
          new Set(labels.map((l) => l.text)).size,
          labels.length,
          `cluster ${c}: ${labels.map((l) => l.text)}`,
        );
        for (let i = 0; i < labels.length; i++)
          for (let j = i + 1; j < labels.length; j++) {
            const [a, b] = [labels[i], labels[j]];
            const cover = a.x0 < b.x1 - 1 && b.x0 < a.x1 - 1 && a.y0 < b.y1 - 1 && b.y0 < a.y1 - 1;
            assert.ok(!cover, `cluster ${c}: "${a.text}" covers "${b.text}"`);
          }
        const box = await graph.evaluate((e) => ({
          w: e.clientWidth,
          pane: e.closest('.cluster-detail')!.clientWidth,
        }));
        assert.ok(box.w >= 0.8 * box.pane - 40, `graph ${box.w} px in a ${box.pane} px pane`);
      }
      // A member's URL reads whole on a click.
      const first = detail().locator('table.members tbody tr td:nth-child(3) .url').first();
      const whole = (await first.getAttribute('title')) ?? '';
      await first.click();
      assert.equal((await first.innerText()).trim(), whole);
      // …and copies whole.
      await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
      const copy = detail().locator('table.members tbody tr td:nth-child(3) button.copy-url').first();
      await copy.click();
      await copy.filter({ hasText: 'copied' }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), whole);
      await first.click();
      await page.screenshot({ path: join(SHOTS, `urls-apart-${width}.png`) });
    });

  it('label rows read differently: the queue heads and the All-labels list', async () => {
    await page.setViewportSize({ width: 1000, height: 700 });
    const options = page.getByRole('listbox', { name: 'Clusters' }).getByRole('option');
    const view = page.getByRole('region', { name: 'Label pairs' });
    for (let c = 0; c < 3; c++) {
      await options.nth(c).click();
      await page.getByRole('button', { name: /Label this cluster/ }).click();
      await view.locator('.pair-measures').waitFor();
      const heads = await view
        .locator('.url')
        .evaluateAll((els) => els.slice(0, 2).map((e) => (e as HTMLElement).innerText.trim()));
      assert.notEqual(heads[0], heads[1], `queue heads of cluster ${c}: ${heads.join(' | ')}`);
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      for (let k = 0; k < 3; k++) await page.keyboard.press('d');
    }
    const rows = page.getByRole('listbox', { name: 'Labels' }).getByRole('option');
    const texts = await rows.evaluateAll((li) =>
      li.map((x) => [...x.querySelectorAll('.url')].map((u) => (u as HTMLElement).innerText.trim())),
    );
    assert.ok(texts.length >= 5, `labelled pairs: ${texts.length}`);
    for (const [a, b] of texts) assert.notEqual(a, b, `a label row reads ${a} twice`);
    const joined = texts.map((t) => t.join(' — '));
    assert.equal(new Set(joined).size, joined.length, joined.join(' | '));
    const overflowing = await rows
      .locator('.url')
      .evaluateAll((els) =>
        els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => (e as HTMLElement).innerText),
      );
    assert.deepEqual(overflowing, []);
    await page.screenshot({ path: join(SHOTS, 'urls-apart-labels.png'), fullPage: true });
  });
});
