import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  gzipMember,
  httpRequest,
  httpResponse,
  recordIdFactory,
  warcRecord,
} from '../../scripts/lib/warc-writer';
import { dropFile, type OpenApp, openApp, SHOTS } from './harness';
import { words as textOf } from './small-crawl';

mkdirSync(SHOTS, { recursive: true });

const WORDS =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(
    ' ',
  );

/** A page of 120 words drawn from doc's own sequence: different docs share few 5-word shingles. */
function html(doc: number): Buffer {
  const words = textOf(doc, 120, 50, WORDS);
  return Buffer.from(
    `<!doctype html><html><head><title>Doc ${doc}</title></head><body><p>${words.join(' ')}</p></body></html>`,
  );
}

/**
 * A shop crawl with DUST only rules from pairs and redirects reveal: four large directories whose
 * dir/index.html is dir/ (every envelope overflows T_low), /archive/2024/N/ ↔ /item_N (two places),
 * and shop.test/item_N answering 301 to www.shop.test/item_N (another host of the same site); date
 * permalinks /2024/MM/DD/ID/ ↔ /?p=ID (several varying tokens) and ;jsessionid= path parameters.
 */
function shopWarc(): Buffer {
  const id = recordIdFactory('dust-pairs');
  const out: Buffer[] = [];
  let doc = 0;
  const put = (url: string, status: number, body: Buffer, headers: [string, string][] = []) => {
    const date = '2024-03-01T10:00:00Z';
    const resp = id();
    out.push(
      gzipMember(
        warcRecord({ type: 'request', targetUri: url, date, recordId: id(), block: httpRequest(url) }),
      ),
      gzipMember(
        warcRecord({
          type: 'response',
          targetUri: url,
          date,
          recordId: resp,
          block: httpResponse(status, [['Content-Type', 'text/html; charset=utf-8'], ...headers], body),
        }),
      ),
    );
  };
  const W = 'http://www.shop.test';
  for (const dir of ['guides', 'manuals', 'faq', 'news']) {
    const index = html(++doc);
    put(`${W}/${dir}/`, 200, index);
    put(`${W}/${dir}/index.html`, 200, index);
    for (let f = 0; f < 12; f++) put(`${W}/${dir}/p${f}.html`, 200, html(++doc));
  }
  for (let n = 500; n < 520; n++) {
    const body = html(++doc);
    put(`${W}/item_${n}`, 200, body);
    if (n % 4 !== 0) put(`${W}/archive/2024/${n}/`, 200, body);
    if (n % 2 === 0) {
      const moved = Buffer.from('<html><body><h1>Moved Permanently</h1></body></html>');
      put(`http://shop.test/item_${n}`, 301, moved, [['Location', `${W}/item_${n}`]]);
    }
  }
  for (let n = 500; n < 510; n++) put(`${W}/archive/2023/${n}/`, 200, html(++doc));
  // A blog: 24 posts on 8 dates, each at /2024/MM/DD/ID/ and /?p=ID (one rule with wildcards, not
  // one per date), and item pages crawled again with a ;jsessionid= of one of three crawler sessions.
  for (let k = 0; k < 24; k++) {
    const body = html(++doc);
    const day = Math.floor(k / 3);
    const date = `2024/${String(1 + (day % 4) * 3).padStart(2, '0')}/${String(3 + day * 3).padStart(2, '0')}`;
    const id = 7000 + k * 13;
    put(`${W}/${date}/${id}/`, 200, body);
    put(`${W}/?p=${id}`, 200, body);
  }
  for (let n = 520; n < 560; n++) {
    const body = html(++doc);
    put(`${W}/item_${n}`, 200, body);
    if (n % 10 < 3) put(`${W}/item_${n};jsessionid=${['A7F3C9', 'B81D0E', 'C4E2AA'][n % 3]}`, 200, body);
  }
  return Buffer.concat(out);
}

