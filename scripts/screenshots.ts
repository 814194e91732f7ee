// The README's tour, shot from the running app: `npm run screenshots` starts the workbench with the
// README's own `npm start` (as the e2e suite does), drives Debian's Chromium (headless, a fresh profile)
// through the embedded sample — open it, compute signatures, mine DUST rules, label three pairs — and saves
// four PNGs of a 1280 × 800 window into docs/img/ (the README's tour). Run it after a change to the UI; commit the PNGs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { AT_1280_800, openApp, openSample } from '../test/e2e/harness';
import { npmStart } from '../test/e2e/npm-start';
import { computeSignatures, mineDust } from '../test/e2e/small-crawl';
import { palettePng } from './lib/png';

const OUT = resolve(import.meta.dirname, '../docs/img');
/** A port of its own, so that a running `npm start` (4173) or e2e run (4174) is left alone. */
const PORT = process.env.PORT ?? '4179';

/** Saves the window as docs/img/NAME.png, in 256 colours (a third of the bytes), and says how large. */
async function shot(page: Page, name: string): Promise<void> {
  const path = join(OUT, `${name}.png`);
  // Let charts and lists settle (transitions, a last layout) before the picture.
  await page.waitForTimeout(400);
  const png = palettePng(await page.screenshot({ animations: 'disabled', caret: 'hide' }));
  writeFileSync(path, png);
  console.log(`${path}: ${Math.round(png.length / 1024)} KB`);
}

mkdirSync(OUT, { recursive: true });
const server = await npmStart(PORT);
const app = await openApp({ server: { url: server.url, close: async () => server.stop() }, ...AT_1280_800 });
const { page } = app;
try {
  // 1. A crawl read: the sample, as a dropped file is, with what was read and its pages.
  await openSample(page);
  await shot(page, 'ingest');

  // 2. Clusters beside the precision–recall curves, a cluster open.
  await computeSignatures(page);
  await page.getByRole('listbox', { name: 'Clusters' }).getByRole('option').first().click();
  await page.getByRole('region', { name: 'Cluster detail' }).waitFor();
  await page.getByRole('region', { name: 'Precision and recall' }).getByRole('img').first().waitFor();
  await page.getByRole('region', { name: 'Duplicate clusters' }).scrollIntoViewIfNeeded();
  await shot(page, 'clusters');

  // 3. The DUST rules table, enlarged to the main area.
  await mineDust(page);
  await page.getByRole('button', { name: 'Enlarge DUST rules' }).click();
  await page.getByRole('table', { name: 'Rules' }).waitFor();
  await shot(page, 'dust');
  await page.getByRole('button', { name: 'Restore' }).click();

  // 4. Labelling pairs: a new queue, three pairs labelled with the keyboard, the fourth side by side.
  const labels = page.getByRole('region', { name: 'Label pairs' });
  await labels.getByRole('button', { name: 'New queue' }).click();
  await labels.locator('.page-text').first().waitFor();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (const key of ['d', 'd', 'n']) await page.keyboard.press(key);
  await page.getByTestId('label-progress').filter({ hasText: '3 labels' }).waitFor();
  await labels.scrollIntoViewIfNeeded();
  await shot(page, 'labels');
} finally {
  await app.close();
}
