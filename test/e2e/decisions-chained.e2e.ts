/**
 * Issue "The analyst's decisions persist", end to end in Chromium against `npm start`, on a cluster
 * the workbench flags *chained*: six pages A ~ B ~ C ~ D ~ E ~ F, each a few blocks of words away from
 * the next (exact Jaccard 0.85–0.86), A and F far apart (0.43). As connected components they are one
 * cluster; marking its least similar members not duplicates splits it, the split stays after a reload,
 * and the batch run with the exported profile gives the same clusters.
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

const base = words(601, 600);
/** Page k: the base text with the first k hops applied, each hop two blocks of 20 words replaced. */
const chainPage = (k: number) => {
  const w = [...base];
  for (let h = 0; h < k; h++)
    for (const start of [h * 50, 300 + h * 50])
      for (let i = 0; i < 20; i++) w[start + i] = `${words(900 + start)[i]}z`;
  return w.join(' ');
};
const NAMES = ['a', 'b', 'c', 'd', 'e', 'f'];
const PAGES = [
  ...NAMES.map((n, k) => ({ url: `http://chain.test/${n}.html`, title: `Chain ${n}`, text: chainPage(k) })),
  ...[1, 2, 3].map((k) => ({
    url: `http://other.test/${k}.html`,
    title: `Other ${k}`,
    text: words(700 + k).join(' '),
  })),
];

describe('decisions persist on a chained cluster', () => {
  let page: Page;
  appForSuite((a) => (page = a.page), AT_1280_800);
  const file = writeCrawl('chained.warc', PAGES);
  const summary = () => page.getByTestId('cluster-summary');
  const detail = () => page.getByRole('region', { name: 'Cluster detail' });
  const openFirst = async () => {
    if (!(await detail().isVisible()))
      await page.getByRole('listbox', { name: 'Clusters' }).getByRole('option').first().click();
    await detail().waitFor();
  };
  /** The chain split in two clusters, or one and a page left alone. */
  const SPLIT = /^(2 clusters · 6|1 cluster · 5) of 9 pages/;
  const clusterCount = () => page.getByRole('listbox', { name: 'Clusters' }).getByRole('option').count();
  /** Opens the k-th cluster of the list (a click on the row already open would close it). */
  const openNth = async (k: number) => {
    const option = page.getByRole('listbox', { name: 'Clusters' }).getByRole('option').nth(k);
    await option.click();
    if (!(await detail().isVisible())) await option.click();
    await detail().waitFor();
  };
  const membersOf = async () =>
    (
      await detail()
        .locator('table.members tbody tr td:nth-child(3) .url')
        .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''))
    ).sort();

  it('flags the chain, and “Not duplicates” on its least similar members splits it', async () => {
    await openCrawl(page, file, 'chained.warc');
    await page.locator('.dataset-list li', { hasText: 'chained.warc' }).click();
    await computeSignatures(page);
    await page.getByRole('combobox', { name: 'Clustering' }).selectOption('components');
    await summary()
      .filter({ hasText: /^1 cluster · 6 of 9 pages/ })
      .waitFor();
    await openFirst();
    await detail().getByTestId('cluster-chained').waitFor();
    // The least similar members are A and F (an exact Jaccard or its bound below 0.5).
    await detail()
      .getByRole('button', { name: /least similar members/ })
      .click();
    const row = (u: string) => detail().locator('table.members tbody tr', { hasText: u });
    const ends = [
      await row('a.html').locator('input[type=radio]').nth(0).isChecked(),
      await row('f.html').locator('input[type=radio]').nth(1).isChecked(),
      await row('f.html').locator('input[type=radio]').nth(0).isChecked(),
      await row('a.html').locator('input[type=radio]').nth(1).isChecked(),
    ];
    assert.ok((ends[0] && ends[1]) || (ends[2] && ends[3]), `A and F compared: ${ends}`);
    // Who decides is recorded with the decision.
    const decisions = page.getByRole('region', { name: 'Decisions' });
    await decisions.getByRole('textbox', { name: /Reviewer/ }).fill('Ana Lyst');
    await detail().getByRole('button', { name: 'Not duplicates' }).click();
    // Split: no cluster holds both A and F any more (where the chain breaks is the clustering's choice).
    await summary().filter({ hasText: SPLIT }).waitFor();
    const listed = (await decisions.getByTestId('decisions-list').textContent()) ?? '';
    assert.match(listed, /not duplicates/);
    assert.match(listed, /a\.html/);
    assert.match(listed, /f\.html/);
    assert.match(listed, /by Ana Lyst/);
    await page.screenshot({ path: join(SHOTS, 'decisions-chained.png') });
  });

  it('keeps the split after a reload', async () => {
    await page.reload();
    await summary().filter({ hasText: SPLIT }).waitFor({ timeout: 30_000 });
    assert.match(
      (await page.getByRole('region', { name: 'Decisions' }).getByTestId('decisions-list').textContent()) ??
        '',
      /by Ana Lyst/,
    );
    // No cluster holds both ends.
    for (let k = 0; k < (await clusterCount()); k++) {
      await openNth(k);
      const m = await membersOf();
      assert.ok(
        !(m.includes('http://chain.test/a.html') && m.includes('http://chain.test/f.html')),
        m.join(' '),
      );
    }
  });

  it('the batch with the exported profile gives the same clusters', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export dedup profile' }).click();
    const text = readFileSync(await (await download).path(), 'utf8');
    const profile = parseProfile(text);
    assert.equal(profile.clustering, 'components');
    assert.deepEqual(profile.overrides?.cannotLink, [
      ['http://chain.test/a.html', 'http://chain.test/f.html'],
    ]);
    const dir = dirname(file);
    writeFileSync(join(dir, 'chained-profile.json'), text);
    const out = join(dir, 'chained-result');
    execFileSync(
      'npx',
      [
        'tsx',
        projectFile('src/cli/batch.ts'),
        '--profile',
        join(dir, 'chained-profile.json'),
        '--out',
        out,
        file,
      ],
      { cwd: projectFile('.'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const rows = await queryRows(`SELECT cluster, url FROM read_parquet('${join(out, 'clusters.parquet')}')`);
    const batch = new Map<string, string[]>();
    for (const r of rows)
      batch.set(String(r.cluster), [...(batch.get(String(r.cluster)) ?? []), String(r.url)]);
    const fromBatch = [...batch.values()].map((m) => m.sort().join(' ')).sort();
    const shown: string[] = [];
    for (let k = 0; k < (await clusterCount()); k++) {
      await openNth(k);
      shown.push((await membersOf()).join(' '));
    }
    assert.deepEqual(fromBatch, shown.sort());
  });
});
