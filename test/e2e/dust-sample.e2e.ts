import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type OpenApp, openApp, SHOTS } from './harness';
import { largeCrawlFiles, type LargeCrawlFiles } from './large-crawl-files';

mkdirSync(SHOTS, { recursive: true });

// 37 pages of 8 site groups: the /story?id= and /story_ directories of the news site are cut apart.
const BUDGET = 100;
const SEED = 3;

async function openLarge(page: Page, paths: string[]) {
  await page.getByRole('button', { name: 'Open a large crawl…' }).click();
  await page.getByTestId('sample-budget').fill(String(BUDGET));
  await page.getByTestId('sample-seed').fill(String(SEED));
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose WARC files and index…' }).click();
  await (await chooser).setFiles(paths);
  await page
    .locator('.dataset-list li', { hasText: 'Sample of crawl-part-1.warc.gz' })
    .locator('.badge.status-ready')
    .waitFor({ timeout: 60_000 });
}

/** The rules table's rows by the badge of their status cell. */
async function rowsByBadge(page: Page) {
  const rows = page.locator('table.rules tbody tr');
  return {
    all: await rows.count(),
    likely: await rows.locator('.badge.rule-likely').count(),
    valid: await rows.locator('.badge.rule-valid').count(),
    unvalidated: await rows.locator('.badge.rule-unvalidated').count(),
  };
}

/**
 * Issue 45, item 5: DUST on a designed sample. The rules are mined on every URL of the crawl's index,
 * the partners of sampled URLs read by byte range from the crawl's files, and a rule the sample could
 * not validate is never shown as likely: hidden by default, and said for what it is when shown.
 */
describe('DUST on a designed sample', () => {
  let app: OpenApp;
  let page: Page;
  let files: LargeCrawlFiles;

  before(async () => {
    files = await largeCrawlFiles();
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  it('reads partners by byte range and shows no unvalidated rule as likely by default', async () => {
    await openLarge(page, [...files.warcs, files.index]);
    await page.getByRole('button', { name: 'Mine DUST rules' }).click();
    const pane = page.getByRole('region', { name: 'DUST rules' });
    await page.getByTestId('dust-headline').waitFor({ timeout: 60_000 });
    const partners = (await page.getByTestId('dust-partners').textContent()) ?? '';
    assert.match(partners, /Partners read: \d+ pages? by byte range from the crawl’s files/);
    const shown = await rowsByBadge(page);
    assert.equal(shown.likely, 0, 'no likely row by default');
    assert.equal(shown.unvalidated, 0, 'rules not validated are hidden by default');
    assert.ok(shown.valid > 0, `a rule validated on the partners read (${JSON.stringify(shown)})`);
    // The valid rule was judged on instances whose two pages were in hand.
    const status = (await page.locator('table.rules tbody tr .status').first().textContent()) ?? '';
    assert.match(status, /valid \+[1-9]\d*\/−0/);
    // The redundancy figure says what it covers.
    assert.match(
      (await page.getByTestId('dust-redundancy-scope').textContent()) ?? '',
      new RegExp(`in the crawl index’s [\\d,]+ URLs, by the rules validated on the sample`),
    );
    await pane.screenshot({ path: join(SHOTS, 'dust-sample-default.png') });

    // The toggle lists the others, each "not validated: k of n instances in the sample", none as likely.
    const toggle = page.getByTestId('dust-show-unvalidated');
    const hidden = Number(/Show the (\d+) rules? not validated/.exec((await toggle.textContent()) ?? '')![1]);
    assert.ok(hidden > 0);
    await toggle.locator('input').check();
    const all = await rowsByBadge(page);
    assert.equal(all.unvalidated, hidden);
    assert.equal(all.likely, 0);
    assert.equal(all.all, shown.all + hidden);
    const cell = page.locator('table.rules tbody tr', { has: page.locator('.badge.rule-unvalidated') });
    assert.match(
      (await cell.first().locator('.status').textContent()) ?? '',
      /not validated (\d+ of \d+ instances in the sample|no instance in the crawl’s URLs)/,
    );
    await pane.screenshot({ path: join(SHOTS, 'dust-sample-unvalidated-shown.png') });
    await toggle.locator('input').uncheck();
  });

  it('after a reload the files are asked for again; the rules not validated stay hidden', async () => {
    await page.reload();
    await page
      .locator('.dataset-list li', { hasText: 'Sample of crawl-part-1.warc.gz' })
      .locator('button.dataset')
      .click();
    await page.getByTestId('dust-headline').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Mine again' }).click();
    const note = page.getByTestId('dust-partners');
    await note.filter({ hasText: 'not open in this tab' }).waitFor({ timeout: 60_000 });
    const without = await rowsByBadge(page);
    assert.equal(without.likely, 0, 'no likely row without the partners either');
    assert.equal(without.valid, 0, 'nothing validated on the sampled pages alone');
    await page.getByTestId('dust-none-validated').waitFor();
    await page
      .getByRole('region', { name: 'DUST rules' })
      .screenshot({ path: join(SHOTS, 'dust-sample-no-files.png') });
    const chooser = page.waitForEvent('filechooser');
    await note.getByRole('button', { name: 'Choose the crawl’s files…' }).click();
    await (await chooser).setFiles([...files.warcs]);
    await note.filter({ hasText: 'Partners read' }).waitFor({ timeout: 60_000 });
    assert.ok((await rowsByBadge(page)).valid > 0);
  });
});
