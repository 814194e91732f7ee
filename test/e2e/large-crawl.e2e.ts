import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CrawlIndexReader } from '../../src/core/sample/crawl-index';
import { planSample } from '../../src/core/sample/sample-plan';
import { type OpenApp, openApp, SHOTS } from './harness';
import { largeCrawlFiles, type LargeCrawlFiles } from './large-crawl-files';

mkdirSync(SHOTS, { recursive: true });

const BUDGET = 100;
const SEED = 3;

/** The sample the design draws from the index, as the worker will: its pages and units. */
function expected(files: LargeCrawlFiles) {
  const r = new CrawlIndexReader();
  r.push(readFileSync(files.index, 'utf8'));
  r.finish();
  const plan = planSample(r.entries, BUDGET, SEED, ['crawl-part-1.warc.gz', 'crawl-part-2.warc.gz'], {
    index: 'crawl.cdxj',
    lines: r.lines,
    badLines: r.bad,
  });
  return { pages: plan.info.chosen.reduce((a, u) => a + plan.info.unitPages[u], 0), info: plan.info };
}

/** Waits until `n` datasets read from the WARC set are ready (the newest is the one shown). */
async function samplesReady(page: Page, n: number) {
  await page.waitForFunction(
    (count) =>
      [...document.querySelectorAll('.dataset-list li')].filter(
        (li) =>
          li.textContent?.includes('Sample of crawl-part-1.warc.gz') &&
          li.querySelector('.badge.status-ready'),
      ).length === count,
    n,
    { timeout: 60_000 },
  );
}

async function openLarge(page: Page, paths: string[]) {
  await page.getByRole('button', { name: 'Open a large crawl…' }).click();
  await page.getByTestId('sample-budget').fill(String(BUDGET));
  await page.getByTestId('sample-seed').fill(String(SEED));
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose WARC files and index…' }).click();
  await (await chooser).setFiles(paths);
}

/**
 * Issue "A sample of any crawl": a WARC set with its CDXJ, and a WACZ, opened through the sample flow —
 * the sampled pages (the design's units, read by byte ranges), their weights in the page detail, and
 * the whole crawl's estimates beside the sample's own.
 */
