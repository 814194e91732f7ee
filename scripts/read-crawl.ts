/**
 * `tsx scripts/read-crawl.ts FILE…`: reads a crawl exactly as the CLI does (the same input checks,
 * parts, natives and core) and prints one JSON line: the URLs read, the summary's error, warnings and
 * skips, the time and the peak RSS. For tests and benches that run a read in a child process
 * (test/cli/hostile.test.ts, `npm run bench:hostile`).
 */
import { crawlFiles } from '../src/cli/input-paths';
import { fileSource, type FileSource } from '../src/cli/file-source';
import { nodeNatives } from '../src/cli/natives';
import { partsReader } from '../src/cli/parts';
import { ingestCrawl } from '../src/core/ingest/many-files';

const t0 = performance.now();
const walk = crawlFiles(process.argv.slice(2));
const sources: FileSource[] = [];
for (const p of walk.files) sources.push(await fileSource(p));
const urls: string[] = [];
const notes: [string, string][] = [];
const readUnit = partsReader((unit) => sources.find((x) => x === unit.file)?.path ?? null);
const summary = await ingestCrawl(sources, { natives: nodeNatives, readUnit }, async (batch) => {
  for (const { page } of batch) {
    urls.push(page.url);
    if (page.note) notes.push([page.url, page.note]);
  }
});
await Promise.all(sources.map((s) => s.close()));
console.log(
  JSON.stringify({
    urls,
    pages: summary.pages,
    notes,
    error: summary.error,
    warnings: summary.warnings,
    skipped: summary.skipped,
    ms: Math.round(performance.now() - t0),
    // ru_maxrss is in kilobytes on Linux.
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
