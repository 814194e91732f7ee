/**
 * `npm run check:shared`: drops every file of ../shared/datasets/real and ../shared/datasets/docsite
 * into the workbench in headless Chromium, one by one, and prints what the app shows for each: the
 * dataset's records by type and pages, or the error. (Not a test: the project's tests do not depend
 * on ../shared.)
 */
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { launch, serve } from '../e2e/harness';

const ROOT = resolve(import.meta.dirname, '../../../shared/datasets');
const dirs = ['real', 'docsite'].map((d) => join(ROOT, d)).filter(existsSync);
const files = dirs.flatMap((d) =>
  readdirSync(d)
    .filter(
      (f) =>
        !f.startsWith('.') && !f.endsWith('.md') && !f.endsWith('.json') && statSync(join(d, f)).isFile(),
    )
    .map((f) => join(d, f)),
);
const fileServer = createServer((req, res) => {
  const f = decodeURIComponent((req.url ?? '/').slice(1));
  res.writeHead(200, { 'access-control-allow-origin': '*' });
  createReadStream(f).pipe(res);
});
await new Promise<void>((ok) => fileServer.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${(fileServer.address() as { port: number }).port}/`;
const app = await serve();
const b = await launch();
try {
  await b.page.goto(app.url);
  for (const f of files) {
    const name = f.split('/').pop()!;
    const before = await b.page.locator('.dataset-list li').count();
    await b.page.evaluate(
      async ({ url, name }) => {
        const blob = await (await fetch(url)).blob();
        const dt = new DataTransfer();
        dt.items.add(new File([blob], name));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      { url: base + encodeURIComponent(f), name },
    );
    await b.page.waitForFunction(
      (n) =>
        !document.querySelector('.ingest') &&
        (document.querySelectorAll('.dataset-list li').length > n || document.querySelector('.notice-error')),
      before,
      { timeout: 120_000, polling: 100 },
    );
    const error = await b.page
      .locator('.notice-error .notice-text')
      .last()
      .textContent()
      .catch(() => null);
    if ((await b.page.locator('.dataset-list li').count()) > before) {
      await b.page.locator('.dataset-list li').first().locator('.dataset').click();
      const header = (await b.page.locator('.dataset-header').textContent()) ?? '';
      console.log(`${name}\n  ${header.replace(/\s+/g, ' ').replace('Records:', '\n  records:')}`);
    } else console.log(`${name}\n  ${error}`);
    await b.page.evaluate(() =>
      document
        .querySelectorAll<HTMLButtonElement>('.notice button[aria-label="Dismiss"]')
        .forEach((x) => x.click()),
    );
  }
} finally {
  await b.close();
  await app.close();
  fileServer.close();
}
