/**
 * extractHtml's two tokenizer paths on real crawls: the scanner (src/core/html/scan.ts) must give
 * exactly what htmlparser2's Tokenizer gives on every HTML page, and be faster.
 *
 *   npx tsx test/bench/extract.ts [file.warc(.gz) ...]
 *
 * Default: ../shared/datasets/docsite/crawl.warc.gz (when present) and sample/sample.warc.gz. Pages are
 * read and decoded as ingest does (WARC response/resource records, page-builder.ts's HTML test,
 * decodeText). Prints each mismatch (URL, field, first differing position) and exits 1 on any; then
 * the pages that fell back to the Tokenizer, and the time of each path over all pages (median of 3
 * alternating passes after a warm-up, same process) with the ratio, and tidyText's time on the text
 * (ingest tidies every page's text; the same for both paths, as the texts are).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { extractHtmlFast, extractHtmlTokenizer } from '../../src/core/html/extract';
import type { Extracted } from '../../src/core/html/extracted';
import { headerValue } from '../../src/core/ingest/bytes';
import { isGzip, MultiGunzip } from '../../src/core/codecs/gzip';
import { parseHttpBlock } from '../../src/core/ingest/http';
import { isHtmlMime, mimeOf } from '../../src/core/ingest/page-builder';
import { WarcParser } from '../../src/core/ingest/warc';
import { targetUri } from '../../src/core/ingest/warc-record';
import { decodeText } from '../../src/core/text/charset';
import { tidyText } from '../../src/core/text/tidy';
import { normaliseUrl } from '../../src/core/url/normalize';

const ROOT = join(import.meta.dirname, '../..');

interface Page {
  url: string;
  html: string;
  /** The page URL as buildPage hands it to extractHtml. */
  pageUrl: string;
  parsed: boolean;
}

/** page-builder.ts's test for pages without a Content-Type (not exported there). */
function looksLikeHtml(b: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(b.subarray(0, 512)).toLowerCase();
  return head.includes('<html') || head.includes('<!doctype html') || head.includes('<body');
}

async function readPages(file: string): Promise<Page[]> {
  const bytes = readFileSync(file);
  const pages: Page[] = [];
  const compressed = isGzip(bytes);
  const parser = new WarcParser((r) => {
    if ((r.type !== 'response' && r.type !== 'resource') || !r.block) return;
    const url = targetUri(r.headers);
    if (!url || url.startsWith('dns:')) return;
    const http = r.type === 'response' ? parseHttpBlock(r.block) : null;
    if (http?.undecoded) return;
    const contentType = http
      ? (headerValue(http.headers, 'Content-Type') ?? '')
      : (headerValue(r.headers, 'Content-Type') ?? '');
    const body = http ? http.body : r.block;
    const mime = mimeOf(contentType);
    if (body.length === 0 || !(isHtmlMime(mime) || (mime === '' && looksLikeHtml(body)))) return;
    const n = normaliseUrl(url);
    pages.push({
      url,
      html: decodeText(body, contentType, true).text,
      pageUrl: n.ok ? n.href : url,
      parsed: n.ok,
    });
  }, compressed);
  if (compressed) await new MultiGunzip((d, o) => parser.push(d, o)).push(bytes, true);
  else parser.push(bytes, 0);
  parser.end();
  return pages;
}

/** The first position where two strings differ. */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function compare(fast: Extracted, ref: Extracted): string[] {
  const out: string[] = [];
  for (const key of ['title', 'text'] as const) {
    if (fast[key] !== ref[key]) {
      const at = firstDifference(fast[key], ref[key]);
      out.push(
        `${key} differs at ${at}: fast ${JSON.stringify(fast[key].slice(at, at + 40))} ` +
          `vs Tokenizer ${JSON.stringify(ref[key].slice(at, at + 40))}`,
      );
    }
  }
  for (const key of ['outlinks', 'rawOutlinks', 'templateHints'] as const) {
    const a = fast[key].join('\n');
    const b = ref[key].join('\n');
    if (a !== b) {
      const at = firstDifference(a, b);
      out.push(
        `${key} differ at ${at}: fast ${JSON.stringify(a.slice(at, at + 60))} vs ${JSON.stringify(b.slice(at, at + 60))}`,
      );
    }
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Milliseconds for one path over all pages. */
function time(pages: Page[], run: (p: Page) => Extracted): number {
  const t0 = performance.now();
  let sink = 0;
  for (const p of pages) sink += run(p).text.length;
  const ms = performance.now() - t0;
  if (sink < 0) console.log(sink); // keep the work observable
  return ms;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const docsite = join(ROOT, '../shared/datasets/docsite/crawl.warc.gz');
  const files = args.length
    ? args
    : [...(existsSync(docsite) ? [docsite] : []), join(ROOT, 'sample/sample.warc.gz')];
  let failed = false;
  for (const file of files) {
    const pages = await readPages(file);
    const mb = pages.reduce((s, p) => s + p.html.length, 0) / 1e6;
    let mismatches = 0;
    const fellBack: string[] = [];
    for (const p of pages) {
      const ref = extractHtmlTokenizer(p.html, p.pageUrl, p.parsed);
      const fast = extractHtmlFast(p.html, p.pageUrl, p.parsed);
      if (fast === null) {
        fellBack.push(p.url);
        continue;
      }
      const diffs = compare(fast, ref);
      if (diffs.length) {
        mismatches++;
        for (const d of diffs) console.log(`MISMATCH ${p.url}: ${d}`);
      }
    }
    if (mismatches) failed = true;
    const fastAll = (p: Page) =>
      extractHtmlFast(p.html, p.pageUrl, p.parsed) ?? extractHtmlTokenizer(p.html, p.pageUrl, p.parsed);
    const tok = (p: Page) => extractHtmlTokenizer(p.html, p.pageUrl, p.parsed);
    // One pass each to warm up, then three alternating passes (fair to both under a changing load).
    time(pages, tok);
    time(pages, fastAll);
    const tTok: number[] = [];
    const tFast: number[] = [];
    const tTidy: number[] = [];
    const texts = pages.map((p) => fastAll(p).text);
    for (let pass = 0; pass < 3; pass++) {
      tTok.push(time(pages, tok));
      tFast.push(time(pages, fastAll));
      const t0 = performance.now();
      for (const t of texts) tidyText(t);
      tTidy.push(performance.now() - t0);
    }
    const a = median(tTok);
    const b = median(tFast);
    const c = median(tTidy);
    console.log(
      `${basename(file)}: ${pages.length} HTML pages (${mb.toFixed(1)} M chars) compared, ${mismatches} mismatching; ` +
        `${fellBack.length} fell back to the Tokenizer`,
    );
    for (const u of fellBack.slice(0, 10)) console.log(`  fallback: ${u}`);
    console.log(
      `  extractHtml, median of 3: Tokenizer ${a.toFixed(0)} ms, scanner ${b.toFixed(0)} ms, ` +
        `${(a / b).toFixed(2)}× faster; with tidyText (${c.toFixed(0)} ms, the same for both): ` +
        `${(a + c).toFixed(0)} vs ${(b + c).toFixed(0)} ms, ${((a + c) / (b + c)).toFixed(2)}×`,
    );
  }
  if (failed) process.exit(1);
}

await main();
