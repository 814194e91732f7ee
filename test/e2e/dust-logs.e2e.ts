import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generateWorld, worldAccessLog } from '../../scripts/lib/dust-world';
import { dropFile, type OpenApp, openApp, projectFile, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/**
 * DUST on access logs as they come, and the rule table's *URLs saved* column: a log with a virtual-host
 * field keeps its three sites; a log of paths gets its host guessed (said on screen) and the analyst's
 * base URL puts it right and mines again; on the sample the column adds up to the headline.
 */
describe('DUST on access logs, and URLs saved, in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-logs-'));
  // A generated world of three named sites (seeded: the same file every run; not one of the worlds
  // whose sites share one address by port, which are one registrable domain).
  const world = generateWorld(4243, 0.3, 3);
  const domains = world.sites.map((s) => s.domain).sort();
  let app: OpenApp;
  let page: Page;

  before(async () => {
    writeFileSync(join(dir, 'vhosts.log'), worldAccessLog(world, true));
    writeFileSync(join(dir, 'paths.log'), worldAccessLog(world, false));
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const mine = async () => {
    await page.getByRole('button', { name: 'Mine DUST rules' }).click();
    await page.getByTestId('dust-headline').waitFor({ timeout: 60_000 });
  };
  const sites = async () =>
    (await page.getByRole('combobox', { name: 'Rule site' }).locator('option').allTextContents()).slice(1);

  it('a log with virtual hosts: three sites, hosts from the log', async () => {
    await dropFile(page, join(dir, 'vhosts.log'));
    await page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 60_000 });
    await page
      .getByTestId('log-host')
      .getByText(/virtual-host field/)
      .waitFor();
    await mine();
    assert.deepEqual((await sites()).sort(), domains);
    await page.screenshot({ path: join(SHOTS, 'dust-log-vhosts.png') });
  });

  it('a log of paths: the host guessed and said; a base URL set by the analyst re-mines on it', async () => {
    await dropFile(page, join(dir, 'paths.log'));
    await page
      .locator('.dataset-list li', { hasText: 'paths.log' })
      .locator('.badge.status-ready')
      .waitFor({ timeout: 60_000 });
    await page.locator('.dataset-list li', { hasText: 'paths.log' }).click();
    const note = page.getByTestId('log-host');
    await note.getByText(/Host guessed — .*host guessed from the referers/).waitFor();
    await mine();
    const guessed = await sites();
    assert.ok(guessed.length >= 2, `sites from the guess: ${guessed}`);
    await page.screenshot({ path: join(SHOTS, 'dust-log-guessed.png') });
    await note.getByLabel('Base URL').fill('https://logs.example.org');
    await note.getByRole('button', { name: 'Apply and mine again' }).click();
    await note
      .getByText('Host of the logged paths: https://logs.example.org (base URL set by you)')
      .waitFor();
    await page.getByTestId('dust-headline').waitFor({ timeout: 60_000 });
    await page.waitForFunction(
      () => {
        const s = document.querySelector('select[aria-label="Rule site"]');
        return (
          s !== null &&
          [...s.querySelectorAll('option')].slice(1).every((o) => o.textContent === 'example.org')
        );
      },
      undefined,
      { timeout: 60_000 },
    );
    const rows = await page.locator('.pane-dust tbody td.site').allTextContents();
    assert.ok(rows.length > 0 && rows.every((s) => s === 'example.org'), `rule sites ${rows}`);
    await page.screenshot({ path: join(SHOTS, 'dust-log-base.png') });
  });

  it('on the sample, the URLs saved column adds up to the headline, and its valid count is the valid rows', async () => {
    await dropFile(page, projectFile('sample/sample.warc.gz'));
    await page
      .locator('.dataset-list li', { hasText: 'sample.warc.gz' })
      .locator('.badge.status-ready')
      .waitFor({ timeout: 60_000 });
    await page.locator('.dataset-list li', { hasText: 'sample.warc.gz' }).click();
    await mine();
    const headline = (await page.getByTestId('dust-saved').textContent()) ?? '';
    const m = /([\d,]+) → ([\d,]+) URLs after canonisation: ([\d,]+) URLs? saved/.exec(headline);
    assert.ok(m, headline);
    const [before, afterCanon, saved] = m.slice(1, 4).map((x) => Number(x.replace(/,/g, '')));
    assert.equal(saved, before - afterCanon);
    const cells = await page.locator('.pane-dust tbody td.saved').allTextContents();
    const sum = cells.reduce((a, c) => a + (c === '–' ? 0 : Number(c.replace(/,/g, ''))), 0);
    assert.equal(sum, saved, `column ${cells.join(' ')}`);
    assert.ok(saved > 100, headline);
    // The headline counts the list the table shows (special cases folded).
    const valid = /→ ([\d,]+)\s+valid/.exec((await page.getByTestId('dust-headline').textContent()) ?? '');
    assert.ok(valid, 'a valid count in the headline');
    const statuses = await page.locator('.pane-dust tbody td.status .badge').allTextContents();
    assert.equal(Number(valid[1].replace(/,/g, '')), statuses.filter((x) => x === 'valid').length);
    await page
      .getByTestId('dust-canonical')
      .getByText(/Canonical URLs: every one a URL the crawl fetched with a 2xx/)
      .waitFor();
    await page.screenshot({ path: join(SHOTS, 'dust-saved-sample.png') });
  });
});
