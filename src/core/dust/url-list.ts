/**
 * The URL list DustBuster reads (§3 "A URL list is a list of records consisting of: (1) a URL; (2) the
 * http return code; (3) the size of the returned document; and (4) the document's sketch"), brought
 * into the shape Fig. 1 assumes (§5.1): "(1) only unique URLs have been kept; (2) all the URLs have been
 * tokenized and include the preceding ^ and succeeding $; (3) all records corresponding to errors (http
 * return codes in the 4xx and 5xx series) have been filtered out; (4) for each URL, the corresponding
 * document sketch or size range has been recorded."
 */
import { normaliseUrl } from '../url/normalize';
import { registrableDomain } from '../url/site';
import type { DustRecord, DustUrl, SiteMode } from './types';

export const START = '^';
export const END = '$';

/** Letters and digits of any script: §3's "alphanumeric strings" read beyond ASCII. */
const ALNUM = /[\p{L}\p{N}]/u;

/** Whether the code point cp (width w, at i in s) is a letter or digit; ASCII without the regex. */
function alnumAt(cp: number, s: string, i: number, w: number): boolean {
  if (cp < 0x80) return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122);
  return ALNUM.test(s.slice(i, i + w));
}

/**
 * §3: "Tokens are either alphanumeric strings or non-alphanumeric characters", framed by ^ … $.
 * 'http://www.site.com/index.html' → ^ http : / / www . site . com / index . html $.
 */
export function tokenizeUrl(url: string): string[] {
  const out = [START];
  const n = url.length;
  let i = 0;
  while (i < n) {
    const cp = url.codePointAt(i)!;
    const w = cp > 0xffff ? 2 : 1;
    if (!alnumAt(cp, url, i, w)) {
      out.push(url.slice(i, i + w));
      i += w;
      continue;
    }
    let j = i + w;
    while (j < n) {
      const c = url.codePointAt(j)!;
      const cw = c > 0xffff ? 2 : 1;
      if (!alnumAt(c, url, j, cw)) break;
      j += cw;
    }
    out.push(url.slice(i, j));
    i = j;
  }
  out.push(END);
  return out;
}

/** The URL spelled by a framed token list (the frames are positions, not characters). */
export function untokenize(tokens: readonly string[]): string {
  let s = '';
  for (let i = 1; i < tokens.length - 1; i++) s += tokens[i];
  return s;
}

/**
 * §3: a URL is valid if "the http return code is not in the 4xx or 5xx series". Heritrix writes its
 * own negative codes for fetches that failed (−1 DNS, −2 connection, …) and 0 for "fetch never
 * tried", so those are errors too when the record comes from a crawl log; elsewhere 0 means the
 * source gave no status (URL lists), and the URL is kept.
 */
export function isErrorStatus(status: number, recordType = ''): boolean {
  if (status >= 400 && status < 600) return true;
  if (status < 0) return true;
  return status === 0 && recordType.startsWith('crawl-log');
}

/** The site a URL belongs to (rules are mined "within a given web site", §1; url/site.ts). */
export function siteOf(url: Pick<DustUrl, 'host'>, mode: SiteMode): string {
  return mode === 'host' ? url.host : mode === 'domain' ? registrableDomain(url.host) : '';
}

export interface UrlListSummary {
  urls: DustUrl[];
  /** Records dropped for an error status, and records that repeated a URL already seen. */
  errorRecords: number;
  repeatedRecords: number;
}

/**
 * Unique, tokenised, error-free URLs with their size ranges (§4: "for each unique URL, we track all
 * its occurrences in the URL list, and keep the minimum and the maximum size values encountered").
 * The first sketch and the first content identity seen for a URL are kept; the fingerprint of the
 * text is preferred to the payload digest because headers and timestamps change the payload.
 */
