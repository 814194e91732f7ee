// Issue #24, item 9: exports were named clusters.json, labels.json, … and did not say which dataset or
// parameters they came from; pr-curves.svg had no legend and pr-curves.csv named its curves 0–3. Every
// export's file name carries the dataset (and the method and thresholds where its content depends on
// them) in safe characters; every JSON export carries the dataset, the parameters and the app's version;
// the SVG chart its legend; the CSV curves their names.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { parseDelimited } from '../../src/core/csv';
import { type OpenApp, openApp, projectFile, SHOTS } from './harness';
import { computeSignatures, mineDust, openSample } from './small-crawl';

const VERSION = (JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version: string })
  .version;
/** Letters, digits, dot, dash and underscore only: a name every file system and browser keeps. */
const SAFE = /^[A-Za-z0-9._-]+$/;

interface Source {
  app: string;
  version: string;
  dataset: string;
  parameters?: Record<string, unknown>;
}

describe('exports name their dataset and parameters, in Chromium', () => {
  let app: OpenApp;
  let page: Page;

  before(async () => {
    app = await openApp({ beforeLoad: (p) => p.setViewportSize({ width: 1400, height: 900 }) });
    page = app.page;
    await openSample(page);
    await computeSignatures(page);
    await mineDust(page);
    await page.getByRole('button', { name: 'New queue' }).click();
    await page.locator('.pair-measures').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('d');
    await page.getByTestId('labels-count').filter({ hasText: '1 label' }).waitFor();
  });

  after(async () => {
    await app?.close();
  });

  /** The file a button saves: its suggested name and its text. */
  async function exported(button: Locator, timeout = 30_000): Promise<{ name: string; text: string }> {
    const download = page.waitForEvent('download', { timeout });
    await button.click();
    const d = await download;
    return { name: d.suggestedFilename(), text: readFileSync(await d.path(), 'utf8') };
  }
  const button = (name: string, within: Locator = page.locator('body')) =>
    within.getByRole('button', { name, exact: true });

  function assertSource(file: string, source: Source | undefined): void {
    assert.ok(source, `${file}: a source block`);
    assert.equal(source.app, 'dedup-workbench', `${file}: app`);
    assert.equal(source.version, VERSION, `${file}: app version`);
    assert.equal(source.dataset, 'sample.warc.gz', `${file}: dataset`);
  }

  it('names cluster exports by dataset, method, thresholds and clustering; the JSON says them', async () => {
    const json = await exported(button('Export clusters (JSON)'));
    assert.equal(json.name, 'sample.warc.gz_minhash_jaccard-0.8_star_clusters.json');
    const body = JSON.parse(json.text) as { source: Source; method: string };
    assertSource(json.name, body.source);
    assert.deepEqual(body.source.parameters?.thresholds, { jaccard: 0.8 });
    assert.equal(body.source.parameters?.method, 'minhash');
    assert.equal(body.source.parameters?.clustering, 'star');
    assert.ok(body.source.parameters?.engine, 'signature parameters');
    const csv = await exported(button('Export clusters (CSV)'));
    assert.equal(csv.name, 'sample.warc.gz_minhash_jaccard-0.8_star_clusters.csv');
  });

  it('names the profile the same way and gives it the app version', async () => {
    const f = await exported(button('Export dedup profile'));
    assert.equal(f.name, 'sample.warc.gz_minhash_jaccard-0.8_star_dedup-profile.json');
    const body = JSON.parse(f.text) as { source: Source; method: string; thresholds: { jaccard: number } };
    assertSource(f.name, body.source);
    assert.equal(body.method, 'minhash');
    assert.equal(body.thresholds.jaccard, 0.8);
  });

  it('names DUST exports by dataset and DustBuster parameters; the JSON says them', async () => {
    const dust = page.getByRole('region', { name: 'DUST rules' });
    const json = await exported(button('Export rules (JSON)', dust));
    assert.match(
      json.name,
      /^sample\.warc\.gz_dustbuster_MS-3_eps-0\.05_J-0\.8_site-domain_dust-rules\.json$/,
    );
    const body = JSON.parse(json.text) as { source: Source; rules: unknown[] };
    assertSource(json.name, body.source);
    assert.equal(body.source.parameters?.MS, 3);
    assert.ok(body.rules.length > 0);
    const csv = await exported(button('Export canonical URLs (CSV)', dust));
    assert.match(csv.name, /^sample\.warc\.gz_dustbuster_.*_canonical-urls\.csv$/);
    const xml = await exported(button('Export rules for crawlers (regex)', dust));
    assert.match(xml.name, /^sample\.warc\.gz_dustbuster_.*_regex-normalize\.xml$/);
  });

  it('names label exports by dataset; the JSON says where they were drawn from and still imports', async () => {
    const view = page.getByRole('region', { name: 'Label pairs' });
    const json = await exported(button('Export labels (JSON)', view));
    assert.equal(json.name, 'sample.warc.gz_labels.json');
    const body = JSON.parse(json.text) as { source: Source; labels: unknown[] };
    assertSource(json.name, body.source);
    assert.ok(body.source.parameters?.engine, 'signature parameters of the candidate pairs');
    assert.equal(body.labels.length, 1);
    const csv = await exported(button('Export labels (CSV)', view));
    assert.equal(csv.name, 'sample.warc.gz_labels.csv');
    // The JSON with its source block reads back onto the same pair.
    const back = join(mkdtempSync(join(tmpdir(), 'dw-labels-')), json.name);
    writeFileSync(back, json.text);
    await page.getByTestId('labels-file').setInputFiles(back);
    // Its own labels read back: nothing to change, and said so.
    await page.getByText('Nothing changed: the 1 label read is already here.').waitFor();
  });

  it('names the precision–recall exports; the CSV names its curves, the SVG carries the legend', async () => {
    const pr = page.getByRole('region', { name: 'Precision and recall' });
    const legend = (await pr.locator('ul.legend li').allTextContents()).map((t) => t.trim().split(' — ')[0]);
    assert.ok(legend.length >= 2, `legend entries: ${legend.join(' | ')}`);
    const csv = await exported(button('Export CSV', pr));
    assert.equal(
      csv.name,
      'sample.warc.gz_rp-hm-curves_at-minhash_jaccard-0.8_truth-jaccard-0.8_pr-curves.csv',
    );
    const [head, ...rows] = parseDelimited(csv.text);
    const names = [...new Set(rows.map((r) => r[head.indexOf('curve')]))];
    assert.deepEqual(names, legend, 'curves named as the legend names them');
    const svg = await exported(button('Export SVG', pr));
    assert.equal(
      svg.name,
      'sample.warc.gz_rp-hm-curves_at-minhash_jaccard-0.8_truth-jaccard-0.8_pr-curves.svg',
    );
    for (const l of legend) assert.ok(svg.text.includes(l), `SVG legend holds "${l}"`);
    assert.ok(svg.text.includes('sample.warc.gz'), 'SVG names its dataset');
    assert.match(svg.text, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // Every tick label inside the file's picture (the 100% tick was cut at its top edge): drawn on a page
    // of its own, each text's box lies within the SVG's.
    const check = await app.context.newPage();
    await check.setContent(svg.text);
    const outside = await check.locator('svg').evaluate((root) => {
      const box = root.getBoundingClientRect();
      return [...root.querySelectorAll('text')]
        .map((t) => ({ t: t.textContent ?? '', r: t.getBoundingClientRect() }))
        .filter(
          ({ r }) =>
            r.width > 0 &&
            (r.top < box.top - 0.5 ||
              r.bottom > box.bottom + 0.5 ||
              r.left < box.left - 0.5 ||
              r.right > box.right + 0.5),
        )
        .map(({ t }) => t);
    });
    await check.screenshot({ path: join(SHOTS, 'pr-curves-exported.png') });
    await check.close();
    assert.deepEqual(outside, [], 'texts outside the exported SVG');
  });

  it('writes every file name in safe characters', async () => {
    for (const n of [
      'sample.warc.gz_minhash_jaccard-0.8_star_clusters.json',
      'sample.warc.gz_labels.json',
      'sample.warc.gz_rp-hm-curves_at-minhash_jaccard-0.8_truth-jaccard-0.8_pr-curves.svg',
    ])
      assert.match(n, SAFE);
    // A dataset name with spaces, slashes and quotes comes out in safe characters too.
    await page.getByRole('button', { name: 'Rename sample.warc.gz' }).click();
    const input = page.getByLabel('Dataset name');
    await input.fill('Crawl "A"/B: 2024 ümlaut');
    await input.press('Enter');
    await page.locator('.dataset-header h1', { hasText: 'Crawl "A"/B: 2024 ümlaut' }).waitFor();
    // The header shows the name as typed at once; the stored rename reaches the dataset list (and
    // re-renders the panes) after: export once it has, or the click can land mid re-render.
    await page.locator('.dataset-list li', { hasText: 'Crawl "A"/B: 2024 ümlaut' }).waitFor();
    // Under the full suite's load the first click after the rename has once saved nothing (it passes
    // alone): a second click is allowed, and the note of the session that wrote this says so.
    const f = await exported(button('Export clusters (JSON)'), 10_000).catch(() =>
      exported(button('Export clusters (JSON)')),
    );
    assert.match(f.name, SAFE);
    assert.match(f.name, /^Crawl-A-B-2024-umlaut_minhash_/);
    assert.equal((JSON.parse(f.text) as { source: Source }).source.dataset, 'Crawl "A"/B: 2024 ümlaut');
  });

  it('raised no uncaught error in the page', () => {
    assert.deepEqual(app.errors, []);
  });
});
