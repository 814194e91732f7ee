import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { parseDelimited } from '../../src/core/csv';
import { dropFile, type OpenApp, openApp, SHOTS } from './harness';
import { words as textOf } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

/** What OWASP's CSV-injection guidance says no spreadsheet cell may begin with. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A number the product wrote (a spreadsheet reads a value, never a formula). */
const PLAIN_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * Crawled text that a spreadsheet would run: a crawl list's URLs (JSONL, CSV) are not checked to be URLs
 * (an unparseable one is kept as it is, so nothing is lost; WARC and ARC records of URIs that are not web
 * URLs are not pages), and titles are free text. Each starter is a "site" of 8
 * directories crawled as dir/index.html and dir/ with the same page: 8 duplicate clusters per starter,
 * and a DUST rule /index.html$ → /$ whose canonical URLs begin with the starter too.
 */
const STARTERS = [
  '=HYPERLINK("http://evil.test/","x")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
];
const DIRS = 8;
const hostileUrls = STARTERS.flatMap((s) =>
  Array.from({ length: DIRS }, (_, d) => [`${s}/d${d}/index.html`, `${s}/d${d}/`]).flat(),
);

const WORDS =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(
    ' ',
  );

/** 120 words drawn from doc's own sequence: different docs share few 5-word shingles. */
function words(doc: number): string {
  return textOf(doc, 120, 50, WORDS).join(' ');
}

function formulaJsonl(): Buffer {
  const out: string[] = [];
  let n = 0;
  const put = (url: string, title: string, doc: number) =>
    out.push(
      JSON.stringify({
        url,
        status: 200,
        fetched_at: new Date(Date.UTC(2024, 4, 1, 10, 0, n++)).toISOString(),
        html: `<!doctype html><html><head><title>${title}</title></head><body><p>${words(doc)}</p></body></html>`,
      }),
    );
  STARTERS.forEach((s, k) => {
    for (let d = 0; d < DIRS; d++) {
      const title = `${s[0]}1+2 formula title ${k}.${d}`;
      put(`${s}/d${d}/index.html`, title, 100 * k + d);
      put(`${s}/d${d}/`, title, 100 * k + d);
    }
  });
  for (let d = 0; d < DIRS; d++) {
    put(`http://plain.test/d${d}/index.html`, `Plain ${d}`, 1000 + d);
    put(`http://plain.test/d${d}/`, `Plain ${d}`, 1000 + d);
  }
  return Buffer.from(out.join('\n') + '\n');
}

/** A downloaded file's text, after pressing the button that saves it. */
async function exported(page: Page, button: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  return readFileSync(await (await download).path(), 'utf8');
}

/**
 * Every cell of a CSV as a spreadsheet reads it: none may begin like a formula unless it is a number
 * the product wrote. Returns the cells that were neutralised (a quote before the formula starter).
 */
