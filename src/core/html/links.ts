/**
 * A page's links resolved: pageLinks, from what extract.ts read of its HTML; resolveLinkFast, for the
 * common links of a page without the URL parser, with null for anything the WHATWG parser must decide
 * (pageLinks falls back to normaliseUrl).
 */
import { detached } from '../text/detached';
import { isWebUrl, normaliseUrl } from '../url/normalize';
import type { ExtractedBody } from './extracted';

/** Path characters WHATWG URL leaves as they are, without '%' (percent-decoded dots) and '\\'. */
const PATH_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** Query characters the special-scheme query set leaves as they are ("'" is encoded there). */
const QUERY_SAFE = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?]*$/;
/** A "." or ".." path segment (the parser removes them). */
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;
/** A lower-case ASCII host whose last label cannot make it an IPv4 address, without punycode labels. */
const PLAIN_HOST = /^(?!xn--)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.(?!xn--)[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/**
 * `normaliseUrl(raw, base).href` for the links most pages are made of, without the URL parser:
 * path-absolute ("/a/b.html"), path-relative ("b.html"), query-only ("?p=2") and plain absolute
 * http(s) links of ASCII characters the WHATWG parser copies unchanged, no dot segments, no port.
 * `base` must be a URL's href (normalised, no fragment). null: anything else, for the parser. Why:
 * `new URL` costs ~13 µs a call in Chromium (12% of ingest on the generated WARC, CDP profile) and
 * pages carry dozens of links. test/core/html/links.test.ts checks it against the parser.
 */
export function resolveLinkFast(raw: string, base: string): string | null {
  const hash = raw.indexOf('#');
  const r = hash < 0 ? raw : raw.slice(0, hash);
  let prefix: string;
  let rest: string;
  const c = r.charCodeAt(0);
  if (r === '') return base;
  if (r.startsWith('http://') || r.startsWith('https://')) {
    const hostStart = r.indexOf('/') + 2;
    let hostEnd = hostStart;
    while (hostEnd < r.length && r.charCodeAt(hostEnd) !== 0x2f && r.charCodeAt(hostEnd) !== 0x3f) hostEnd++;
    const host = r.slice(hostStart, hostEnd);
    const last = host.slice(host.lastIndexOf('.') + 1);
    if (!PLAIN_HOST.test(host) || (last.charCodeAt(0) >= 0x30 && last.charCodeAt(0) <= 0x39)) return null;
    prefix = r.slice(0, hostEnd);
    rest = hostEnd === r.length || r.charCodeAt(hostEnd) === 0x3f ? '/' + r.slice(hostEnd) : r.slice(hostEnd);
  } else {
    const schemeEnd = base.indexOf('://');
    if (schemeEnd < 0 || (!base.startsWith('http:') && !base.startsWith('https:'))) return null;
    const q = base.indexOf('?');
    const noQuery = q < 0 ? base : base.slice(0, q);
    if (c === 0x2f) {
      if (r.charCodeAt(1) === 0x2f) return null; // scheme-relative: a host follows
      prefix = base.slice(0, base.indexOf('/', schemeEnd + 3));
      rest = r;
    } else if (c === 0x3f) {
      prefix = noQuery;
      rest = r;
    } else {
      const q2 = r.indexOf('?');
      // A ':' before any '/' may be a scheme (mailto:, javascript:): the parser decides.
      if (r.slice(0, q2 < 0 ? r.length : q2).includes(':')) return null;
      prefix = noQuery.slice(0, noQuery.lastIndexOf('/') + 1);
      rest = r;
    }
  }
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  if (!PATH_SAFE.test(path) || DOT_SEGMENT.test(path)) return null;
  if (q >= 0 && !QUERY_SAFE.test(rest.slice(q + 1))) return null;
  return prefix + rest;
}

/**
 * A page's outlinks from its body: the link values resolved against its `<base>` (itself resolved
 * against the page URL; HTML §4.2.3: it applies to links before it too) or the page URL, normalised,
 * web links only, the first occurrence of each kept, with the raw value it came from.
 * `pageUrlParsed`: pageUrl is already a parsed URL's href, so links may be resolved without parsing
 * it again.
 */
export function pageLinks(
  body: Pick<ExtractedBody, 'raw' | 'baseHref'>,
  pageUrl: string,
  pageUrlParsed = false,
): { outlinks: string[]; rawOutlinks: string[] } {
  let base = pageUrl;
  let baseParsed = pageUrlParsed;
  if (body.baseHref !== null) {
    const b = normaliseUrl(body.baseHref, pageUrl);
    if (b.ok) {
      base = b.href;
      baseParsed = true;
    }
  }
  const seen = new Set<string>();
  const outlinks: string[] = [];
  const rawOutlinks: string[] = [];
  // The fast path needs a base that is a parsed URL's href (a page URL that failed to parse is not).
  // (With a base the parser rejects, even absolute links fail: new URL throws on the base first.)
  const parsedBase = baseParsed ? null : normaliseUrl(base);
  const fastBase = baseParsed || (parsedBase!.ok && parsedBase!.href === base);
  for (const r of body.raw) {
    let href = fastBase ? resolveLinkFast(r, base) : null;
    if (href === null) {
      const n = normaliseUrl(r, base);
      if (!n.ok) continue;
      href = n.href;
    }
    if (!isWebUrl(href) || seen.has(href)) continue;
    seen.add(href);
    outlinks.push(detached(href));
    rawOutlinks.push(detached(r));
  }
  return { outlinks, rawOutlinks };
}
