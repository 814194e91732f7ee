import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DUST_DEFAULTS, runDustBuster, type DustRecord } from '../../src/core/dust';
import { dustRecordOf } from '../../src/core/dust/from-page';
import { InlinkCounter } from '../../src/core/dust/inlinks';
import { canonicalTable, crawlerRegexFile } from '../../src/core/dust/outputs';
import { formatDelimited } from '../../src/core/csv';
import { ingest } from '../../src/core/ingest/pipeline';

const SAMPLE = fileURLToPath(new URL('../../sample/sample.warc.gz', import.meta.url));
const run = (...argv: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/analyze.ts', ...argv], { encoding: 'utf8' });

/** `analyze --dust-rules OUT.json|OUT.xml --canonical OUT.csv` writes what the workbench exports, from the same core. */
describe('npm run analyze -- --dust-rules / --canonical', () => {
  it('writes the crawler regex file, the rules JSON and the canonical table as the workbench does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-dust-out-'));
    const xml = join(dir, 'regex-normalize.xml');
    const json = join(dir, 'rules.json');
    const csv = join(dir, 'canonical.csv');
    const out = run(SAMPLE, '--no-signatures', '--dust-rules', xml, '--canonical', csv);
    expect(out.status, out.stderr).toBe(0);
    expect(run(SAMPLE, '--no-signatures', '--dust-rules', json).status).toBe(0);

    // The workbench's job: the same records, inlinks from the pages' outlinks, the same core outputs.
    const records: DustRecord[] = [];
    const links = new InlinkCounter();
    await ingest(
      createReadStream(SAMPLE) as AsyncIterable<Uint8Array>,
      { fileName: 'sample.warc.gz', totalBytes: 0 },
      async (b) => {
        for (const { page, content } of b) {
          records.push(dustRecordOf(page, content.text, content.headers));
          links.add(page.normUrl, content.outlinks);
        }
      },
    );
    for (const r of records) r.inlinks = links.of(r.url);
    const dust = runDustBuster(records);
    const stored = {
      ...dust,
      params: DUST_DEFAULTS,
      canonical: [...dust.canonical].filter(([u, c]) => u !== c),
    };
    expect(readFileSync(xml, 'utf8')).toBe(crawlerRegexFile(stored));
    expect(readFileSync(csv, 'utf8')).toBe(formatDelimited(canonicalTable(stored)));
    const rules = JSON.parse(readFileSync(json, 'utf8')) as { rules: { rule: string; adds: number }[] };
    expect(rules.rules.length).toBe(dust.rules.length);
    expect(rules.rules.some((r) => r.adds > 0)).toBe(true);
  });

  it('refuses them without DUST', () => {
    const out = run(SAMPLE, '--no-dust', '--no-signatures', '--canonical', '/tmp/x.csv');
    expect(out.status).not.toBe(0);
    expect(out.stderr + out.stdout).toMatch(/--canonical need the DUST rules/);
  });
});