function assertSafe(name: string, csv: string): string[] {
  const cells = parseDelimited(csv).flat();
  const live = cells.filter((c) => FORMULA_START.test(c) && !PLAIN_NUMBER.test(c));
  assert.deepEqual(live, [], `${name}: cells a spreadsheet would run as formulas`);
  return cells.filter((c) => /^'[=+\-@\t\r]/.test(c));
}

describe('CSV exports of a crawl whose URLs and titles begin like formulas, in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-formula-'));
  const file = join(dir, 'formula.jsonl');
  let app: OpenApp;
  let page: Page;

  before(async () => {
    writeFileSync(file, formulaJsonl());
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the crawl and shows its titles as stored, as text', async () => {
    await dropFile(page, file);
    await page
      .locator('.dataset-list li', { hasText: 'formula.jsonl' })
      .locator('.badge.status-ready')
      .waitFor({ timeout: 60_000 });
    await page.getByTestId('page-count').filter({ hasText: '80 of 80 pages' }).waitFor();
    await page.getByLabel('Filter by URL or title').fill('=1+2 formula title 0.0');
    assert.equal(
      ((await page.locator('.tr .c-title').first().textContent()) ?? '').trim(),
      '=1+2 formula title 0.0',
    );
    await page.getByLabel('Filter by URL or title').fill('');
  });

  it('exports clusters as CSV with every URL and canonical URL cell neutralised', async () => {
    await page.getByRole('button', { name: 'Mine DUST rules' }).click();
    await page.getByTestId('dust-headline').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    await page.getByTestId('cluster-summary').waitFor({ timeout: 60_000 });
    const csv = await exported(page, 'Export clusters (CSV)');
    const neutralised = assertSafe('clusters.csv', csv);
    const rows = parseDelimited(csv, { restore: true });
    const [head, ...body] = rows;
    const url = head.indexOf('url');
    const canon = head.indexOf('canonical_url');
    // Every hostile URL is in a cluster, read back as crawled, and neutralised in the file.
    assert.deepEqual(
      body
        .map((r) => r[url])
        .filter((u) => !u.startsWith('http'))
        .sort(),
      [...hostileUrls].sort(),
    );
    for (const u of hostileUrls) assert.ok(neutralised.includes(`'${u}`), `clusters.csv: ${u} neutralised`);
    // Canonical URLs come from the mined rule and begin with the starters as well.
    const canonicals = body.map((r) => r[canon]).filter((c) => !c.startsWith('http'));
    assert.equal(canonicals.length, hostileUrls.length);
    for (const c of canonicals) assert.ok(c.endsWith('/') && neutralised.includes(`'${c}`), `canonical ${c}`);
  });

  it('exports canonical URLs as CSV with every cell neutralised', async () => {
    const csv = await exported(page, 'Export canonical URLs (CSV)');
    const neutralised = assertSafe('canonical-urls.csv', csv);
    const rows = parseDelimited(csv, { restore: true }).slice(1);
    const hostile = rows.filter(([u]) => !u.startsWith('http'));
    assert.equal(hostile.length, STARTERS.length * DIRS, 'every hostile index.html URL has its canonical');
    assert.deepEqual(parseDelimited(csv)[0], [
      'url',
      'surt',
      'canonical',
      'canonical_surt',
      'canonical_fetched',
      'rule_form',
    ]);
    for (const [u, , c, , fetched, form] of hostile) {
      assert.ok(u.endsWith('/index.html') && c === u.slice(0, -'index.html'.length), `${u} → ${c}`);
      // The canonical URL is one the crawl fetched, the rules' own form here.
      assert.equal(fetched, 'yes', `${c} fetched`);
      assert.equal(form, c);
      assert.ok(neutralised.includes(`'${u}`) && neutralised.includes(`'${c}`), `${u} and ${c} neutralised`);
    }
  });

  it('exports labels as CSV neutralised, and imports them back onto the same pages', async () => {
    const view = page.getByRole('region', { name: 'Label pairs' });
    // Two clusters' pairs (their URLs begin with = and with -), labelled from the keyboard.
    for (const title of ['=1+2 formula title 0.3', '-1+2 formula title 2.5']) {
      await page.locator('.cluster-list li', { hasText: title }).click();
      await page.getByRole('button', { name: /Label this cluster/ }).click();
      await view.locator('.pair-measures').waitFor();
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('d');
    }
    await page.getByTestId('label-progress').filter({ hasText: '2 labels' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'safe-exports-labels.png'), fullPage: true });
    const csv = await exported(page, 'Export labels (CSV)');
    const neutralised = assertSafe('labels.csv', csv);
    const [head, ...rows] = parseDelimited(csv, { restore: true });
    const pairs = rows.map((r) => [r[head.indexOf('url_a')], r[head.indexOf('url_b')]].sort());
    assert.deepEqual(
      pairs.sort(),
      [
        [`${STARTERS[0]}/d3/`, `${STARTERS[0]}/d3/index.html`],
        [`${STARTERS[2]}/d5/`, `${STARTERS[2]}/d5/index.html`],
      ].sort(),
    );
    for (const u of pairs.flat()) assert.ok(neutralised.includes(`'${u}`), `labels.csv: ${u} neutralised`);
    // The file read back: every label lands on its pages (the quote is taken off again).
    const back = join(dir, 'labels.csv');
    writeFileSync(back, csv);
    await page.getByTestId('labels-file').setInputFiles(back);
    await page.getByText('Nothing changed: the 2 labels read are already here.').waitFor();
  });

  it('exports the precision–recall curves as numbers only', async () => {
    const pr = page.getByRole('region', { name: 'Precision and recall' });
    const download = page.waitForEvent('download');
    await pr.getByRole('button', { name: 'Export CSV' }).click();
    const csv = readFileSync(await (await download).path(), 'utf8');
    assert.deepEqual(assertSafe('pr-curves.csv', csv), []);
    assert.ok(parseDelimited(csv).length > 1, 'curve points exported');
  });

  it('raised no uncaught error in the page', () => {
    assert.deepEqual(app.errors, []);
  });
});
