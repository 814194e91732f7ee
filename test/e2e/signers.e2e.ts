import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { analysePages } from '../../src/core/candidates/analyse-pages';
import { PARALLEL_MIN_CHARS } from '../../src/core/candidates/signed-fold';
import { readCrawl } from '../bench/read-crawl';
import { dropFile, newestAnalysis, type OpenApp, openApp, SHOTS } from './harness';
import { words, writeCrawl } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

/**
 * A crawl large enough for the signatures job to start signer workers: the analysis made with them in
 * Chromium is the one the core makes in Node in one thread (the same pages, candidate pairs and
 * measures), and the job says it used them.
 */
describe('signatures on every core in Chromium', () => {
  let app: OpenApp;
  let page: Page;
  let file: string;
  // Text enough for the job to start signers (~9,000 characters a page).
  const n = Math.ceil(PARALLEL_MIN_CHARS / 9000) + 200;

  before(async () => {
    // 40 sites; every fifth page a near copy of the one before (a word changed), so there are clusters.
    file = writeCrawl(
      'signers.warc',
      Array.from({ length: n }, (_, i) => {
        const doc = i % 5 === 4 ? i - 1 : i;
        const text = words(doc, 1000);
        if (doc !== i) text[7] = 'changed';
        return { url: `http://site${i % 40}.test/page/${i}`, title: `Page ${i}`, text: text.join(' ') };
      }),
    );
    app = await openApp();
    page = app.page;
    await dropFile(page, file);
    await page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 120_000 });
  });

  after(async () => {
    await app?.close();
  });

  it('computes with signer workers and gets the one-thread analysis', async () => {
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    await page.getByTestId('cluster-summary').waitFor({ timeout: 120_000 });
    await page.screenshot({ path: join(SHOTS, 'signers.png') });
    const a = await newestAnalysis(page);
    const stored = {
      n: a.n,
      count: a.count,
      sumJ: a.sumJaccard,
      sumC: a.sumCosine,
      signers: a.timings['job.signers'],
    };
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    assert.equal(stored.signers, Math.max(0, Math.min(3, cores - 1)), 'one signer per extra core');
    if (cores > 1) assert.ok(stored.signers >= 1, 'signer workers ran');
    const want = analysePages((await readCrawl(file)).pages).result;
    assert.equal(stored.n, want.n, 'pages signed');
    assert.equal(stored.count, want.pairs.count, 'candidate pairs');
    const sum = (a: Float32Array) => a.reduce((s, x) => s + x, 0);
    assert.equal(stored.sumJ, sum(want.pairs.jaccard), 'exact Jaccard of every pair');
    assert.equal(stored.sumC, sum(want.pairs.cosine), 'cosine of every pair');
    const summary = (await page.getByTestId('cluster-summary').textContent()) ?? '';
    assert.match(summary, new RegExp(`of ${want.pairs.count.toLocaleString('en-US')} candidate pairs`));
  });
});
