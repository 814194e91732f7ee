/**
 * Issue "The analyst's decisions persist", end to end in Chromium against `npm start`: a three-page
 * chain (A ~ B ~ C, A and C further apart) is one star cluster; marking A and C not duplicates splits
 * it, the split survives a reload, the exported profile carries the decision by URL, and the batch run
 * on the same crawl gives the same split.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { queryRows } from '../../scripts/lib/batch-results';
import { parseProfile } from '../../src/core/profile';
import { appForSuite, AT_1280_800, projectFile, SHOTS } from './harness';
import { computeSignatures, openCrawl, words, writeCrawl } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

const base = words(501);
/** A page: the base text with a block of 20 words replaced at `at` (by words of another doc). */
const variant = (at: number[]) => {
  const w = [...base];
  for (const start of at) for (let i = 0; i < 20; i++) w[start + i] = `${words(900 + start)[i]}z`;
  return w.join(' ');
};
const PAGES = [
  { url: 'http://chain.test/a.html', title: 'Chain A', text: variant([0]) },
  { url: 'http://chain.test/b.html', title: 'Chain B', text: variant([]) },
  { url: 'http://chain.test/c.html', title: 'Chain C', text: variant([280]) },
  ...[1, 2, 3].map((k) => ({
    url: `http://other.test/${k}.html`,
    title: `Other ${k}`,
    text: words(700 + k).join(' '),
  })),
];

