import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Page } from 'playwright-core';
import { type OpenApp, openApp, SHOTS, sampleUrls, openSample } from './harness';

mkdirSync(SHOTS, { recursive: true });

const labelsShown = (page: Page) =>
  page
    .getByRole('listbox', { name: 'Labels' })
    .getByRole('option')
    .evaluateAll((li) => li.map((x) => x.querySelector('.label-value')?.textContent ?? ''));

/**
 * Issue "Formats in and out", item 4: labels made in other tools come in: dedupe's training.json
 * (`match` / `distinct` pairs of records with a url field) and Splink's labels table
 * (`unique_id_l, unique_id_r, clerical_match_score`); y is a key for duplicate, as in dedupe.
 */
describe('labels from dedupe and Splink', () => {
  let app: OpenApp;
  let page: Page;
  let urls: string[];

  before(async () => {
    app = await openApp({ beforeLoad: (p) => p.setViewportSize({ width: 1280, height: 800 }) });
    page = app.page;
    urls = await sampleUrls();
  });

  after(async () => {
    await app?.close();
  });

  it("imports dedupe's training.json, naming the pair it cannot place", async () => {
    await openSample(page, { signatures: true });
    const rec = (u: string) => ({ url: u, title: 'from dedupe' });
    const training = {
      match: [
        [rec(urls[0]), rec(urls[1])],
        [rec(urls[2]), rec(urls[3])],
        [{ title: 'no url' }, rec(urls[4])],
      ],
      distinct: [[rec(urls[5]), rec(urls[6])]],
    };
    await page.getByTestId('labels-file').setInputFiles({
      name: 'training.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(training)),
    });
    await page.getByText('Imported 3 new labels').waitFor();
    await page
      .getByText(/1 row skipped: row 3: a "match" pair whose two records do not both have a url field/)
      .waitFor();
    assert.deepEqual((await labelsShown(page)).sort(), ['duplicate', 'duplicate', 'not']);
    await page.screenshot({ path: join(SHOTS, 'labels-dedupe.png') });
  });

  it("imports Splink's labels table by URL, the score read around 0.5", async () => {
    const csv = [
      'source_dataset_l,unique_id_l,source_dataset_r,unique_id_r,clerical_match_score',
      `sample,${urls[7]},sample,${urls[8]},0.9`,
      `sample,${urls[9]},sample,${urls[10]},0.1`,
    ].join('\n');
    await page.getByTestId('labels-file').setInputFiles({
      name: 'splink-labels.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByText('Imported 2 new labels').waitFor();
    assert.deepEqual((await labelsShown(page)).sort(), ['duplicate', 'duplicate', 'duplicate', 'not', 'not']);
  });

  it("imports Splink's labels table kept as Parquet", async () => {
    const parquet = parquetWriteBuffer({
      columnData: [
        { name: 'unique_id_l', data: [urls[11], urls[13]], type: 'STRING' },
        { name: 'unique_id_r', data: [urls[12], urls[14]], type: 'STRING' },
        { name: 'clerical_match_score', data: [1, 0], type: 'DOUBLE' },
      ],
    });
    await page.getByTestId('labels-file').setInputFiles({
      name: 'splink-labels.parquet',
      mimeType: 'application/vnd.apache.parquet',
      buffer: Buffer.from(parquet),
    });
    // The notice reads as the CSV's did: wait for the two labels themselves.
    await page.waitForFunction(
      () => document.querySelectorAll('[role="listbox"][aria-label="Labels"] .label-value').length === 7,
    );
    assert.deepEqual((await labelsShown(page)).filter((l) => l === 'duplicate').length, 4);
    assert.deepEqual((await labelsShown(page)).filter((l) => l === 'not').length, 3);
  });

  it('y labels the selected pair a duplicate', async () => {
    const list = page.getByRole('listbox', { name: 'Labels' });
    await list.scrollIntoViewIfNeeded();
    await list.focus();
    await page.keyboard.press('Home');
    const before = await labelsShown(page);
    const notAt = before.indexOf('not');
    for (let i = 0; i < notAt; i++) await page.keyboard.press('ArrowDown');
    const nots = before.filter((l) => l === 'not').length;
    await page.keyboard.press('y');
    await page.waitForFunction(
      (n) =>
        [...document.querySelectorAll('[role="listbox"][aria-label="Labels"] .label-value')].filter(
          (x) => x.textContent === 'not',
        ).length === n,
      nots - 1,
    );
    assert.deepEqual((await labelsShown(page)).filter((l) => l === 'not').length, nots - 1);
    // z in the list undoes that change, as it does in the queue.
    await page.keyboard.press('z');
    await page.waitForFunction(
      (n) =>
        [...document.querySelectorAll('[role="listbox"][aria-label="Labels"] .label-value')].filter(
          (x) => x.textContent === 'not',
        ).length === n,
      nots,
    );
    assert.deepEqual(app.errors, []);
  });

  it('imported labels say where they came from, outside the sampling design', async () => {
    const list = page.getByRole('listbox', { name: 'Labels' });
    const origins = await list.getByRole('option').evaluateAll((li) => li.map((x) => x.textContent ?? ''));
    assert.equal(origins.filter((t) => t.includes('imported: dedupe')).length, 3);
    assert.equal(origins.filter((t) => t.includes('imported: splink')).length, 4);
    assert.ok(
      !origins.some((t) => t.includes('near-threshold')),
      'no imported label passes for a queue pick',
    );
    assert.match(
      (await page.getByTestId('label-estimates').first().textContent()) ?? '',
      /7 labels imported, not drawn by this dataset's sampling design/,
    );
  });

  it('importing mid-queue keeps the queue; a re-import says what changed', async () => {
    const view = page.getByRole('region', { name: 'Label pairs' });
    await view.getByRole('button', { name: 'New queue' }).click();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const progress = page.getByTestId('label-progress');
    await progress.filter({ hasText: /^3 of \d+ in queue/ }).waitFor();
    const csv = [
      'source_dataset_l,unique_id_l,source_dataset_r,unique_id_r,clerical_match_score',
      `sample,${urls[7]},sample,${urls[8]},0.9`,
      `sample,${urls[9]},sample,${urls[10]},0.9`,
      `sample,${urls[15]},sample,${urls[16]},0.1`,
    ].join('\n');
    await page.getByTestId('labels-file').setInputFiles({
      name: 'splink-labels.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByText('Imported 1 new label, 1 changed, 1 already so.').waitFor();
    assert.match((await progress.textContent()) ?? '', /^3 of \d+ in queue/);
    await page.getByTestId('labels-file').setInputFiles({
      name: 'splink-labels.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByText('Nothing changed: the 3 labels read are already here.').waitFor();
    assert.match((await progress.textContent()) ?? '', /^3 of \d+ in queue/);
    await page.screenshot({ path: join(SHOTS, 'labels-reimport.png') });
  });
});
