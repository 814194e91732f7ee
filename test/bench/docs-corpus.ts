/**
 * A generated crawl of long, real-shaped pages for `npm run bench:signatures`: the lines of text of
 * the sample crawl (sample/sample.warc.gz, real sections of Debian documentation in English and
 * Chinese, made by scripts/make-sample.ts) drawn into pages of documentation length. The short pages
 * of corpus.ts (250 pseudo-words) measure the engine's per-page overhead; the cost on real crawls is
 * per character (tokens, shingles and measures on long texts), which these pages have.
 *
 * A page is about one topic: a window of 120 consecutive lines of the sample (its pages' text in crawl
 * order, so a window is a few neighbouring sections), and its text is drawn from that window's words
 * by a first-order Markov chain (each word followed by a word that follows it somewhere in the window),
 * restarted at a line's first word when it ends. So pages of a topic share its vocabulary, as sections
 * of a manual do, while two pages that are not copies share few 5-word shingles: drawing whole lines
 * instead repeated each of the sample's 2,108 distinct lines in ~140 pages, and the RP grid then
 * proposed 254 pairs a page (docsite: 36).
 *
 * Page lengths follow a log-normal law with a median of 7,000 characters (mean ≈ 9,600, docsite's
 * 9,658); 5% of pages are exact copies and 10% near copies (4 words changed) of a random earlier page;
 * 50 hosts, 8 outlinks a page. Deterministic for a seed.
 */
import { join } from 'node:path';
import { seededRandom } from '../../src/core/random';
import type { CorpusPage } from './corpus';
import { readCrawl } from './read-crawl';

export const SAMPLE = join(import.meta.dirname, '../../sample/sample.warc.gz');

/** The distinct lines of text (≥ 20 characters) of the sample's comparable pages, in crawl order. */
export async function sampleLines(file = SAMPLE): Promise<string[]> {
  const seen = new Set<string>();
  for (const p of (await readCrawl(file)).pages)
    for (const line of p.text.split('\n')) if (line.length >= 20) seen.add(line);
  return [...seen];
}

/** A standard normal draw (Box–Muller) from rnd. */
function gauss(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
}

/** Lines a topic's words are drawn from. */
const TOPIC = 120;

/** About `target` characters from the words of lines[from, from + TOPIC), by a first-order chain. */
function topicText(lines: readonly string[], from: number, target: number, rnd: () => number): string {
  const window = lines.slice(from, from + TOPIC).map((l) => l.split(' ').filter((w) => w !== ''));
  const next = new Map<string, string[]>();
  for (const ws of window)
    for (let k = 0; k + 1 < ws.length; k++) {
      const list = next.get(ws[k]);
      if (list) list.push(ws[k + 1]);
      else next.set(ws[k], [ws[k + 1]]);
    }
  const starts = window.filter((ws) => ws.length > 0);
  const out: string[] = [];
  let len = 0;
  let line = 0;
  let word = '';
  while (len < target) {
    const followers = word ? next.get(word) : undefined;
    // A sentence ends where the chain does, or after 30 words: a new line starts.
    if (!followers || line >= 30) {
      if (line > 0) out.push('\n');
      const ws = starts[Math.floor(rnd() * starts.length)];
      word = ws[0];
      line = 0;
    } else word = followers[Math.floor(rnd() * followers.length)];
    out.push(line === 0 ? word : ' ' + word);
    len += word.length + 1;
    line++;
  }
  return out.join('');
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
      text = topicText(lines, Math.floor(rnd() * Math.max(1, lines.length - TOPIC)), target, rnd);
    }
    texts.push(text);
    pages.push({
      text,
      normUrl: `http://docs${i % 50}.test/p${i}`,
      outlinks: Array.from(
        { length: 8 },
        () => `http://docs${Math.floor(rnd() * 50)}.test/p${Math.floor(rnd() * n)}`,
      ),
      fingerprint: '',
    });
  }
  return pages;
}