export function buildUrlList(records: Iterable<DustRecord>): UrlListSummary {
  const byUrl = new Map<string, DustUrl>();
  const redirects = new Map<string, string>();
  const pages = new Set<string>();
  const served = new Set<string>();
  let errorRecords = 0;
  let repeatedRecords = 0;
  for (const r of records) {
    if (isErrorStatus(r.status ?? 0, r.recordType)) {
      errorRecords++;
      continue;
    }
    const norm = normaliseUrl(r.url);
    const status = r.status ?? 0;
    if (status < 300 || status >= 400) pages.add(norm.href);
    if (status < 300) served.add(norm.href);
    const lo = r.sizeMin ?? -1;
    const hi = r.sizeMax ?? lo;
    const digest = r.fingerprint ? `fp:${r.fingerprint}` : (r.digest ?? '');
    const seen = byUrl.get(norm.href);
    if (seen) {
      repeatedRecords++;
      if (lo >= 0) {
        seen.sizeMin = seen.sizeMin < 0 ? lo : Math.min(seen.sizeMin, lo);
        seen.sizeMax = Math.max(seen.sizeMax, hi);
      }
      if (!seen.sketch && r.sketch) seen.sketch = r.sketch;
      if (seen.digest === '' && digest !== '') seen.digest = digest;
      if (r.redirectTo && !redirects.has(norm.href)) redirects.set(norm.href, r.redirectTo);
      if (r.inlinks) seen.inlinks = Math.max(seen.inlinks ?? 0, r.inlinks);
      continue;
    }
    if (r.redirectTo) redirects.set(norm.href, r.redirectTo);
    byUrl.set(norm.href, {
      url: norm.href,
      host: norm.host,
      tokens: tokenizeUrl(norm.href),
      sizeMin: lo,
      sizeMax: lo >= 0 ? Math.max(lo, hi) : -1,
      sketch: r.sketch ?? null,
      digest,
      redirect: '',
      ...(r.inlinks ? { inlinks: r.inlinks } : {}),
    });
  }
  for (const u of byUrl.values()) if (!served.has(u.url)) u.served = false;
  followRedirects(byUrl, redirects, pages);
  return { urls: [...byUrl.values()], errorRecords, repeatedRecords };
}

/** Hops followed from a redirect to its document (browsers allow 20; crawlers commonly 5). */
export const MAX_REDIRECTS = 5;

/**
 * §3: doc(u) is "the returned document", and fetching a URL that redirects returns its target's
 * ("web server software often uses aliases and redirections", §1). A redirect whose chain ends, within
 * MAX_REDIRECTS hops, at a URL of the list takes that URL's sketch, content identity and sizes; one
 * whose target is not in the list, or that loops, has no known document (its own body is the
 * server's "Moved" notice, alike for every redirect, and would make all of them look similar).
 * A URL that was both a redirect and a page in the source keeps its page.
 */
function followRedirects(
  byUrl: Map<string, DustUrl>,
  redirects: Map<string, string>,
  pages: Set<string>,
): void {
  for (const [from, first] of redirects) {
    const u = byUrl.get(from)!;
    if (pages.has(from)) continue;
    let at = first;
    let hops = 1;
    while (redirects.has(at) && hops < MAX_REDIRECTS && at !== from) {
      at = redirects.get(at)!;
      hops++;
    }
    const target = redirects.has(at) ? undefined : byUrl.get(at);
    if (target && target !== u) {
      u.redirect = target.url;
      u.sketch = target.sketch;
      u.digest = target.digest;
      u.sizeMin = target.sizeMin;
      u.sizeMax = target.sizeMax;
    } else {
      u.sketch = null;
      u.digest = '';
      u.sizeMin = -1;
      u.sizeMax = -1;
    }
  }
}

/** URLs grouped by site, in first-seen order. */
export function groupBySite(urls: readonly DustUrl[], mode: SiteMode): Map<string, DustUrl[]> {
  const sites = new Map<string, DustUrl[]>();
  for (const u of urls) {
    const key = siteOf(u, mode);
    const list = sites.get(key);
    if (list) list.push(u);
    else sites.set(key, [u]);
  }
  return sites;
}
