import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seededRandom } from '../../src/core/random';
import { generateWarcGz } from '../bench/gen-warc';
import { dropFile, type OpenApp, openApp, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/**
 * A WARC.gz of large pages (~200 KB of text each), as a real crawl's documentation pages are: a batch of
 * 500 pages is seconds of reading, more than each parallel part holds here (~400 pages per part).
 */
async function generateLargePages(path: string, targetBytes: number): Promise<void> {
  const rnd = seededRandom(24);
  const syl = 'ka lo mi ne ru sa ti vo pe da gu ri ho ze ma ni ko la be to fi su ra de no'.split(' ');
  const words = Array.from({ length: 8000 }, () =>
    Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => syl[Math.floor(rnd() * syl.length)]).join(''),
  );
  const out = createWriteStream(path);
  let written = 0;
  const write = (b: Buffer) =>
    new Promise<void>((ok) => {
      written += b.length;
      if (out.write(b)) ok();
      else out.once('drain', () => ok());
    });
  for (let n = 0; written < targetBytes; n++) {
    const url = `http://docs${n % 5}.example.test/guide/page${n}.html`;
    const paras: string[] = [];
    for (let p = 0; p < 350; p++) {
      const ws: string[] = [];
      for (let k = 0; k < 90; k++) ws.push(words[Math.floor(words.length * rnd() ** 2)]);
      paras.push(`<p>${ws.join(' ')}.</p>`);
    }
    const html = Buffer.from(
      `<!doctype html><html><head><title>guide ${n}</title></head><body><main>${paras.join('\n')}</main></body></html>`,
    );
    const block = Buffer.concat([
      Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${html.length}\r\n\r\n`,
      ),
      html,
    ]);
    const id = createHash('sha1').update(url).digest('hex');
    const head =
      `WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: ${url}\r\nWARC-Date: 2024-01-15T10:00:00Z\r\n` +
      `WARC-Record-ID: <urn:uuid:${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}>\r\n` +
      `Content-Type: application/http; msgtype=response\r\nContent-Length: ${block.length}\r\n\r\n`;
    await write(gzipSync(Buffer.concat([Buffer.from(head), block, Buffer.from('\r\n\r\n')]), { level: 1 }));
  }
  await new Promise<void>((ok) => out.end(() => ok()));
}

/** The page count in a dataset's row of the list. */
const pagesOf = async (page: Page, name: string): Promise<number> => {
  const meta =
    (await page.locator('.dataset-list li', { hasText: name }).locator('.meta').first().textContent()) ?? '';
  return Number(/([\d,]+) pages?/.exec(meta)?.[1].replace(/,/g, '') ?? NaN);
};

const deleteAll = async (page: Page) => {
  while ((await page.locator('.dataset-list li').count()) > 0) {
    await page.locator('.dataset-list li .delete').first().click();
    await page.waitForTimeout(200);
  }
};

/** #24 item 10: a reload early in a read keeps what was read; a dataset with no page offers no job. */
describe('pages stored from the first seconds of a read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-early-'));
  const big = join(dir, 'docs.warc.gz');
  const same = [1, 2, 3].map((k) => join(dir, `s${k}`, 'crawl.warc.gz'));
  let app: OpenApp;
  let page: Page;

  before(async () => {
    await generateLargePages(big, 60e6);
    for (const [k, f] of same.entries()) {
      mkdirSync(join(f, '..'), { recursive: true });
      await generateWarcGz(f, 150e3 * (k + 1), 30 + k);
    }
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

  it('the first progress line shows no ETA (before 5% of the bytes or 2 s); a later one does', async () => {
    await page.evaluate(() => {
      const w = window as unknown as { seen: string[] };
      w.seen = [];
      new MutationObserver(() => {
        const t = document.querySelector('[data-testid=ingest-stats]')?.textContent;
        if (t && w.seen.at(-1) !== t) w.seen.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await dropFile(page, big);
    await page.waitForFunction(
      () => (window as unknown as { seen: string[] }).seen.some((t) => /ETA \d/.test(t)),
      null,
      {
        timeout: 30_000,
      },
    );
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    const first = seen.find((t) => !/^0 B of/.test(t)) ?? '';
    assert.ok(first, `a progress line with bytes read: ${seen.join(' | ')}`);
    assert.doesNotMatch(first, /ETA/, `first progress line: ${first}`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Discard' }).click({ timeout: 20_000 });
    await page.getByText('Drop a crawl file anywhere').waitFor();
  });

  it('a reload early in the read of a 57 MB crawl of large pages keeps the pages read', async () => {
    await dropFile(page, big);
    await page.getByTestId('being-read').waitFor({ timeout: 10_000 });
    // Reload as soon as the dataset's row counts pages stored, not after a fixed time: on a machine
    // without other load the whole file is read in under 2.5 s.
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.dataset-list li')].some(
          (li) =>
            li.textContent?.includes('docs.warc.gz') &&
            /\b[1-9][\d,]* pages?\b/.test(li.querySelector('.meta')?.textContent ?? ''),
        ),
      null,
      { timeout: 30_000, polling: 50 },
    );
    const stats = (await page.getByTestId('ingest-stats').textContent({ timeout: 2_000 })) ?? '';
    await page.reload();
    const row = page.locator('.dataset-list li', { hasText: 'docs.warc.gz' });
    await row.locator('.badge.status-interrupted').waitFor({ timeout: 5_000 });
    const kept = await pagesOf(page, 'docs.warc.gz');
    assert.ok(kept > 0, `pages kept after a reload (progress then: ${stats}): ${kept}`);
    await row.locator('.dataset').click();
    await page.getByRole('button', { name: 'Compute signatures' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'early-store-reload.png') });
  });

  it('an interrupted dataset with 0 pages offers no signatures or DUST job, and says why', async () => {
    await deleteAll(page);
    // A read interrupted before its first page was stored: its row, left 'ingesting' by a tab now gone.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const r = indexedDB.open('dedup-workbench');
          r.onerror = () => reject(r.error);
          r.onsuccess = () => {
            const tx = r.result.transaction('datasets', 'readwrite');
            tx.objectStore('datasets').add({
              name: 'gone.warc.gz',
              fileName: 'gone.warc.gz',
              bytes: 34e6,
              format: 'warc',
              compressed: true,
              created: new Date().toISOString(),
              status: 'ingesting',
              heartbeat: 0,
              lock: 'dw-ingest-of-a-closed-tab',
              pages: 0,
              records: 0,
              hosts: 0,
              recordsByType: {},
              skipped: {},
              bytesDecoded: 0,
              elapsedMs: 0,
              storeMs: 0,
              error: null,
              warnings: [],
              warningCount: 0,
            });
            tx.oncomplete = () => {
              r.result.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
    );
    await page.reload();
    const row = page.locator('.dataset-list li', { hasText: 'gone.warc.gz' });
    await row.locator('.badge.status-interrupted').waitFor({ timeout: 5_000 });
    await row.locator('.dataset').click();
    await page.getByTestId('no-pages').waitFor();
    assert.match((await page.getByTestId('no-pages').textContent()) ?? '', /nothing to compute signatures/);
    assert.equal(await page.getByRole('button', { name: 'Compute signatures' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Mine DUST rules' }).count(), 0);
    await deleteAll(page);
  });

  it('three datasets from files named crawl.warc.gz show when each was read and how big it is', async () => {
    for (const f of same) {
      await dropFile(page, f);
      await page.getByRole('progressbar').waitFor({ state: 'detached', timeout: 30_000 });
      await page.locator('.dataset-list .badge.status-ingesting').waitFor({ state: 'detached' });
      await page.waitForTimeout(1_100); // read in different seconds, as an analyst's reads are
    }
    const rows = page.locator('.dataset-list li', { hasText: 'crawl.warc.gz' });
    assert.equal(await rows.count(), 3);
    const lines: string[] = [];
    for (let i = 0; i < 3; i++) {
      const when = (await rows.nth(i).getByTestId('dataset-when').textContent()) ?? '';
      assert.match(when, /^read \d{1,2} \w{3} \d{4}, \d\d:\d\d:\d\d$/);
      lines.push(`${(await rows.nth(i).locator('.meta').first().textContent()) ?? ''} ${when}`);
    }
    assert.equal(new Set(lines).size, 3, lines.join(' | '));
    await page.screenshot({ path: join(SHOTS, 'same-name-datasets.png') });
  });
});
