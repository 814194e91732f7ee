/**
 * A generated crawl of long, real-shaped pages for `npm run bench:signatures`: the lines of text of
 * the sample crawl (sample/sample.warc.gz, real sections of Debian documentation in English and
 * Chinese, made by scripts/make-sample.ts) drawn into pages of documentation length. The short pages
 * of corpus.ts (250 pseudo-words) measure the engine's per-page overhead; the cost on real crawls is
 * per character (tokens, shingles and measures on long texts), which these pages have.
 *
 * Page lengths follow a log-normal law with a median of 7,000 characters (mean ≈ 9,600, docsite's
 * 9,658); 5% of pages are exact copies and 10% near copies (4 words changed) of a random earlier page;
 * 50 hosts, 8 outlinks a page. Deterministic for a seed. The lines are drawn independently, so two
 * pages that are not copies share few of them (as two sections of a manual do).
 */
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { comparable } from '../../src/core/candidates/comparable';
import { ingest } from '../../src/core/ingest/pipeline';
import { seededRandom } from '../../src/core/random';
import type { CorpusPage } from './corpus';

export const SAMPLE = join(import.meta.dirname, '../../sample/sample.warc.gz');

/** The distinct lines of text (≥ 20 characters) of the sample's comparable pages, in crawl order. */
export async function sampleLines(file = SAMPLE): Promise<string[]> {
  const seen = new Set<string>();
  await ingest(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    { fileName: 'sample.warc.gz', totalBytes: statSync(file).size },
    async (batch) => {
      for (const { page, content } of batch)
        if (comparable(page) && content.text)
          for (const line of content.text.split('\n')) if (line.length >= 20) seen.add(line);
    },
  );
  return [...seen];
}

/** A standard normal draw (Box–Muller) from rnd. */
function gauss(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
}

export function docsCorpus(lines: readonly string[], n: number, seed = 42): CorpusPage[] {
  if (lines.length === 0) throw new Error('docsCorpus: no lines to draw pages from');
  const rnd = seededRandom(seed);
  const texts: string[] = [];
  const pages: CorpusPage[] = [];
  for (let i = 0; i < n; i++) {
    const kind = rnd();
    let text: string;
    if (i > 0 && kind < 0.05) text = texts[Math.floor(rnd() * i)];
    else if (i > 0 && kind < 0.15) {
      const words = texts[Math.floor(rnd() * i)].split(' ');
      for (let c = 0; c < 4; c++) words[Math.floor(rnd() * words.length)] = 'changed';
      text = words.join(' ');
    } else {
      const target = Math.min(60_000, Math.max(500, Math.round(7000 * Math.exp(0.8 * gauss(rnd)))));
      const out: string[] = [];
      let len = 0;
      while (len < target) {
        const line = lines[Math.floor(rnd() * lines.length)];
        out.push(line);
        len += line.length + 1;
      }
      text = out.join('\n');
    }
    texts.push(text);
    pages.push({
      text,
      normUrl: `http://docs${i % 50}.test/p${i}`,
      outlinks: Array.from({ length: 8 }, () => `http://docs${Math.floor(rnd() * 50)}.test/p${Math.floor(rnd() * n)}`),
      fingerprint: '',
    });
  }
  return pages;
}
