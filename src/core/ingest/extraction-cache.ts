import { extractBodyTidy } from '../html/extract';
import type { ExtractedBody } from '../html/extracted';
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
 * of its 1,002 repeats with it, 480 with half, all with 24 Mi. A generated 1 GB read with no repeats
 * peaked at 784 MB in the renderer with 16 Mi a part, 762 MB with 16 Mi a read, 719 MB with the cache
 * going quiet (682 MB without a cache).
 */
export const BODY_CACHE_CHARS = 16 << 20;

/** Each part's share of the budget when a file is read in `parts` parallel parts. */
export const bodyCacheShare = (parts: number): number => Math.floor(BODY_CACHE_CHARS / parts);

/**
 * The bodies of the HTML read recently in one read, by the HTML itself. The same page served under
 * several URLs (DUST: `?sessionid=`, `?ref=nav`, `dir/` and `dir/index.html`, a story under four
 * aliases) or copied whole is the same HTML, and its title, text, template hints and fingerprint are
 * the same: they are extracted once; only the links are resolved again for each page's URL. On
 * docsite 1,002 of 1,690 pages repeat an earlier page's payload byte for byte.
 *
 * A hit is exact by construction: a page's HTML must be equal to the one kept (a Map compares string
 * keys whole, and an entry found by digest is compared with `===`). Found by the payload digest the
 * record states, or the one computed for it when SHA-1 is synchronous (Node; 5.7% of a read of a
 * generated 210 MB crawl without digests), when there is one (short to hash; V8 hashes every
 * character of a key up to 16 Ki of them, which cost ~26 ms of a 400 ms docsite read in Node), by
 * the HTML itself otherwise; a wrong digest only misses. The cache holds at most its budget of HTML and text, the least recently used
 * first out: memory stays bounded on a crawl with no repeats (a 1 GB WARC.gz whose renderer peak must
 * stay under 1 GB).
 */
export class ExtractionCache {
  private readonly map = new Map<string, { html: string; got: PageBody }>();
  private chars = 0;
  hits = 0;
  misses = 0;
  /** Lookups and hits of late, halved every QUIET_WINDOW lookups (an exponential window). */
  private recent = 0;
  private recentHits = 0;

  constructor(private readonly budget = BODY_CACHE_CHARS) {}

  /** How many pages it holds. */
  get size(): number {
    return this.map.size;
  }

  /**
   * The body of `html`: from the cache, or extracted (and kept) now. `digest`: the payload digest the
   * record states or the page's computed one, '' when none yet (payloads of another charset decode to
   * other HTML: not a hit).
   */
  bodyOf(html: string, digest = ''): PageBody {
    const key = digest === '' ? html : digest;
    const known = this.map.get(key);
    if (++this.recent >= QUIET_WINDOW) {
      this.recent >>= 1;
      this.recentHits /= 2;
    }
    if (known && known.html === html) {
      this.hits++;
      this.recentHits++;
      // Least recently used first out: a page met again is likely to be met again (its other aliases).
      this.map.delete(key);
      this.map.set(key, known);
      return known.got;
    }
    this.misses++;
    const got = extractPageBody(html);
    const cost = html.length + got.body.text.length;
    // Quiet: pages have not repeated of late (a crawl without DUST). Keeping every page then cost a
    // generated 210 MB read 8% in Node (promoted strings, old-space marking) for no hit: keep one page
    // in 32, as probes that find repeats when they start, in a sixteenth of the budget.
    const quiet = this.recent >= QUIET_WINDOW / 2 && this.recentHits < this.recent * 0.005;
    const budget = quiet ? this.budget >> 4 : this.budget;
    if (cost <= budget / 4 && !known && (!quiet || probe(got))) {
      this.map.set(key, { html, got });
      this.chars += cost;
    }
    if (this.chars > budget) {
      for (const [k, v] of this.map) {
        if (this.chars <= budget) break;
        this.map.delete(k);
        this.chars -= v.html.length + v.got.body.text.length;
      }
    }
    return got;
  }
}

/**
 * Whether a page is one of the one-in-32 kept while the cache is quiet: chosen by its text's
 * fingerprint, so a page is a probe every time it is met (a count of misses chose the second meeting
 * of a page met twice in a row, never the first, and found nothing).
 */
function probe(got: PageBody): boolean {
  return (parseInt(got.fingerprint.slice(-2), 16) & 31) === 0;
}

/** Lookups over which the cache judges whether pages repeat (see `quiet` in bodyOf). */
const QUIET_WINDOW = 2048;

/** One page's body, without a cache. */
export function extractPageBody(html: string): PageBody {
  const body = extractBodyTidy(html);
  return {
    body,
    fingerprint: body.text ? fingerprint64(body.text) : '',
    hintHashes: body.templateHints.map(templateLineHash),
  };
}
