/**
 * Beyond one machine, end to end: a dedup profile exported from the workbench (sample opened, signatures
 * computed, DUST rules mined, "Export dedup profile" clicked) drives `npm run batch` over three WARC.gz
 * shards made at run time (the third repeats the first, so every page of it has a duplicate in another
 * shard), and the result's Parquet files are opened in the workbench: histogram, sampled clusters and a
 * labelled pair with its precision estimate.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { parseProfile, type DedupProfile } from '../../src/core/profile';
import { queryRows } from '../../scripts/lib/batch-results';
import { generateWarcGz } from '../bench/gen-warc';
import { cspViolations, type OpenApp, openApp, projectFile, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

describe('batch: profile from the workbench, map + join, result back in the workbench', () => {
  let app: OpenApp;
  let page: Page;
  const dir = mkdtempSync(join(tmpdir(), 'batch-e2e-'));
  let profile: DedupProfile;
  let printed = '';
  let workbenchClusters = 0;

  before(async () => {
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports a dedup profile with the mined DUST rules', async () => {
    await page.getByRole('button', { name: 'Open sample crawl' }).click();
    await page.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    await page.getByTestId('cluster-summary').waitFor({ timeout: 90_000 });
    await page.getByRole('button', { name: 'Mine DUST rules' }).click();
    await page.getByTestId('dust-headline').waitFor({ timeout: 90_000 });
    // The kept-copy policy changed before the export: the earliest capture first.
    for (let k = 0; k < 4; k++) await page.getByRole('button', { name: 'move earliest capture up' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export dedup profile' }).click();
    const saved = await download;
    const text = readFileSync(await saved.path(), 'utf8');
    profile = parseProfile(text);
    // The command printed beside the button names the file the export wrote, and the crawl's file.
    printed = ((await page.getByTestId('profile-batch-command').textContent()) ?? '').trim();
    assert.ok(printed.includes(`--profile ${saved.suggestedFilename()}`), printed);
    assert.ok(printed.endsWith(' sample.warc.gz'), printed);
    writeFileSync(join(dir, saved.suggestedFilename()), text);
    copyFileSync(projectFile('sample/sample.warc.gz'), join(dir, 'sample.warc.gz'));
    workbenchClusters = Number(
      /^([\d,]+) clusters?/
        .exec((await page.getByTestId('cluster-summary').textContent()) ?? '')![1]
        .replace(/,/g, ''),
    );
    assert.equal(profile.method, 'minhash');
    assert.ok(profile.dust.rules.length > 0, 'valid DUST rules travel with the profile');
    assert.ok(profile.dust.rules.every((r) => r.status === 'valid'));
    assert.deepEqual(profile.keep, ['earliest', 'canonical', 'original', 'ok', 'longest-text']);
    // The shards below repeat each other's URLs: each capture compared, so their copies meet in the join
    // (the exported profile folds captures of one URL, as the workbench does; the printed run keeps it).
    writeFileSync(
      join(dir, 'profile.json'),
      JSON.stringify({ ...profile, engine: { ...profile.engine, captures: 'each' } }),
    );
  });

  it('runs the map and join steps over three WARC.gz shards', async () => {
    const shards = [join(dir, 'a.warc.gz'), join(dir, 'b.warc.gz'), join(dir, 'c.warc.gz')];
    await generateWarcGz(shards[0], 300_000, 11);
    await generateWarcGz(shards[1], 300_000, 12);
    await generateWarcGz(shards[2], 300_000, 11);
    const out = join(dir, 'out');
    const run = () =>
      execFileSync(
        'npx',
        [
          'tsx',
          projectFile('src/cli/batch.ts'),
          '--profile',
          join(dir, 'profile.json'),
          '--out',
          out,
          ...shards,
        ],
        { cwd: projectFile('.'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
    const stdout = run();
    assert.match(
      stdout,
      /pages \d+ \(0 more captures of a URL folded into its earliest\), clusters \d+, duplicates removed \d+/,
    );
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      summary: {
        host: string | null;
        pages: number;
        clusters: number;
        duplicates_removed: number;
        captures_folded: number;
      }[];
    };
    const all = summary.summary.find((s) => s.host === null)!;
    assert.ok(all.clusters > 0 && all.duplicates_removed >= all.pages / 3 - 1, JSON.stringify(all));
    assert.equal(all.captures_folded, 0, 'each capture compared (the profile says so)');
    // Resumable: the shards are done (_SUCCESS), a second run only joins.
    const again = run();
    assert.match(again, /pages \d+/);
  });

  it('runs the batch command the workbench printed, as printed, in the folder of the profile and the crawl', async () => {
    assert.match(printed, /^npm run batch -- /);
    // From that folder, outside the project: npm is pointed at it; every path is the printed one.
    const stdout = execFileSync(
      'sh',
      ['-c', printed.replace(/^npm run/, `npm --prefix ${projectFile('.')} run`)],
      {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    assert.match(stdout, /results in .*result/);
    const summary = JSON.parse(readFileSync(join(dir, 'result', 'summary.json'), 'utf8')) as {
      rejected: number;
      summary: { host: string | null; clusters: number }[];
    };
    // The same clusters as the workbench showed for the sample, at the same profile.
    assert.equal(summary.summary.find((s) => s.host === null)!.clusters, workbenchClusters);
    // The policy changed in the workbench decides there: some copies are kept for being the earliest.
    const reasons = (
      await queryRows(
        `SELECT DISTINCT kept_reason FROM read_parquet('${join(dir, 'result', 'clusters.parquet')}') WHERE kept`,
      )
    ).map((r) => String(r.kept_reason));
    assert.ok(reasons.includes('kept: earliest capture'), reasons.join(', '));
  });

  it('opens the printed command’s result: the same counts, and the most similar rejected pairs to review', async () => {
    const out = join(dir, 'result');
    // Opened while the main area is scrolled far down (to the pages table), the result is shown at its top.
    await page.evaluate(() => {
      const main = document.querySelector('main')!;
      main.scrollTop = main.scrollHeight;
    });
    assert.ok(
      (await page.evaluate(() => document.querySelector('main')!.scrollTop)) > 300,
      'scrolled down first',
    );
    await page
      .getByTestId('batch-files-input')
      .setInputFiles(
        ['clusters.parquet', 'pairs.parquet', 'summary.parquet', 'rejected.parquet'].map((f) => join(out, f)),
      );
    const view = page.getByRole('region', { name: 'Batch result' });
    await view.getByTestId('batch-summary').waitFor({ timeout: 30_000 });
    assert.equal(
      await page.evaluate(() => document.querySelector('main')!.scrollTop),
      0,
      'the result at the top',
    );
    const said = (await view.getByTestId('batch-summary').textContent()) ?? '';
    assert.match(said, new RegExp(`pages, ${workbenchClusters.toLocaleString('en-US')} clusters`));
    assert.match(said, /candidate pairs? verified and rejected/);
    // A member's text, read by byte range from the crawl file opened with the result.
    await view.getByTestId('batch-crawl-input').setInputFiles(join(dir, 'sample.warc.gz'));
    const text = view.getByTestId('batch-member-text').first();
    await text.waitFor({ timeout: 30_000 });
    const first = (await text.textContent()) ?? '';
    assert.ok(first.length > 40 && !/not found/.test(first), first);
    await view.getByLabel('Most similar rejected').check();
    const rejected = Number(
      /([\d,]+) candidate pairs? verified and rejected/.exec(said)![1].replace(/,/g, ''),
    );
    const labels = view.getByTestId('batch-labels');
    if (rejected > 0) {
      assert.match((await labels.locator('h3').textContent()) ?? '', /most similar of [\d,]+ rejected pairs/);
      await labels.focus();
      await page.keyboard.press('n');
    } else assert.match((await view.textContent()) ?? '', /No candidate pair was rejected/);
    // The precision estimate reads the random sample's labels only.
    assert.match((await view.getByTestId('batch-precision').textContent()) ?? '', /^0 labelled|Label pairs/);
    await view.getByLabel('Random sample (estimates precision)').check();
    await page.screenshot({ path: join(SHOTS, 'batch-printed-result.png'), fullPage: true });
    await view.getByRole('button', { name: 'Close' }).click();
  });

  it('opens the result in the workbench: histogram, sampled clusters, a labelled pair', async () => {
    const out = join(dir, 'out');
    await page
      .getByTestId('batch-files-input')
      .setInputFiles(['clusters.parquet', 'pairs.parquet', 'summary.parquet'].map((f) => join(out, f)));
    const view = page.getByRole('region', { name: 'Batch result' });
    await view.getByTestId('batch-summary').waitFor({ timeout: 30_000 });
    assert.match((await view.getByTestId('batch-summary').textContent()) ?? '', /pages, [\d,]+ clusters/);
    const bars = view.getByRole('img', { name: 'Batch cluster size histogram' }).locator('rect');
    await bars.first().waitFor();
    assert.ok((await bars.count()) >= 1);
    const options = view.getByTestId('batch-clusters').getByRole('option');
    assert.ok((await options.count()) >= 1);
    const urls = await view.getByTestId('batch-cluster-urls').locator('li').allTextContents();
    assert.ok(urls.length >= 2 && urls.every((u) => /example\.test/.test(u)), urls.join(' | '));
    // Keyboard: the list moves with the arrows.
    await view.getByTestId('batch-clusters').focus();
    await page.keyboard.press('ArrowDown');
    // The list beside shows the newly active cluster's members, as many as its size says.
    const size = Number(await view.locator('[role="option"][aria-selected="true"] .size').textContent());
    const shown = view.getByTestId('batch-cluster-urls').locator('li');
    assert.equal(await shown.count(), Math.min(size, 20));
    const labels = view.getByTestId('batch-labels');
    await labels.focus();
    await page.keyboard.press('d');
    await page.keyboard.press('d');
    assert.match(
      (await view.getByTestId('batch-precision').textContent()) ?? '',
      /^2 labelled\. Precision 100\.0%/,
    );
    // The host table's cells are apart (issue "Every screen readable", the slips).
    const cells = view.getByTestId('batch-summary').locator('td');
    if ((await cells.count()) > 0) {
      const pad = await cells.first().evaluate((e) => parseFloat(getComputedStyle(e).paddingRight));
      assert.ok(pad >= 8, `host table cell padding ${pad}px`);
    }
    await page.screenshot({ path: join(SHOTS, 'batch-result.png'), fullPage: true });
  });

  it('raised no uncaught error and no Content-Security-Policy violation', () => {
    assert.deepEqual(app.errors, []);
    assert.deepEqual(cspViolations, []);
  });
});
