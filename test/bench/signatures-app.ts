/**
 * Signatures as the analyst gets them: the production build in Chromium, a crawl dropped on it, then
 * *Compute signatures*; the time is the signatures job's own (StoredAnalysis.elapsedMs: reading the
 * pages from IndexedDB, the template model's two passes, signing on every core with the signer workers,
 * candidates, measures, saving), read back from IndexedDB. Part of `npm run bench:signatures`; also
 * runnable alone: `npx tsx test/bench/signatures-app.ts [crawl.warc.gz …]`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropFile, newestAnalysis, openApp } from '../e2e/harness';
import { htmlPagesWarc } from '../../scripts/lib/warc-writer';
import type { CorpusPage } from './corpus';

export interface AppRun {
  pages: number;
  elapsedMs: number;
  pairs: number;
  signers: number;
  timings: Record<string, number>;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Generated pages as a WARC of HTML responses (a paragraph per line of text); returns its path. */
export function corpusWarc(name: string, pages: readonly CorpusPage[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'dw-sig-app-')), name);
  writeFileSync(
    file,
    htmlPagesWarc(
      name,
      pages.map((p, i) => ({
        url: p.normUrl,
        title: `Page ${i}`,
        text: p.text.split('\n').map(escapeHtml).join('</p><p>'),
      })),
    ),
  );
  return file;
}

/** Drops `file` on a fresh app, computes its signatures, and reads the job's figures back. */
export async function signaturesInApp(file: string): Promise<AppRun> {
  const app = await openApp();
  try {
    const { page } = app;
    await dropFile(page, file);
    await page.locator('.dataset-list .badge.status-ready').first().waitFor({ timeout: 600_000 });
    await page.getByRole('button', { name: 'Compute signatures' }).click();
    await page.getByTestId('cluster-summary').waitFor({ timeout: 600_000 });
    const a = await newestAnalysis(page);
    // The job's own count of signer workers (absent in builds before them: none).
    const signers = a.timings['job.signers'] ?? 0;
    return { pages: a.n, elapsedMs: a.elapsedMs, pairs: a.count, signers, timings: a.timings };
  } finally {
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const file of process.argv.slice(2)) {
    const r = await signaturesInApp(file);
    console.log(
      `${file}: ${r.pages} pages, ${(r.elapsedMs / 1000).toFixed(2)} s, ${r.pairs} pairs, ${r.signers} signer workers`,
    );
    console.log(
      Object.entries(r.timings)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(' · '),
    );
  }
}