describe('DUST rules from pairs and redirects in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-dust-'));
  let app: OpenApp;
  let page: Page;

  before(async () => {
    writeFileSync(join(dir, 'shop.warc.gz'), shopWarc());
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds /index.html$ → /$, the two-place archive rule and the host rule, all valid', async () => {
    await dropFile(page, join(dir, 'shop.warc.gz'));
    await page.locator('.dataset-list .badge.status-ready').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Mine DUST rules' }).click();
    await page.getByTestId('dust-headline').waitFor({ timeout: 60_000 });
    const list = (await page.getByTestId('dust-list').textContent()) ?? '';
    assert.match(list, /10 redirects read as their targets/);
    assert.match(list, /whole list/);
    assert.match(list, /registrable domain/);
    const rows = page.getByRole('table', { name: 'Rules' }).locator('tbody tr');
    const row = (text: string) => rows.filter({ hasText: text }).first();
    assert.match((await row('/index.html$').textContent()) ?? '', /pairs.*valid/);
    const archive = row('/archive/2024/{x}/$');
    assert.match((await archive.textContent()) ?? '', /\/item_\{x\}\$.*pairs.*valid/);
    assert.match(
      (await row('^http://shop.test/item_ → ^http://www.shop.test/item_').textContent()) ?? '',
      /valid/,
    );
    // Date permalinks: ONE rule with wildcards, valid, its per-date spellings folded under it.
    assert.match(
      (await row('/2024/{m}/{d}/{n}/$ → /?p={n}$').textContent()) ?? '',
      /pairs.*absorbs \d+.*24.*valid/,
    );
    assert.equal(await rows.filter({ hasText: /\/2024\/\d\d\/\d\d\// }).count(), 0);
    // The path parameter is dropped, and no "this session → that session" rule is listed.
    assert.match((await row(';jsessionid=… → (dropped)').textContent()) ?? '', /valid/);
    assert.equal(await rows.filter({ hasText: /jsessionid=[A-C]/ }).count(), 0);
    // The filter keeps rules whose spelling or instances hold the text (a host, a path).
    await page.getByLabel('Filter rules').fill('/archive/');
    const kept = await rows.allTextContents();
    assert.ok(kept.length >= 1 && kept.length < 4, `${kept.length} rules kept`);
    for (const t of kept) assert.match(t, /archive/);
    await page.getByLabel('Filter rules').fill('');
    await archive.click();
    await page.getByRole('region', { name: 'Rule instances' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'dust-pairs.png'), fullPage: true });
    // Canonical URLs in the pages table follow the rules from pairs.
    await page.getByLabel('Filter by URL or title').fill('archive/2024/501');
    // The site redirects shop.test → www.shop.test: that direction, not the shrinking one, is canonical.
    assert.equal(
      ((await page.locator('.tr .c-canon').first().textContent()) ?? '').trim(),
      'http://www.shop.test/item_501',
    );
    await page.getByLabel('Filter by URL or title').fill('');
  });

  it('mines again with the parameters panel: rules from pairs off', async () => {
    await page.getByText('DustBuster parameters').click();
    await page.getByLabel('Rules from pairs').uncheck();
    await page.getByText(/changed: mine again to apply/).waitFor();
    await page.screenshot({ path: join(SHOTS, 'dust-params.png'), fullPage: true });
    await page.getByRole('button', { name: 'Mine again' }).click();
    const rows = page.getByRole('table', { name: 'Rules' }).locator('tbody tr');
    // The new run replaces the table: no rule with a carried token is left.
    await rows.filter({ hasText: '{x}' }).first().waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByRole('button', { name: 'Mine again' }).waitFor({ timeout: 60_000 });
    assert.equal(await page.getByText(/changed: mine again/).count(), 0);
    assert.equal(await page.locator('.rules .badge', { hasText: 'pairs' }).count(), 0);
    // The paper's rules are still there, and the parameters survive a reload with the run.
    assert.match(
      (await rows
        .filter({ hasText: '^http://shop.test/item_ → ^http://www.shop.test/item_' })
        .first()
        .textContent()) ?? '',
      /valid/,
    );
    await page.reload();
    await page.getByTestId('dust-headline').waitFor({ timeout: 20_000 });
    await page.getByText('DustBuster parameters').click();
    assert.equal(await page.getByLabel('Rules from pairs').isChecked(), false);
  });
});
