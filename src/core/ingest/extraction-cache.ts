import { extractBodyTidy, type ExtractedBody } from '../html/extract';
import { fingerprint64 } from '../text/fingerprint';
import { templateLineHash } from '../text/template';

/** A page body as ingest keeps it: extracted, its text fingerprinted, its template hints hashed. */
export interface PageBody {
  body: ExtractedBody;
  fingerprint: string;
  hintHashes: number[];
}

/**
 * The budget of a read's cache: UTF-16 code units of HTML and text held (see ExtractionCache). A file
 * read in parallel parts splits it among them. docsite (17 Mi characters of distinct HTML) finds 854
 * of its 1,002 repeats with it, 480 with half, all with 24 Mi; a generated 1 GB read with no repeats
 * peaked at 784 MB in the renderer with 16 Mi a part (682 MB without a cache).
 */
export const BODY_CACHE_CHARS = 16 << 20;

/**
 * The bodies of the HTML read recently in one read, by the HTML itself. The same page served under
 * several URLs (DUST: `?sessionid=`, `?ref=nav`, `dir/` and `dir/index.html`, a story under four
 * aliases) or copied whole is the same HTML, and its title, text, template hints and fingerprint are
 * the same: they are extracted once; only the links are resolved again for each page's URL. On
 * docsite 1,002 of 1,690 pages repeat an earlier page's payload byte for byte.
 *
 * The HTML string is the key, so a hit is exact by construction (a Map compares its string keys whole;
 * a recorded payload digest would have to be trusted). The cache holds at most its budget of HTML
 * and text, the least recently used first out: memory stays bounded on a crawl with no repeats (a 1 GB WARC.gz whose
 * renderer peak must stay under 1 GB).
 */
export class ExtractionCache {
  private readonly map = new Map<string, PageBody>();
  private chars = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly budget = BODY_CACHE_CHARS) {}

  /** The body of `html`: from the cache, or extracted (and kept) now. */
  bodyOf(html: string): PageBody {
    const known = this.map.get(html);
    if (known) {
      this.hits++;
      // Least recently used first out: a page met again is likely to be met again (its other aliases).
      this.map.delete(html);
      this.map.set(html, known);
      return known;
    }
    this.misses++;
    const got = extractPageBody(html);
    const cost = html.length + got.body.text.length;
    if (cost <= this.budget / 4) {
      this.map.set(html, got);
      this.chars += cost;
      for (const [k, v] of this.map) {
        if (this.chars <= this.budget) break;
        this.map.delete(k);
        this.chars -= k.length + v.body.text.length;
      }
    }
    return got;
  }
}

/** One page's body, without a cache. */
export function extractPageBody(html: string): PageBody {
  const body = extractBodyTidy(html);
  return {
    body,
    fingerprint: body.text ? fingerprint64(body.text) : '',
    hintHashes: body.templateHints.map(templateLineHash),
  };
}