describe('decisions persist: a split that holds across a reload and in the batch', () => {
  let page: Page;
  appForSuite((a) => (page = a.page), AT_1280_800);
  const file = writeCrawl('chain.warc', PAGES);
  const summary = () => page.getByTestId('cluster-summary').textContent();
  const detail = () => page.getByRole('region', { name: 'Cluster detail' });

  it('marks A and C not duplicates: the cluster splits', async () => {
    await openCrawl(page, file, 'chain.warc');
    await page.locator('.dataset-list li', { hasText: 'chain.warc' }).click();
    await computeSignatures(page);
    assert.match((await summary()) ?? '', /^1 cluster · 3 of 6 pages/);
    await page.getByRole('listbox', { name: 'Clusters' }).getByRole('option').first().click();
    await detail().waitFor();
    // A on a.html, B on c.html (the members table's radio columns).
    const row = (u: string) => detail().locator('table.members tbody tr', { hasText: u });
    await row('a.html').locator('input[type=radio]').nth(0).check();
    await row('c.html').locator('input[type=radio]').nth(1).check();
    await detail().getByRole('button', { name: 'Not duplicates' }).click();
    await page
      .getByTestId('cluster-summary')
      .filter({ hasText: /^1 cluster · 2 of 6 pages/ })
      .waitFor();
    const decisions = page.getByRole('region', { name: 'Decisions' });
    assert.match(
      (await decisions.getByTestId('decisions-count').textContent()) ?? '',
      /1 decision · 1 cluster changed/,
    );
    const listed = (await decisions.getByTestId('decisions-list').textContent()) ?? '';
    assert.match(listed, /not duplicates/);
    assert.match(listed, /a\.html/);
    assert.match(listed, /c\.html/);
    await decisions.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'decisions-pane.png') });
  });

  it("opens a pair's evidence card: every method against its threshold, shared shingles marked", async () => {
    // The split cluster is open (the test before), on its most similar pair.
    const card = detail().getByTestId('evidence-card');
    await card.locator('summary').click();
    const rows = await card.locator('table.evidence-measures tbody tr').allTextContents();
    assert.equal(rows.length, 5, rows.join(' | '));
    const minhash = rows.find((r) => r.startsWith('Shingles / MinHash'))!;
    assert.match(minhash, /exact Jaccard.*≥ 0\.80.*yes$/);
    const said = (await card.getByTestId('evidence-shingles').textContent()) ?? '';
    const m = /([\d,]+) shared, ([\d,]+) only in A, ([\d,]+) only in B/.exec(said);
    assert.ok(m, said);
    const [shared, onlyA, onlyB] = m.slice(1).map((x) => Number(x.replace(/,/g, '')));
    // The Jaccard the table shows is the shingles' own.
    const j = Number(/exact Jaccard[^\d]*([\d.]+)/.exec(minhash)?.[1] ?? /([01]\.\d{3})/.exec(minhash)![1]);
    assert.ok(Math.abs(shared / (shared + onlyA + onlyB) - j) < 0.002, `${said} vs ${minhash}`);
    assert.ok((await card.locator('mark.shared').count()) > 0);
    assert.match((await card.getByTestId('evidence-rules').textContent()) ?? '', /DUST rules not mined/);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'evidence-card.png') });
  });

  it('keeps the split across a reload; taking it back joins the cluster again, undo splits it again', async () => {
    await page.reload();
    await page
      .getByTestId('cluster-summary')
      .filter({ hasText: /^1 cluster · 2 of 6 pages/ })
      .waitFor({ timeout: 30_000 });
    // Taken back, the cluster is whole again; undone, the decision is back (for the batch below).
    const decisions = page.getByRole('region', { name: 'Decisions' });
    await decisions.getByRole('button', { name: 'take back' }).click();
    await page
      .getByTestId('cluster-summary')
      .filter({ hasText: /^1 cluster · 3 of 6 pages/ })
      .waitFor();
    await decisions.getByTestId('decisions-list').waitFor({ state: 'detached' });
    await decisions.getByRole('button', { name: 'undo' }).click();
    await page
      .getByTestId('cluster-summary')
      .filter({ hasText: /^1 cluster · 2 of 6 pages/ })
      .waitFor();
  });

  it('exports the profile with the decision; the batch on the same crawl splits the same way', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export dedup profile' }).click();
    const saved = await download;
    const text = readFileSync(await saved.path(), 'utf8');
    const profile = parseProfile(text);
    assert.deepEqual(profile.overrides, {
      mustLink: [],
      cannotLink: [['http://chain.test/a.html', 'http://chain.test/c.html']],
    });
    const dir = dirname(file);
    writeFileSync(join(dir, 'profile.json'), text);
    const out = join(dir, 'result');
    const stdout = execFileSync(
      'npx',
      ['tsx', projectFile('src/cli/batch.ts'), '--profile', join(dir, 'profile.json'), '--out', out, file],
      { cwd: projectFile('.'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    assert.match(stdout, /clusters 1\b/);
    const rows = await queryRows(`SELECT cluster, url FROM read_parquet('${join(out, 'clusters.parquet')}')`);
    const urls = rows.map((r) => String(r.url)).sort();
    assert.equal(new Set(rows.map((r) => String(r.cluster))).size, 1);
    assert.equal(urls.length, 2, urls.join(' '));
    assert.ok(
      !(urls.includes('http://chain.test/a.html') && urls.includes('http://chain.test/c.html')),
      urls.join(' '),
    );
    // The same pages as the workbench's cluster.
    const shown = await detail()
      .locator('table.members tbody tr td:nth-child(3) .url')
      .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
    assert.deepEqual(shown.sort(), urls);
    // And the result opened in the workbench says one cluster.
    await page
      .getByTestId('batch-files-input')
      .setInputFiles(['clusters.parquet', 'pairs.parquet', 'summary.parquet'].map((f) => join(out, f)));
    const view = page.getByRole('region', { name: 'Batch result' });
    await view.getByTestId('batch-summary').waitFor({ timeout: 30_000 });
    assert.match((await view.getByTestId('batch-summary').textContent()) ?? '', /pages, 1 cluster\b/);
  });

  it('makes a “not a duplicate” label a cannot-link on request', async () => {
    await page.getByRole('button', { name: 'Close' }).first().click();
    // The split cluster {a, b} is still open (a click on its row would close it).
    if (!(await detail().isVisible()))
      await page.getByRole('listbox', { name: 'Clusters' }).getByRole('option').first().click();
    await page.getByRole('button', { name: /Label this cluster/ }).click();
    const labels = page.getByRole('region', { name: 'Label pairs' });
    await labels.locator('.pair-measures').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('n');
    await page.getByTestId('label-progress').filter({ hasText: '1 label' }).waitFor();
    const decisions = page.getByRole('region', { name: 'Decisions' });
    await decisions.getByRole('button', { name: 'Make the 1 “not a duplicate” label cannot-links' }).click();
    // a is now kept from b and from c: the star left is {b, c}, their pair the one accepted.
    await page
      .getByTestId('cluster-summary')
      .filter({ hasText: /^1 cluster · 2 of 6 pages · 1 of \d+ candidate pairs accepted/ })
      .waitFor();
    if (!(await detail().isVisible()))
      await page.getByRole('listbox', { name: 'Clusters' }).getByRole('option').first().click();
    await detail().locator('table.members tbody tr', { hasText: 'c.html' }).waitFor();
    const members = await detail()
      .locator('table.members tbody tr td:nth-child(3) .url')
      .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
    assert.deepEqual(members.sort(), ['http://chain.test/b.html', 'http://chain.test/c.html']);
    assert.match((await decisions.getByTestId('decisions-list').textContent()) ?? '', /from a “not” label/);
  });
});
