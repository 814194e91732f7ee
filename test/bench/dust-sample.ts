/**
 * `npm run bench:dust-sample [-- --crawl e2e|docsite|DIR] [--budget N] [--seed N] [--shot NAME]`
 *
 * DUST on a designed sample (issue 45 item 5), in the workbench in headless Chromium (the app of
 * `npm start`, dist/): a crawl opened through "Open a large crawl…" (its WARCs and its index), DUST
 * mined, then the stored run read back: rules by status, the likely ones by why, the rows the table
 * shows by default, and the DUST pane's headline. Crawls: `e2e` the embedded sample cut in two WARCs
 * with a CDXJ (test/e2e/large-crawl-files.ts), `docsite` the shared real crawl with wget's CDX
 * (../shared/datasets/docsite: a benchmark may read it, a test may not), or DIR a crawl bench:large-crawl
 * generated (.bench/large-crawl-1gb with `-- --gb 1`).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launch, serve, SHOTS } from '../e2e/harness';
import { largeCrawlFiles } from '../e2e/large-crawl-files';

const { values } = parseArgs({
  options: {
    crawl: { type: 'string', default: 'e2e' },
    budget: { type: 'string', default: '100' },
    seed: { type: 'string', default: '3' },
    shot: { type: 'string' },
  },
});
const budget = Number(values.budget);
const seed = Number(values.seed);
const DOCSITE = join(import.meta.dirname, '../../../shared/datasets/docsite');
const files =
  values.crawl === 'docsite'
    ? [join(DOCSITE, 'crawl.warc.gz'), join(DOCSITE, 'crawl.cdx')]
    : values.crawl === 'e2e'
      ? await largeCrawlFiles().then((f) => [...f.warcs, f.index])
      : largeCrawl(values.crawl!);

/** A crawl bench:large-crawl generated (its folder: WARCs, CDXJ and manifest.json). */
function largeCrawl(dir: string): string[] {
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
    crawl: { files: string[]; index: string };
  };
  return [...m.crawl.files, m.crawl.index];
}

const app = await serve();
const b = await launch();
try {
  const page = b.page;
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Open a large crawl…' }).click();
  await page.getByTestId('sample-budget').fill(String(budget));
  await page.getByTestId('sample-seed').fill(String(seed));
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose WARC files and index…' }).click();
  await (await chooser).setFiles(files);
  await page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 600_000 });
  console.log(
    `${values.crawl}, budget ${budget}, seed ${seed}: ${await page.getByTestId('sample-of').textContent()}`,
  );
  await page.getByRole('button', { name: 'Compute signatures' }).click();
  await page.getByTestId('sample-estimates').waitFor({ timeout: 600_000 });
  console.log(`  whole-crawl duplicate rate ${await page.getByTestId('whole-rate').textContent()}`);
  const t = performance.now();
  await page.getByRole('button', { name: 'Mine DUST rules' }).click();
  await page.getByTestId('dust-headline').waitFor({ timeout: 600_000 });
  console.log(`  DUST mined in ${((performance.now() - t) / 1000).toFixed(1)} s (from the click)`);
  const run = await page.evaluate(
    () =>
      new Promise<{
        rules: {
          status: string;
          pending?: string;
          kind: string;
          positives: number;
          negatives: number;
          sample?: { instances: number; inSample: number; inHand: number };
        }[];
        elapsedMs: number;
        partners?: unknown;
      }>((resolve, reject) => {
        const r = indexedDB.open('dedup-workbench');
        r.onerror = () => reject(r.error);
        r.onsuccess = () => {
          const all = r.result.transaction('dustRuns').objectStore('dustRuns').getAll();
          all.onsuccess = () => {
            r.result.close();
            resolve(all.result.at(-1));
          };
        };
      }),
  );
  const by = (f: (x: (typeof run.rules)[number]) => string) => {
    const m = new Map<string, number>();
    for (const x of run.rules) m.set(f(x), (m.get(f(x)) ?? 0) + 1);
    return [...m]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  };
  console.log(`  rules listed ${run.rules.length}: ${by((x) => (x.sample ? 'not validated' : x.status))}`);
  const judged = run.rules.reduce((a, x) => a + x.positives + x.negatives, 0);
  console.log(`  validation samples judged (rules listed) ${judged}`);
  console.log(
    `  likely, by why: ${by((x) => (x.status === 'likely' ? (x.pending ?? '(none)') : 'not likely'))}`,
  );
  const rows = await page.locator('table.rules tbody tr').count();
  const likelyRows = await page.locator('table.rules tbody tr .badge.rule-likely').count();
  const validRows = await page.locator('table.rules tbody tr .badge.rule-valid').count();
  const hiddenRows = await page.locator('table.rules tbody tr .badge.rule-unvalidated').count();
  console.log(
    `  table rows shown ${rows}: likely ${likelyRows}, valid ${validRows}, not validated ${hiddenRows}; job ${(run.elapsedMs / 1000).toFixed(1)} s`,
  );
  if (run.partners) console.log(`  partners ${JSON.stringify(run.partners)}`);
  console.log(`  headline: ${await page.getByTestId('dust-headline').textContent()}`);
  if (values.shot) {
    mkdirSync(SHOTS, { recursive: true });
    await page
      .getByRole('region', { name: 'DUST rules' })
      .screenshot({ path: join(SHOTS, `${values.shot}.png`) });
  }
} finally {
  await b.close();
  await app.close();
}
