import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { articleId, dailyBlogWarc } from './daily-blog';
import { dropFile, type OpenApp, openApp, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

describe('a family of sparse rules in Chromium: one article per date', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-dust-families-'));
  let app: OpenApp;
  let page: Page;

  before(async () => {
    writeFileSync(join(dir, 'daily.warc.gz'), dailyBlogWarc());
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists ONE wildcard rule for the date permalinks, valid, with every instance', async () => {
    await dropFile(page, join(dir, 'daily.warc.gz'));
    await page.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Mine DUST rules' }).click();
    await page.getByTestId('dust-headline').waitFor({ timeout: 60_000 });
    const rows = page.getByRole('table', { name: 'Rules' }).locator('tbody tr');
    const texts = await rows.allTextContents();
    const family = texts.filter((t) => t.includes('/article.php?aid='));
    assert.equal(family.length, 1, texts.join('\n'));
    assert.match(family[0], /\/\{y\}\/\{m\}\/\{d\}\/\{n\}\/\$ → \/article\.php\?aid=\{n\}\$/);
    assert.match(family[0], /pairs.*valid/);
    // 120 permalinks crawled with their id URL: every one an instance of the one rule (support and
    // likely-similar support).
    const cells = await rows
      .filter({ hasText: '/article.php?aid=' })
      .first()
      .locator('td.num')
      .allTextContents();
    assert.deepEqual(cells.slice(1, 3), ['120', '120'], cells.join(' | '));
    // No rule of one date is listed.
    assert.equal(texts.filter((t) => /\/20\d\d\/\d\d\/\d\d\//.test(t)).length, 0, texts.join('\n'));
    await page.setViewportSize({ width: 1000, height: 700 });
    await rows.filter({ hasText: '/article.php?aid=' }).first().click();
    const detail = page.getByRole('region', { name: 'Rule instances' });
    await detail.waitFor();
    // Its instances read apart (issue "Every screen readable…", item 1): the origin said once, each
    // URL by what tells it from the others, rows that wrap rather than cut.
    assert.match(
      (await detail.getByTestId('instances-origin').textContent()) ?? '',
      /Every URL below is on http/,
    );
    const inst = detail.locator('ol.instances li');
    const pairs = await inst.evaluateAll((li) =>
      li.map((x) => [...x.querySelectorAll('.url')].map((u) => (u as HTMLElement).innerText.trim())),
    );
    assert.ok(pairs.length >= 20, `${pairs.length} instances shown`);
    for (const [a, b] of pairs) assert.notEqual(a, b);
    const shown = pairs.flat();
    assert.equal(new Set(shown).size, shown.length, shown.join(' | '));
    const overflowing = await inst.evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => (e as HTMLElement).innerText),
    );
    assert.deepEqual(overflowing, []);
    await page.screenshot({ path: join(SHOTS, 'dust-families.png'), fullPage: true });
    await page.setViewportSize({ width: 1400, height: 900 });
    // Canonisation sends the permalink to its id URL (both rows hold the article's id).
    await page.getByLabel('Filter by URL or title').fill(String(articleId(7)));
    const canon = (await page.locator('.tr .c-canon').allTextContents()).map((t) => t.trim());
    // The id URL is its own canonical form (blank), the permalink's is the id URL.
    assert.equal(canon.length, 2, canon.join(' | '));
    assert.deepEqual(
      canon.filter((c) => c !== '').map((c) => c.endsWith(`/article.php?aid=${articleId(7)}`)),
      [true],
      canon.join(' | '),
    );
    await page.getByLabel('Filter by URL or title').fill('');
  });
});
