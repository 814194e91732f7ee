/**
 * The benches' one way to read a crawl: ingest the file with the same core as the app and the CLI,
 * keep the pages the signatures read (every comparable page with text, unless told otherwise), and
 * hand them to `analysePages` (src/core/candidates/analyse-pages.ts), which takes the template text out first.
 */
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { EnginePage } from '../../src/core/candidates/analyse-pages';
import { enginePage } from '../../src/core/candidates/comparable';
import { type DustRecord } from '../../src/core/dust';
import { dustRecordOf } from '../../src/core/dust/from-page';
import { ingest } from '../../src/core/ingest/pipeline';
import type { PageContent, PageRecord } from '../../src/core/types';

export interface Crawl {
  /** The pages kept, in file order (normUrl is the key the truths use). */
  pages: (EnginePage & { url: string })[];
  /** Every page of the file as DustBuster reads it. */
  dustRecords: DustRecord[];
  seconds: number;
}

export async function readCrawl(
  file: string,
  /** Which of the engine's pages (comparable, with text: `enginePage`) to keep; all by default. */
  keep: (page: PageRecord, content: PageContent) => boolean = () => true,
): Promise<Crawl> {
  const t0 = performance.now();
  const pages: Crawl['pages'] = [];
  const dustRecords: DustRecord[] = [];
  await ingest(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    { fileName: basename(file), totalBytes: statSync(file).size },
    async (batch) => {
      for (const { page, content } of batch) {
        dustRecords.push(dustRecordOf(page, content.text, content.headers));
        const p = keep(page, content) ? enginePage(page, content) : null;
        if (p) pages.push({ ...p, url: page.url });
      }
    },
  );
  return { pages, dustRecords, seconds: (performance.now() - t0) / 1000 };
}
