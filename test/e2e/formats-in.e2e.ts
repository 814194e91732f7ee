import assert from 'node:assert/strict';
import { createReadStream, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Page } from 'playwright-core';
import { ingest } from '../../src/core/ingest/pipeline';
import { appForSuite, dropFile, projectFile, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/**
 * Issue "Formats in and out", item 1: Common Crawl's WET files (conversion records holding each page's
 * extracted text) gave "EMPTY: 20 conversion records (not pages)". Their text is the page now.
 */
describe('a WET file dropped into the workbench', () => {
  let page: Page;
  appForSuite((a) => (page = a.page));

  it('gives one page per conversion record, with its text', async () => {
    await dropFile(page, projectFile('test/fixtures/wet.warc.wet.gz'));
    await page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 60_000 });
    const meta = (await page.locator('.dataset-list .meta').first().textContent()) ?? '';
    const pages = Number(/([\d,]+) pages?/.exec(meta)?.[1].replace(/,/g, '') ?? -1);
    assert.equal(pages, 4, `the four conversion records are the pages: ${meta}`);
    await page.locator('.dataset-list li').first().click();
    const body = (await page.locator('main').textContent()) ?? '';
    assert.match(body, /news\/flood\?utm_source=feed/, 'the pages are listed by their target URIs');
    assert.doesNotMatch(body, /conversion records \(not pages\)/);
    await page.screenshot({ path: join(SHOTS, 'wet-pages.png') });
  });

  it('finds the two pages of the same text as one cluster', async () => {
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    const summary = page.getByTestId('cluster-summary');
    await summary.waitFor({ timeout: 60_000 });
    // MinHash at J ≥ 0.8 (the default): the two identical texts; the copy with one word changed shares
    // 28 of its 33 word 5-shingles with them (J = 28 / 38 = 0.74), below the threshold.
    assert.match((await summary.textContent()) ?? '', /^1 cluster · 2 of 4 pages/);
    await page.screenshot({ path: join(SHOTS, 'wet-clusters.png') });
  });
});

/**
 * Item 1 again: a Parquet table of documents (url, text), as corpus pipelines keep them, gave "binary
 * data that is not WARC, ARC or a text log (unknown format)". Its rows are the pages now, read by row
 * group; a Parquet table that is not documents is refused with the columns it has.
 */
describe('a Parquet table of documents dropped into the workbench', () => {
  let page: Page;
  appForSuite((a) => (page = a.page));

  it('gives one page per row, read across its row groups, and finds the same text as one cluster', async () => {
    await dropFile(page, projectFile('test/fixtures/docs.parquet'));
    await page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 60_000 });
    const meta = (await page.locator('.dataset-list .meta').first().textContent()) ?? '';
    assert.match(meta, /parquet/, `the format is said: ${meta}`);
    assert.match(meta, /7 pages/, `the seven rows are the pages: ${meta}`);
    await page.locator('.dataset-list li').first().click();
    const body = (await page.locator('main').textContent()) ?? '';
    assert.match(body, /recettes\/tarte/, 'the pages are listed by their URLs');
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    const summary = page.getByTestId('cluster-summary');
    await summary.waitFor({ timeout: 60_000 });
    // The two rows with the same text; the 404 page is not compared.
    assert.match((await summary.textContent()) ?? '', /^1 cluster · 2 of 6 pages/);
    await page.screenshot({ path: join(SHOTS, 'parquet-docs.png') });
  });

  it('a table whose columns have other names: the analyst chooses them, and its rows are read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-parquet-'));
    const file = join(dir, 'odd-columns.parquet');
    writeFileSync(
      file,
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: 'score', data: [0.5, 0.7, 0.9], type: 'DOUBLE' },
            { name: 'link', data: ['http://o.test/a', 'http://o.test/b', 'http://o.test/c'], type: 'STRING' },
            { name: 'body', data: ['<p>one</p>', '<p>two</p>', '<p>three</p>'], type: 'STRING' },
          ],
        }),
      ),
    );
    await dropFile(page, file);
    const form = page.getByRole('form', { name: 'Parquet columns' });
    await form.waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(SHOTS, 'parquet-choose-columns.png') });
    await form.getByLabel('URL column').selectOption('link');
    await form.getByLabel('Document column').selectOption('body');
    await form.getByLabel('Document kind').selectOption('html');
    await form.getByRole('button', { name: 'Read with these columns' }).click();
    const item = page.locator('.dataset-list li', { hasText: 'odd-columns.parquet' });
    await item.locator('.badge.status-ready').waitFor({ timeout: 60_000 });
    assert.match((await item.locator('.meta').textContent()) ?? '', /3 pages/);
    await item.click();
    assert.match((await page.locator('main').textContent()) ?? '', /o\.test\/c/);
  });

  it('refuses a Parquet table that is not documents, naming its columns', async () => {
    await dropFile(page, projectFile('test/fixtures/not-docs.parquet'));
    const alert = page.getByRole('alert').filter({ hasText: 'not-docs.parquet' });
    await alert.first().waitFor({ timeout: 60_000 });
    assert.match(
      (await alert.first().textContent()) ?? '',
      /not documents: no text column \(text, content, raw_content, html\): its columns are "url", "cluster"/,
    );
    await page.screenshot({ path: join(SHOTS, 'parquet-not-docs.png') });
  });
});

/** Item 1, zstd: `.jsonl.zst` and `.warc.zst` (a frame per record) read as their plain counterparts. */
describe('zstd files dropped into the workbench', () => {
  let page: Page;
  appForSuite((a) => (page = a.page));

  const pagesOf = async (file: string) => {
    let n = 0;
    await ingest(
      createReadStream(projectFile(file)) as AsyncIterable<Uint8Array>,
      { fileName: file, totalBytes: statSync(projectFile(file)).size },
      async (b) => void (n += b.length),
    );
    return n;
  };

  for (const [zst, plain] of [
    ['test/fixtures/pages.jsonl.zst', 'test/fixtures/pages.jsonl'],
    ['test/fixtures/tiny.warc.zst', 'test/fixtures/tiny.warc.gz'],
    // The WARC zstd layout with its dictionary: decoded by zstd itself in WebAssembly, in the worker.
    ['test/fixtures/tiny-dictionary.warc.zst', 'test/fixtures/tiny.warc.gz'],
  ] as const)
    it(`${zst.split('/').pop()} gives the pages of ${plain.split('/').pop()}, and says zstd`, async () => {
      await dropFile(page, projectFile(zst));
      const name = zst.split('/').pop()!;
      const item = page.locator('.dataset-list li', { hasText: name });
      await item.locator('.badge.status-ready').waitFor({ timeout: 60_000 });
      const meta = (await item.locator('.meta').textContent()) ?? '';
      const want = await pagesOf(plain);
      assert.match(meta, new RegExp(`${want} pages?`), `${meta} (want ${want})`);
      await item.click();
      const header = (await page.locator('main').textContent()) ?? '';
      assert.match(header, /\(zstd\)/, 'the source says zstd');
      await page.screenshot({ path: join(SHOTS, `zstd-${name}.png`) });
    });
});
