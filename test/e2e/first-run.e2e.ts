import assert from 'node:assert/strict';
import { createReadStream, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ingest } from '../../src/core/ingest/pipeline';
import { jaccard, shingleSet } from '../../src/core/signatures/shingles';
import { cspViolations, type OpenApp, openApp, projectFile, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/** The sample's pages as the core reads them: URL → shingle set of the page text. */
async function sampleShingles(): Promise<Map<string, Uint32Array>> {
  const file = projectFile('sample/sample.warc.gz');
  const out = new Map<string, Uint32Array>();
  await ingest(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    { fileName: 'sample.warc.gz', totalBytes: statSync(file).size },
    async (batch) => {
      for (const p of batch) if (p.content.text) out.set(p.page.url, shingleSet(p.content.text));
    },
  );
  return out;
}

const pagesIn = (text: string | null) =>
  Number(/([\d,]+) pages/.exec(text ?? '')?.[1].replace(/,/g, '') ?? NaN);

/**
 * A newcomer's first run, on the server the README's own command starts: open the sample, compute
 * signatures, trust the top clusters, enlarge each pane, export clusters, review and change a label,
 * reload and find all of it again.
 */
describe('first run: the README path in Chromium', () => {
  let app: OpenApp;
  let page: Page;
  let exported: { method: string; clusters: { cluster: number; members: { url: string }[] }[] } | null = null;

  before(async () => {
    app = await openApp({
      beforeLoad: async (p) => {
        await p.setViewportSize({ width: 1280, height: 800 });
        p.on('dialog', (d) => void d.accept());
      },
    });
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  it('opens the whole sample crawl (at least 400 pages)', async () => {
    // The first screen names every kind of file the workbench reads.
    const welcome = (await page.locator('.welcome').textContent()) ?? '';
    for (const f of [
      'WARC',
      '.zst',
      'WACZ',
      'ARC',
      'WET',
      'CDX/CDXJ',
      'crawl.log',
      'access log',
      'JSONL',
      'CSV/TSV',
      'Parquet',
      'list of URLs',
    ])
      assert.ok(welcome.includes(f), `the first screen names ${f}`);
    await page.getByRole('button', { name: 'Open sample crawl' }).click();
    await page.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 60_000 });
    const n = pagesIn(await page.locator('.dataset-list .meta').first().textContent());
    assert.ok(n >= 400, `sample pages: ${n}`);
  });

  it('computes signatures; no pair inside the top 5 default clusters has Jaccard < 0.5', async () => {
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    await page.getByTestId('cluster-summary').waitFor({ timeout: 90_000 });
    await page.screenshot({ path: join(SHOTS, 'first-run-1280x800.png') });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export clusters (JSON)' }).click();
    const file = await (await download).path();
    exported = JSON.parse(readFileSync(file, 'utf8'));
    const clusters = [...exported!.clusters].sort((a, b) => b.members.length - a.members.length).slice(0, 5);
    assert.ok(clusters.length >= 5, `clusters exported: ${exported!.clusters.length}`);
    const sh = await sampleShingles();
    let min = 1;
    for (const c of clusters) {
      for (let i = 0; i < c.members.length; i++)
        for (let j = i + 1; j < c.members.length; j++) {
          const a = sh.get(c.members[i].url);
          const b = sh.get(c.members[j].url);
          assert.ok(a && b, `text of ${c.members[i].url} and ${c.members[j].url}`);
          const jac = jaccard(a, b);
          min = Math.min(min, jac);
          assert.ok(
            jac >= 0.5,
            `cluster ${c.cluster}: ${c.members[i].url} ~ ${c.members[j].url} Jaccard ${jac}`,
          );
        }
    }
    console.log(
      `smallest pairwise Jaccard inside the top 5 default (${exported!.method}) clusters: ${min.toFixed(3)}`,
    );
  });

  it('exports clusters as CSV and reads the file back', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export clusters (CSV)' }).click();
    const csv = readFileSync(await (await download).path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    assert.match(lines[0], /cluster.*url.*canonical.*method/i);
    const members = exported!.clusters.reduce((a, c) => a + c.members.length, 0);
    assert.equal(lines.length - 1, members, 'one CSV row per cluster member');
  });

  it('enlarges each pane to the whole main area and back', async () => {
    const main = (await page.locator('main').boundingBox())!;
    for (const name of ['Duplicate clusters', 'Precision–recall', 'DUST rules']) {
      await page.getByRole('button', { name: `Enlarge ${name}` }).click();
      const frame = page.locator('.pane-frame.enlarged');
      const box = (await frame.boundingBox())!;
      assert.ok(box.width >= main.width * 0.9, `${name} enlarged: ${box.width} of ${main.width}`);
      assert.match(page.url(), /[?&]pane=/);
      if (name === 'Precision–recall') {
        const chart = (await frame.getByRole('img', { name: 'Precision-recall curves' }).boundingBox())!;
        assert.ok(chart.width >= 480, `enlarged PR chart ${chart.width} px`);
        await page.screenshot({ path: join(SHOTS, 'first-run-pr-enlarged.png') });
      }
      await page.getByRole('button', { name: 'Restore' }).click();
      assert.doesNotMatch(page.url(), /[?&]pane=/);
    }
  });

  it('labels a pair, reviews it in the labels list and changes it', async () => {
    const view = page.getByRole('region', { name: 'Label pairs' });
    await view.getByRole('button', { name: 'New queue' }).click();
    await view.locator('.page-text').first().waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('d');
    await page.keyboard.press('d');
    await page.getByTestId('label-progress').filter({ hasText: '2 labels' }).waitFor({ timeout: 10_000 });
    const list = page.getByRole('listbox', { name: 'Labels' });
    assert.equal(await list.getByRole('option').count(), 2);
    await list.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('n');
    await list.locator('.label-value.not').first().waitFor();
    await page.getByTestId('label-progress').filter({ hasText: '1 duplicate, 1 not' }).waitFor();
    await list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'first-run-labels.png') });
  });

  it('after a reload the sample, its clusters, the export and the changed label are all there', async () => {
    const before = await page.getByTestId('cluster-summary').textContent();
    await page.reload();
    assert.ok(pagesIn(await page.locator('.dataset-list .meta').first().textContent()) >= 400);
    await page.getByTestId('cluster-summary').waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('cluster-summary').textContent(), before);
    const list = page.getByRole('listbox', { name: 'Labels' });
    await list.waitFor();
    assert.equal(await list.getByRole('option').count(), 2);
    await list.locator('.label-value.not').first().waitFor();
  });

  it('reads well at 1920×1080 too', async () => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.getByRole('button', { name: 'Mine DUST rules' }).click();
    await page.getByTestId('dust-headline').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(SHOTS, 'first-run-1920x1080.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'first-run-1280x800-rules.png') });
  });

  it('raised no uncaught error and no Content-Security-Policy violation', () => {
    assert.deepEqual(app.errors, []);
    assert.deepEqual(cspViolations, []);
  });
});
