import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { generateWarcGz } from '../bench/gen-warc';
import { dropFile, type OpenApp, openApp, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

const pagesOf = async (page: Page, name: string): Promise<number> => {
  const meta =
    (await page.locator('.dataset-list li', { hasText: name }).locator('.meta').textContent()) ?? '';
  return Number(/([\d,]+) pages/.exec(meta)?.[1].replace(/,/g, '') ?? NaN);
};

/** Nothing lost, nothing stuck: a full disk, a reload mid-ingest, two tabs. */
describe('reliability in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-rel-'));
  const big = join(dir, 'big.warc.gz');
  let app: OpenApp;
  let page: Page;

  before(async () => {
    await generateWarcGz(big, 24e6, 5);
    app = await openApp({
      beforeLoad: (p) => {
        p.on('dialog', (d) => void d.accept());
      },
    });
    page = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a full disk (quota 12 MB) gives a finished partial dataset with its true page count, deletable, the same after a reload', async () => {
    const cdp = await app.context.newCDPSession(page);
    const origin = new URL(app.url).origin;
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 12 * 2 ** 20 });
    await dropFile(page, big);
    const row = page.locator('.dataset-list li', { hasText: 'big.warc.gz' });
    await row.locator('.badge.status-partial').waitFor({ timeout: 120_000 });
    const alert = page.getByRole('alert').filter({ hasText: 'storage' }).first();
    assert.match((await alert.textContent()) ?? '', /storage for this site is full.*[\d,]+ pages/);
    const kept = await pagesOf(page, 'big.warc.gz');
    assert.ok(kept > 0, `pages kept: ${kept}`);
    // The counts are the page rows really stored (a batch's rows are one value: src/db/schema.ts).
    const stored = await page.evaluate(
      (id) =>
        new Promise<{ pages: number; hosts: number; statuses: string }>((ok, fail) => {
          const r = indexedDB.open('dedup-workbench');
          r.onerror = () => fail(r.error);
          r.onsuccess = () => {
            const tx = r.result.transaction('pageChunks');
            const c = tx.objectStore('pageChunks').getAll(IDBKeyRange.bound([id, -Infinity], [id, []]));
            c.onsuccess = () => {
              const rows = (c.result as { pages: { host: string; status: number }[] }[]).flatMap(
                (x) => x.pages,
              );
              // By status class as the header shows them ("2xx 1,234 · 4xx 5", classes in order).
              const byClass = new Map<string, number>();
              for (const p of rows) {
                const k = p.status >= 100 && p.status < 600 ? `${Math.floor(p.status / 100)}xx` : 'other';
                byClass.set(k, (byClass.get(k) ?? 0) + 1);
              }
              const statuses = [...byClass]
                .sort(([a], [b]) => (a < b ? -1 : 1))
                .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
                .join(' · ');
              ok({
                pages: rows.length,
                hosts: new Set(rows.map((p) => p.host).filter(Boolean)).size,
                statuses,
              });
            };
            c.onerror = () => fail(c.error);
          };
        }),
      Number(new URL(page.url()).searchParams.get('ds') ?? 1),
    );
    assert.equal(stored.pages, kept, 'shown page count = stored rows');
    // The header's hosts are those of the stored rows (was "0 hosts" after a full disk).
    const header = (await page.locator('.dataset-header .meta').first().textContent()) ?? '';
    const hosts = Number(/([\d,]+) hosts/.exec(header)?.[1].replace(/,/g, '') ?? NaN);
    assert.ok(stored.hosts > 0, `hosts stored: ${stored.hosts}`);
    assert.equal(hosts, stored.hosts, `header: ${header}`);
    // Its Status line counts the stored rows by class too (there was none after a full disk).
    const status = page.locator('.dataset-header .meta', { hasText: /^Status: / });
    assert.equal(await status.count(), 1, 'a Status line in the header');
    assert.ok(stored.statuses, 'stored rows have statuses');
    assert.equal(await status.textContent(), `Status: ${stored.statuses}`);
    await page.screenshot({ path: join(SHOTS, 'quota-partial.png') });
    await page.reload();
    await row.locator('.badge.status-partial').waitFor();
    assert.equal(await pagesOf(page, 'big.warc.gz'), kept);
    await page.getByRole('button', { name: 'Delete big.warc.gz' }).click();
    await page.getByText('Drop a crawl file anywhere').waitFor();
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  });

  it('after a reload mid-ingest the dataset is interrupted at load, with its stored pages, and can be deleted', async () => {
    await dropFile(page, big);
    // Wait until some batches are stored, then reload.
    await page.waitForFunction(
      () => {
        const t = document.querySelector('[data-testid=ingest-stats]')?.textContent ?? '';
        return Number(/([\d,]+) pages/.exec(t)?.[1].replace(/,/g, '') ?? 0) >= 3000;
      },
      null,
      { timeout: 60_000 },
    );
    // The dataset being read is shown at once, its stored pages counted as they are stored.
    await page.waitForFunction(
      () =>
        /[1-9][\d,]* pages stored so far/.test(
          document.querySelector('.dataset-header .meta')?.textContent ?? '',
        ),
      null,
      { timeout: 10_000 },
    );
    // Its pages are not loaded while it grows (the main thread would reload them every second).
    await page.getByTestId('being-read').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Compute signatures' }).count(), 0);
    await page.screenshot({ path: join(SHOTS, 'reading-live-count.png') });
    await page.reload();
    const t0 = Date.now();
    const row = page.locator('.dataset-list li', { hasText: 'big.warc.gz' });
    // Said at load (about a second on a quiet machine): a time limit here would fail under CI's load,
    // so the time is printed, not asserted (speed goals are the benches').
    await row.locator('.badge.status-interrupted').waitFor({ timeout: 15_000 });
    console.log(`# interrupted shown ${Date.now() - t0} ms after the reload`);
    const kept = await pagesOf(page, 'big.warc.gz');
    assert.ok(kept > 0, `stored pages shown: ${kept}`);
    // The message says how many pages were stored and that later ones were lost, with the same count.
    await page.locator('.dataset-list li', { hasText: 'big.warc.gz' }).click();
    const said = (await page.locator('.dataset-header').textContent()) ?? '';
    assert.match(said, new RegExp(`after ${kept.toLocaleString('en-US')} pages were stored; they are kept`));
    assert.match(said, /read after the last stored batch were lost/);
    await page.screenshot({ path: join(SHOTS, 'reload-interrupted.png') });
    await page.getByRole('button', { name: 'Delete big.warc.gz' }).click();
    await page.getByText('Drop a crawl file anywhere').waitFor();
  });

  it("with two tabs, B's finished dataset appears in A without a reload", async () => {
    const b = await app.context.newPage();
    await b.goto(app.url);
    await b.getByRole('button', { name: 'Open sample crawl' }).click();
    await b.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 60_000 });
    const inB = await pagesOf(b, 'sample.warc.gz');
    await page
      .locator('.dataset-list li', { hasText: 'sample.warc.gz' })
      .locator('.badge.status-ready')
      .waitFor({ timeout: 5_000 });
    assert.equal(await pagesOf(page, 'sample.warc.gz'), inB);
    await page.screenshot({ path: join(SHOTS, 'two-tabs.png') });
    await b.close();
    assert.ok(statSync(big).size > 20e6);
  });
});
