import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  httpResponse,
  isoDate,
  recordIdFactory,
  sha1Base32,
  warcRecord,
} from '../../scripts/lib/warc-writer';
import { dropFile, type OpenApp, openApp, readInParts, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

const SITE = 'http://digest.test';
const PAGES = 2200;
/** Records whose payload digest is made wrong (one in each half: the file is read in two parts). */
const BAD_PAYLOAD = [5, 2000];
const BAD_BLOCK = 1500;

/**
 * A plain WARC of 2,200 pages (~18 MB, so the browser reads it in parallel parts), each with a SHA-256
 * payload digest in hex (as Browsertrix writes it) and a SHA-1 block digest; two payload digests and
 * one block digest are wrong. Made at run time, never committed. Returns the file and the offsets of
 * the records made wrong.
 */
function crawl(): { data: Buffer; offsets: Map<number, number> } {
  const id = recordIdFactory('digests-e2e');
  const out: Buffer[] = [];
  const offsets = new Map<number, number>();
  let at = 0;
  for (let n = 0; n < PAGES; n++) {
    const html = Buffer.from(
      `<!doctype html><html><head><title>Digest page ${n}</title></head><body><p>Page ${n}. ${'Words of text. '.repeat(500)}</p></body></html>`,
    );
    const block = httpResponse(200, [['Content-Type', 'text/html; charset=utf-8']], html);
    const payload = createHash('sha256')
      .update(BAD_PAYLOAD.includes(n) ? Buffer.from('another payload') : html)
      .digest('hex');
    const record = warcRecord({
      type: 'response',
      targetUri: `${SITE}/${n}`,
      date: isoDate('2024-05-01T10:00:00Z', n),
      recordId: id(),
      headers: [
        ['WARC-Payload-Digest', `sha256:${payload}`],
        ['WARC-Block-Digest', sha1Base32(n === BAD_BLOCK ? Buffer.from('another block') : block)],
      ],
      block,
    });
    offsets.set(n, at);
    at += record.length;
    out.push(record);
  }
  return { data: Buffer.concat(out), offsets };
}

/** The digests records state are checked in the browser's workers and said in the dataset header. */
describe('digests checked in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-digests-'));
  const file = join(dir, 'digests.warc');
  const { data, offsets } = crawl();
  let app: OpenApp;
  let page: Page;

  before(async () => {
    writeFileSync(file, data);
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads every page, in parallel parts, wrong digests and all', async () => {
    await dropFile(page, file);
    await page
      .locator('.dataset-list li', { hasText: 'digests.warc' })
      .locator('.badge.status-ready')
      .waitFor({ timeout: 120_000 });
    await page
      .getByTestId('page-count')
      .filter({ hasText: `${PAGES.toLocaleString('en-US')} of` })
      .waitFor();
    assert.ok(await readInParts(page), 'the 18 MB file was read in parts');
  });

  it('says how many digests were checked and lists each mismatch with its offset and URL', async () => {
    const box = page.getByTestId('digests');
    const line = (await box.locator('summary').textContent()) ?? '';
    assert.equal(
      line,
      `Digests: ${(2 * PAGES).toLocaleString('en-US')} checked · 3 do not match (payload 2, block 1)`,
    );
    await box.locator('summary').click();
    const items = await box.locator('li').allTextContents();
    const at = (n: number) => offsets.get(n)!.toLocaleString('en-US');
    assert.deepEqual(
      items.map((t) => t.replace(/ · sha.*$/, '')),
      [
        `WARC-Payload-Digest at byte ${at(5)} · ${SITE}/5`,
        `WARC-Block-Digest at byte ${at(BAD_BLOCK)} · ${SITE}/${BAD_BLOCK}`,
        `WARC-Payload-Digest at byte ${at(2000)} · ${SITE}/2000`,
      ],
    );
    await box.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'digests-header.png') });
  });

  it('counts them among the problems read past, one per field over both parts', async () => {
    const problems = page.locator('.dataset-warnings', { hasText: 'problem' }).first();
    await problems.locator('summary').click();
    const text = (await problems.textContent()) ?? '';
    const at = (n: number) => offsets.get(n)!.toLocaleString('en-US');
    assert.ok(
      text.includes(
        `digests.warc at byte ${at(5)}: 2 records whose WARC-Payload-Digest does not match their payload (the first ${SITE}/5; then at bytes ${at(2000)}); read as usual`,
      ),
      text,
    );
    assert.match(text, /a record whose WARC-Block-Digest does not match its block/);
  });

  it('raised no uncaught error in the page', () => {
    assert.deepEqual(app.errors, []);
  });
});
