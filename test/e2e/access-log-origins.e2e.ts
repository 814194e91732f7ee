import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { portsAccessLog } from '../../scripts/lib/log-world';
import { HOST_GUESSED } from '../../src/core/ingest/access-log';
import { ingest } from '../../src/core/ingest/pipeline';
import type { IngestedPage } from '../../src/core/types';
import { dropFile, type OpenApp, openApp, SHOTS } from './harness';

mkdirSync(SHOTS, { recursive: true });

/**
 * An access log of three sites on one address by port (127.0.0.1:28431, :28432, :28433), without a
 * virtual-host field (scripts/lib/log-world.ts, seeded: the same file every run): dropped on the
 * workbench, it gives three sites, and the dataset header says so — each origin with its URLs, as the
 * core reads the same file.
 */
describe('an access log of three sites on one address, in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-ports-'));
  const log = portsAccessLog(45);
  const file = join(dir, 'ports.log');
  let app: OpenApp;
  let page: Page;
  let core: { pages: IngestedPage[]; said: string };

  before(async () => {
    writeFileSync(file, log.text);
    const pages: IngestedPage[] = [];
    const s = await ingest(
      (async function* () {
        yield new TextEncoder().encode(log.text);
      })(),
      { fileName: 'ports.log', totalBytes: log.text.length },
      async (batch) => {
        pages.push(...batch);
      },
    );
    core = { pages, said: s.warnings.find((w) => w.kind === HOST_GUESSED)?.reason ?? '' };
    app = await openApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives three sites, each origin said in the dataset header with its URLs', async () => {
    await dropFile(page, file);
    await page
      .locator('.dataset-list li', { hasText: 'ports.log' })
      .locator('.badge.status-ready')
      .waitFor({ timeout: 60_000 });
    const note = page.getByTestId('log-host');
    await note.getByText(/Host guessed — .*host guessed from the referers/).waitFor();
    const said = (await note.getByRole('status').textContent()) ?? '';
    // The core's count per origin, as the page shows it.
    const perOrigin = new Map<string, number>();
    for (const p of core.pages) {
      const o = new URL(p.page.url).origin;
      perOrigin.set(o, (perOrigin.get(o) ?? 0) + 1);
    }
    assert.deepEqual([...perOrigin.keys()].sort(), log.origins);
    for (const [o, n] of perOrigin) assert.ok(said.includes(`${o} (${n} URLs)`), `${o} ${n}: ${said}`);
    assert.ok(said.includes('3 sites, one per origin'), said);
    assert.ok(core.said.length > 0 && said.endsWith(core.said), `${said}\n${core.said}`);
    // Three hosts in the header's figures; pages as the core reads them.
    const meta = (await page.locator('.dataset-header .meta').first().textContent()) ?? '';
    assert.match(meta, new RegExp(`${core.pages.length.toLocaleString('en-US')} pages · 3 hosts`));
    // The pages table's host filter offers the three.
    const hosts = page.getByRole('combobox', { name: 'Host' });
    await hosts.locator('option', { hasText: 'All hosts (3)' }).waitFor({ state: 'attached' });
    const options = (await hosts.locator('option').allTextContents()).slice(1).sort();
    assert.deepEqual(options, ['127.0.0.1:28431', '127.0.0.1:28432', '127.0.0.1:28433']);
    await page.screenshot({ path: join(SHOTS, 'access-log-three-origins.png') });
  });
});
