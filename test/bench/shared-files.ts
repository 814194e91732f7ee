/**
 * `npm run check:shared`: drops every file of ../shared/datasets/real, docsite and peers into the
 * workbench in headless Chromium, one by one, and prints what the app shows for each: the dataset's
 * records by type, pages and statuses, or the error. For peers/ (files from other readers' test suites)
 * it prints beside it what those readers' own tests expect (MANIFEST.tsv, `expected_per_source_tests`).
 * (Not a test: the project's tests do not depend on ../shared.)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dropFile, launch, serve } from '../e2e/harness';

const ROOT = resolve(import.meta.dirname, '../../../shared/datasets');
const only = process.argv.slice(2);
const dirs = ['real', 'docsite', 'peers'].map((d) => join(ROOT, d)).filter(existsSync);
const files = dirs.flatMap((d) =>
  readdirSync(d)
    .filter(
      (f) =>
        !f.startsWith('.') &&
        !f.endsWith('.md') &&
        !f.endsWith('.json') &&
        f !== 'MANIFEST.tsv' &&
        statSync(join(d, f)).isFile(),
    )
    .sort()
    .map((f) => join(d, f))
    // `npm run check:shared -- NAME…` checks only the files whose name contains one of NAME.
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o))),
);

/** peers/MANIFEST.tsv: file name → what the source project's own tests expect of it. */
function expectations(): Map<string, string> {
  const path = join(ROOT, 'peers', 'MANIFEST.tsv');
  const out = new Map<string, string>();
  if (!existsSync(path)) return out;
  const [head, ...rows] = readFileSync(path, 'utf8').trim().split('\n');
  const cols = head.split('\t');
  const name = cols.indexOf('filename');
  const expected = cols.indexOf('expected_per_source_tests');
  for (const r of rows) {
    const f = r.split('\t');
    out.set(f[name], f[expected] ?? '');
  }
  return out;
}
const expected = expectations();
const app = await serve();
const b = await launch();
try {
  await b.page.goto(app.url);
  for (const f of files) {
    const name = f.split('/').pop()!;
    const before = await b.page.locator('.dataset-list li').count();
    // Dropped as a person drops it (the page's CSP forbids fetching it from another origin).
    await dropFile(b.page, f);
    await b.page.waitForFunction(
      (n) =>
        !document.querySelector('.ingest') &&
        (document.querySelectorAll('.dataset-list li').length > n || document.querySelector('.notice-error')),
      before,
      { timeout: 120_000, polling: 100 },
    );
    // Read at once: textContent() on a locator that matches nothing would wait 30 s for it.
    const error = await b.page
      .locator('.notice-error .notice-text')
      .evaluateAll((els) => els.at(-1)?.textContent ?? null);
    const where = f.split('/').at(-2);
    if ((await b.page.locator('.dataset-list li').count()) > before) {
      await b.page.locator('.dataset-list li').first().locator('.dataset').click();
      // Line by line as the header shows it (its paragraphs), problems included.
      const lines = await b.page
        .locator('.dataset-header > p, .dataset-header li')
        .evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()));
      console.log(`${where}/${name}\n  app:      ${lines.join('\n            ')}`);
    } else console.log(`${where}/${name}\n  app:      REJECTED ${error}`);
    if (expected.has(name)) console.log(`  expected: ${expected.get(name)}`);
    await b.page.evaluate(() =>
      document
        .querySelectorAll<HTMLButtonElement>('.notice button[aria-label="Dismiss"]')
        .forEach((x) => x.click()),
    );
  }
} finally {
  await b.close();
  await app.close();
}
