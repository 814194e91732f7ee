import assert from 'node:assert/strict';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ingest } from '../../src/core/ingest/pipeline';
import { generateWacz, generateWarcGz } from '../bench/gen-warc';
import { dropFile, type OpenApp, openApp, readInParts, projectFile, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/** Pages of one file as the Node core reads it (the CLI's count), and each page's payload digest by URL. */
async function nodePages(path: string, name: string, digests?: Map<string, string>): Promise<number> {
  const s = await ingest(
    createReadStream(path) as AsyncIterable<Uint8Array>,
    { fileName: name, totalBytes: statSync(path).size },
    async (batch) => {
      for (const p of batch) digests?.set(p.page.url, p.page.digest);
    },
  );
  return s.pages;
}

/**
 * A crawl as archivists keep it: several WARC.gz dropped at once are ONE dataset (the middle one large
 * enough to be read in parallel parts), a folder chosen with "Open folder…" too, and a WACZ gives the
 * pages of all its WARCs.
 */
describe('many files, one crawl, in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-many-'));
  const crawl = join(dir, 'crawl');
  // crawl-00002 passes the 16 MB line above which one file is read by several workers.
  const parts: [string, number, number][] = [
    ['crawl-00001.warc.gz', 400e3, 21],
    ['crawl-00002.warc.gz', 17.5e6, 22],
    ['crawl-00003.warc.gz', 600e3, 23],
  ];
  const counts: number[] = [];
  /** The third file's digests as the Node core computes them (its records state none). */
  const digests = new Map<string, string>();
  let app: OpenApp;
  let page: Page;
  const datasets = () => page.locator('.dataset-list li').count();

  before(async () => {
    mkdirSync(crawl);
    for (const [name, bytes, seed] of parts) {
      await generateWarcGz(join(crawl, name), bytes, seed);
      counts.push(await nodePages(join(crawl, name), name, name === parts[2][0] ? digests : undefined));
    }
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('three WARC.gz dropped at once: one dataset with the sum of their pages', async () => {
    const total = counts.reduce((a, b) => a + b, 0);
    assert.ok(
      counts.every((n) => n > 0),
      `pages per file ${counts}`,
    );
    await dropFile(page, ...parts.map(([name]) => join(crawl, name)));
    await page.getByRole('progressbar').waitFor();
    await page.getByTestId('ingest-file').waitFor();
    await page.screenshot({ path: join(SHOTS, 'many-files-progress.png') });
    await page.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 180_000 });
    assert.equal(await datasets(), 1);
    await page
      .getByTestId('page-count')
      .filter({ hasText: `of ${total.toLocaleString('en-US')} pages` })
      .waitFor({ timeout: 20_000 });
    const header = page.locator('.dataset-header');
    await header.getByText('crawl-00001.warc.gz and 2 more').first().waitFor();
    await header.locator('.dataset-sources summary').click();
    const rows = await header.locator('.dataset-sources > ul > li').allTextContents();
    assert.equal(rows.length, 3);
    parts.forEach(([name], i) => {
      assert.ok(rows[i].includes(name), rows[i]);
      assert.ok(rows[i].includes(`${counts[i].toLocaleString('en-US')} pages`), `${rows[i]} vs ${counts[i]}`);
    });
    // A page keeps its own file and offset: the last page listed comes from the third file.
    await page.locator('.tr').first().click();
    await page.keyboard.press('End');
    const source = page.locator('dl dt', { hasText: 'Source' }).locator('xpath=following-sibling::dd[1]');
    assert.match(
      (await source.textContent()) ?? '',
      new RegExp(`${parts[2][0].replace(/\./g, '\\.')} · byte [\\d,]+`),
    );
    // Its records state no payload digest: the browser computed it (WebAssembly SHA-1) as Node does.
    const field = (name: string) =>
      page
        .locator('dl dt', { hasText: name })
        .locator('xpath=following-sibling::dd[1]')
        .first()
        .textContent();
    const url = (await field('URL'))?.trim() ?? '';
    assert.ok(digests.has(url), `a page of ${parts[2][0]}: ${url}`);
    assert.equal((await field('Digest'))?.trim(), digests.get(url));
    assert.match(digests.get(url) ?? '', /^sha1:[A-Z2-7]{32}$/);
    await page.screenshot({ path: join(SHOTS, 'many-files-ready.png') });
  });

  it("the ingest worker may compile WebAssembly (its SHA-1) under the app's Content-Security-Policy", async () => {
    const worker = page.workers().find((w) => /ingest\.worker/.test(w.url()));
    assert.ok(worker, `workers: ${page.workers().map((w) => w.url())}`);
    const compiled = await worker.evaluate(() =>
      WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
        () => 'compiled',
        (e: Error) => e.message,
      ),
    );
    assert.equal(compiled, 'compiled');
  });

  it('a folder chosen with Open folder…: one dataset named after it, a file that is not a crawl listed as skipped', async () => {
    const before = await datasets();
    const stray = join(crawl, 'notes.png');
    // A file that is not a crawl inside the folder: skipped and listed, not fatal.
    const { copyFileSync } = await import('node:fs');
    copyFileSync(projectFile('test/fixtures/image.png'), stray);
    try {
      await page.getByTestId('folder-input').setInputFiles(crawl);
      await page.locator('.dataset-list li').nth(before).waitFor({ timeout: 180_000 });
      await page
        .locator('.dataset-list .badge.status-ingesting')
        .waitFor({ state: 'detached', timeout: 180_000 });
      assert.equal(await datasets(), before + 1);
      await page.locator('.dataset-list li .dataset', { hasText: 'crawl' }).first().click();
      const header = page.locator('.dataset-header');
      await header.getByRole('heading', { name: 'crawl', exact: true }).waitFor();
      const total = counts.reduce((a, b) => a + b, 0);
      await page
        .getByTestId('page-count')
        .filter({ hasText: `of ${total.toLocaleString('en-US')} pages` })
        .waitFor({ timeout: 20_000 });
      const summary = (await header.locator('.dataset-sources summary').textContent()) ?? '';
      assert.match(summary, /4 files \(1 skipped: not readable as a crawl\)/);
    } finally {
      rmSync(stray);
    }
  });

  it('a WACZ: the pages of its WARCs, its page list counted', async () => {
    const before = await datasets();
    await dropFile(page, projectFile('test/fixtures/crawl.wacz'));
    await page.locator('.dataset-list li').nth(before).waitFor({ timeout: 60_000 });
    await page
      .locator('.dataset-list .badge.status-ingesting')
      .waitFor({ state: 'detached', timeout: 60_000 });
    await page.locator('.dataset-list li .dataset', { hasText: 'crawl.wacz' }).first().click();
    await page.getByTestId('page-count').filter({ hasText: 'of 4 pages' }).waitFor({ timeout: 20_000 });
    // Named as what was dropped: a WACZ (of gzipped WARCs), not the WARC inside it.
    const item = page.locator('.dataset-list li .dataset', { hasText: 'crawl.wacz' }).first();
    assert.match((await item.locator('.meta').textContent()) ?? '', /^wacz · /);
    const header = page.locator('.dataset-header');
    assert.match((await header.locator('.meta').first().textContent()) ?? '', /^wacz: warc \(gzip\) · /);
    await header.getByText('Page list (pages.jsonl): 4 listed, 3 read as pages').waitFor();
    await header.locator('.dataset-sources summary').click();
    const rows = await header.locator('.dataset-sources > ul > li').allTextContents();
    assert.equal(rows.length, 2);
    assert.ok(rows[0].includes('crawl.wacz › archive/data.warc.gz'), rows[0]);
    assert.ok(rows[1].includes('crawl.wacz › archive/data-2.warc'), rows[1]);
    for (const title of ['Archive home', 'About the archive', 'Maps collection'])
      await page.getByText(title).first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'many-files-wacz.png') });
  });

  it('a large WACZ (its WARC stored, as Browsertrix writes it) is read in parallel parts, like the file', async () => {
    const wacz = join(dir, 'big.wacz');
    await generateWacz(join(crawl, parts[1][0]), wacz);
    const before = await datasets();
    await dropFile(page, wacz);
    await page.locator('.dataset-list li').nth(before).waitFor({ timeout: 60_000 });
    await page
      .locator('.dataset-list .badge.status-ingesting')
      .waitFor({ state: 'detached', timeout: 120_000 });
    await page.locator('.dataset-list li .dataset', { hasText: 'big.wacz' }).first().click();
    await page
      .getByTestId('page-count')
      .filter({ hasText: `of ${counts[1].toLocaleString('en-US')} pages` })
      .waitFor({ timeout: 20_000 });
    // A page's source is the WACZ's WARC, at a byte offset within it.
    await page.locator('.tr').first().click();
    const source = page.locator('dl dt', { hasText: 'Source' }).locator('xpath=following-sibling::dd[1]');
    assert.match(
      (await source.textContent()) ?? '',
      new RegExp(`big\\.wacz › archive/${parts[1][0].replace(/\./g, '\\.')} · byte [\\d,]+`),
    );
    assert.ok(await readInParts(page), 'read in two parts');
    await page.screenshot({ path: join(SHOTS, 'many-files-wacz-parts.png') });
  });
});
