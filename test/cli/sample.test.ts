import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CrawlIndexReader } from '../../src/core/sample/crawl-index';
import { planSample } from '../../src/core/sample/sample-plan';
import { largeCrawlFiles } from '../e2e/large-crawl-files';

const run = (...argv: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/analyze.ts', ...argv], { encoding: 'utf8' });

/**
 * `analyze --sample`: the CLI reads a designed sample by ranged reads of the files (the workbench's
 * design, same seed, same pages), estimates the whole crawl, and mines DUST on the index's URLs.
 */
describe('npm run analyze -- --sample', () => {
  it('reads the design’s pages by ranges from the index, estimates the whole crawl, mines DUST on every URL', async () => {
    const files = await largeCrawlFiles();
    const r = new CrawlIndexReader();
    r.push(readFileSync(files.index, 'utf8'));
    r.finish();
    const plan = planSample(r.entries, 100, 3, ['crawl-part-1.warc.gz', 'crawl-part-2.warc.gz'], {
      index: 'crawl.cdxj',
      lines: r.lines,
      badLines: r.bad,
    });
    const pages = plan.info.chosen.reduce((a, u) => a + plan.info.unitPages[u], 0);
    for (const argv of [[...files.warcs, files.index], [files.wacz], [...files.warcs]]) {
      const out = run('--sample', '100', '--seed', '3', ...argv);
      expect(out.status, out.stderr).toBe(0);
      expect(out.stdout).toMatch(
        new RegExp(`sample +${pages} of the index's ${files.indexedPages} HTML pages`),
      );
      expect(out.stdout).toMatch(new RegExp(`^pages +${pages}$`, 'm'));
      expect(out.stdout).toMatch(/whole crawl duplicate rate [\d.]+% \(95% interval/);
      expect(out.stdout).toMatch(/^dust +469 URLs/m);
    }
    expect(run('--sample', '100', ...files.warcs).stdout).toMatch(/index: an index built by an inflate pass/);
  });

  it('says why when nothing can be sampled', () => {
    const out = run('--sample', '10', 'package.json');
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/none can be built/);
  });
});
