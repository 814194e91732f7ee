import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generateWarcGz } from '../bench/gen-warc';
import { dropFile, type OpenApp, openApp, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/**
 * No work lost without a word (issue "Every screen readable…", scope 4): a signatures job ended by a
 * reload is said to be interrupted with a restart; a dataset deleted in another tab is said there; a
 * dataset's problems are shown with that dataset only.
 */
describe('work not lost silently, in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-lost-'));
  const crawl = join(dir, 'slow-signatures.warc.gz');
  let app: OpenApp;
  let page: Page;

  before(async () => {
    await generateWarcGz(crawl, 8e6, 11);
    app = await openApp({
      beforeLoad: async (p) => {
        await p.setViewportSize({ width: 1280, height: 800 });
        p.on('dialog', (d) => void d.accept());
      },
    });
    page = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a reload during signatures: the pane says interrupted, Restart computes them', async () => {
    await dropFile(page, crawl);
    await page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    // Under way: its progress is shown (the job holds its lock and its mark from its first step).
    await page.locator('.pane-clusters [role=progressbar], .pane-clusters progress').first().waitFor();
    await page.reload();
    const note = page.getByTestId('signatures-interrupted');
    await note.waitFor({ timeout: 10_000 });
    assert.match((await note.textContent()) ?? '', /Computing signatures \(started at .+\) was interrupted/);
    // Nothing of it was stored: the pane still offers to compute.
    assert.equal(await page.getByRole('button', { name: 'Compute signatures' }).count(), 1);
    await page.screenshot({ path: join(SHOTS, 'signatures-interrupted.png') });
    await note.getByRole('button', { name: 'Restart' }).click();
    await page.getByTestId('cluster-summary').waitFor({ timeout: 120_000 });
    assert.equal(await note.count(), 0);
    // A finished job leaves no mark: a reload now says nothing.
    await page.reload();
    await page.getByTestId('cluster-summary').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('signatures-interrupted').count(), 0);
  });

  it('a dataset deleted in another tab is said in this one, not a silent jump', async () => {
    await page.getByRole('button', { name: 'Open sample crawl' }).click();
    const sampleRow = page.locator('.dataset-list li', { hasText: 'sample.warc.gz' });
    await sampleRow.locator('.badge.status-ready').waitFor({ timeout: 60_000 });
    await sampleRow.click();
    const b = await app.context.newPage();
    b.on('dialog', (d) => void d.accept());
    await b.goto(app.url);
    await b.locator('.dataset-list li', { hasText: 'sample.warc.gz' }).click();
    await b.getByRole('button', { name: 'Delete sample.warc.gz' }).click();
    await b.locator('.dataset-list li', { hasText: 'sample.warc.gz' }).waitFor({ state: 'detached' });
    const said = page.locator('.notice', { hasText: 'was deleted in another tab' });
    await said.waitFor({ timeout: 5_000 });
    assert.match(
      (await said.textContent()) ?? '',
      /“sample\.warc\.gz” was deleted in another tab; showing “slow-signatures\.warc\.gz” instead/,
    );
    // The tab that deleted it is not told its own news.
    assert.equal(await b.locator('.notice', { hasText: 'was deleted in another tab' }).count(), 0);
    await page.screenshot({ path: join(SHOTS, 'deleted-in-another-tab.png') });
    await b.close();
  });
});