describe('a large crawl opened as a designed sample', () => {
  let app: OpenApp;
  let page: Page;
  let files: LargeCrawlFiles;
  let want: ReturnType<typeof expected>;

  before(async () => {
    files = await largeCrawlFiles();
    want = expected(files);
    assert.ok(
      want.pages > 0 && want.pages < files.indexedPages,
      `a real sample: ${want.pages} of ${files.indexedPages}`,
    );
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  it('reads the sampled units of a WARC set with its CDXJ, weights in the page detail', async () => {
    await openLarge(page, [...files.warcs, files.index]);
    const row = page.locator('.dataset-list li', { hasText: 'Sample of crawl-part-1.warc.gz' });
    await row.locator('.badge.status-ready').waitFor({ timeout: 60_000 });
    await page
      .getByTestId('page-count')
      .filter({ hasText: `of ${want.pages.toLocaleString('en-US')} pages` })
      .waitFor();
    assert.match(
      (await page.getByTestId('sample-of').textContent()) ?? '',
      new RegExp(
        `${want.pages} of the index’s ${files.indexedPages} HTML pages, from ${want.info.chosen.length} of ${want.info.population.units} site groups \\(random seed ${SEED}\\)`,
      ),
    );
    await page.locator('.tr').first().click();
    const weight = page.getByTestId('sample-weight');
    await weight.waitFor();
    const text = (await weight.textContent()) ?? '';
    const pi = want.info.pi;
    assert.ok(
      text.includes(`π = ${pi.toPrecision(3)}`) || text.includes('π = 1.00'),
      `weight shown as 1/π with its π: ${text}`,
    );
    await page.screenshot({ path: join(SHOTS, 'large-crawl-page-weight.png') });
  });

  it('estimates the whole crawl from the sample, beside the sample’s own figures', async () => {
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    const est = page.getByTestId('sample-estimates');
    await est.waitFor({ timeout: 60_000 });
    const rate = (await page.getByTestId('whole-rate').textContent()) ?? '';
    const value = Number(rate.replace('%', '')) / 100;
    // At least the exact copies the whole index shows, at most every page but one.
    assert.ok(value >= want.info.exactDuplicates / files.indexedPages - 1e-3 && value < 1, `rate ${rate}`);
    const all = (await est.textContent()) ?? '';
    assert.match(all, new RegExp(`of ${files.indexedPages} pages removed`));
    assert.match(all, /In the sample: [\d,]+ of [\d,]+ pages/);
    assert.match(
      (await page.getByTestId('batch-command').textContent()) ?? '',
      /npm run batch -- --profile .* crawl-part-1\.warc\.gz/,
    );
    await est.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'large-crawl-estimates.png') });
  });

  it('precision and recall from labels on the sample stand for the whole crawl', async () => {
    const view = page.getByRole('region', { name: 'Label pairs' });
    const estimates = view.getByTestId('label-estimates');
    await view.getByRole('button', { name: 'New queue' }).click();
    await view.locator('.page-text').first().waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('d');
    await estimates.filter({ hasText: 'From 1 label' }).waitFor();
    assert.match(
      (await estimates.textContent()) ?? '',
      /for the whole crawl \(each label weighted by the sample’s design too\)/,
    );
  });

  it('mines DUST rules on the URL layer of the whole index, validated on the sampled pages', async () => {
    await page.getByRole('button', { name: 'Mine DUST rules' }).click();
    const note = page.getByTestId('dust-url-layer');
    await note.waitFor({ timeout: 60_000 });
    assert.match(
      (await note.textContent()) ?? '',
      new RegExp(`every HTML URL of the crawl’s index \\(${files.indexedPages}`),
    );
    // Every URL of the index is in the list the rules were mined on, not only the sampled pages.
    const list = (await page.getByTestId('dust-list').textContent()) ?? '';
    const urls = Number(/^([\d,]+) unique URL/.exec(list)![1].replace(/,/g, ''));
    assert.ok(urls > want.pages, `${urls} URLs mined on, ${want.pages} pages sampled`);
    await page.screenshot({ path: join(SHOTS, 'large-crawl-dust.png') });
  });

  it('reads the same sample from the WACZ (its index and STORED WARCs)', async () => {
    await openLarge(page, [files.wacz]);
    const row = page.locator('.dataset-list li', { hasText: 'Sample of crawl.wacz' });
    await row.locator('.badge.status-ready').waitFor({ timeout: 60_000 });
    await row.locator('button.dataset').click();
    await page
      .getByTestId('page-count')
      .filter({ hasText: `of ${want.pages.toLocaleString('en-US')} pages` })
      .waitFor();
    await page.locator('.tr').first().click();
    await page.getByTestId('sample-weight').waitFor();
  });

  it('reads the same sample by a CDX index (11 fields) beside the WARC set', async () => {
    await openLarge(page, [...files.warcs, files.cdx]);
    // A second dataset of that name, read and shown (a dataset read is selected).
    await samplesReady(page, 2);
    assert.match(
      (await page.getByTestId('sample-of').textContent()) ?? '',
      /located by the index crawl\.cdx(?!j)/,
    );
    await page
      .getByTestId('page-count')
      .filter({ hasText: `of ${want.pages.toLocaleString('en-US')} pages` })
      .waitFor();
  });

  it('without an index, builds one by an inflate pass over the WARC.gz files, and says so', async () => {
    await openLarge(page, [...files.warcs]);
    await samplesReady(page, 3);
    const of = (await page.getByTestId('sample-of').textContent()) ?? '';
    assert.match(of, /located by an index built by an inflate pass over the WARCs/);
    assert.match(of, new RegExp(`${want.pages} of the index’s ${files.indexedPages} HTML pages`));
  });

  it('says why when the files are neither an index nor a crawl', async () => {
    await openLarge(page, [files.index.replace(/crawl\.cdxj$/, 'notes.txt')]);
    await page.getByText(/none can be built/).waitFor({ timeout: 30_000 });
  });
});
