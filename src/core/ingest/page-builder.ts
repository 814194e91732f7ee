import { pageLinks } from '../html/links';
import { extractPageBody, type ExtractionCache } from './extraction-cache';
import { decodeText } from '../text/charset';
import { fingerprint64 } from '../text/fingerprint';
import { base32, sha1Digest } from '../text/sha1';
import { tidyText } from '../text/tidy';
import type { IngestedPage, PageRecord } from '../types';
import { normaliseUrl } from '../url/normalize';
import { headerValue } from './bytes';
import type { Sha1 } from './natives';

/** What a format parser knows about one fetched page, before extraction. */
export interface RawPage {
  url: string;
  status: number;
  recordType: string;
  fetchedAt: string;
  headers: [string, string][];
  /** Content-Type as declared (header or format field); '' unknown. */
  contentType: string;
  /** Decoded payload bytes, or null when only text is given (JSONL) or nothing at all (URL lists). */
  body: Uint8Array | null;
  /** Text or HTML given as a string (JSONL). */
  html?: string;
  text?: string;
  links?: string[];
  digest: string;
  size: number;
  offset: number;
  note: string;
}

/** MIME types whose payload becomes page text. */
export function isHtmlMime(mime: string): boolean {
  return mime === 'text/html' || mime === 'application/xhtml+xml';
}
function isTextMime(mime: string): boolean {
  return mime.startsWith('text/') || mime === 'application/xml' || mime === 'application/json';
}

export function mimeOf(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/**
 * A payload's digest as WARC writes it (`sha1:` + base32), by the platform's synchronous SHA-1 when the
 * caller passes one (natives.ts: node:crypto in Node, WebAssembly in the browser), else text/sha1.ts.
 */
function computeDigest(body: Uint8Array, sha1?: Sha1): string {
  return sha1 ? 'sha1:' + base32(sha1(body)) : sha1Digest(body);
}

/** What buildPage takes from the read (ReaderContext has both). */
export interface PageBuildContext {
  sha1?: Sha1;
  bodies?: ExtractionCache;
}

/** Texts above this are cut (and the page noted): no real page needs more to be compared. */
const MAX_TEXT_BYTES = 8 << 20;

/**
 * `read`: what the read lends every page it builds (the format reader's context): `sha1`, the
 * platform's synchronous SHA-1 for a payload without a recorded digest (natives.ts), and `bodies`, the
 * read's cache of page bodies (the same HTML is extracted once; extraction-cache.ts).
 */
export function buildPage(seq: number, r: RawPage, read: PageBuildContext = {}): IngestedPage {
  const { sha1, bodies } = read;
  const n = normaliseUrl(r.url);
  let mime = mimeOf(r.contentType);
  let title = '';
  let text = '';
  let charset = '';
  let outlinks: string[] = [];
  let rawOutlinks: string[] = [];
  let note = r.note;
  let html = r.html;
  let templateHints: number[] = [];
  let fingerprint: string | null = null; // known with a page body
  let tidy = false; // whether `text` is already as tidyText leaves it
  if (r.body && r.body.length > 0 && (isHtmlMime(mime) || isTextMime(mime) || mime === '')) {
    let body = r.body;
    if (body.length > MAX_TEXT_BYTES) {
      body = body.subarray(0, MAX_TEXT_BYTES);
      note = note || `payload over ${MAX_TEXT_BYTES >> 20} MiB: text cut`;
    }
    const sniffHtml = isHtmlMime(mime) || (mime === '' && looksLikeHtml(body));
    const decoded = decodeText(body, headerValue(r.headers, 'Content-Type') ?? r.contentType, sniffHtml);
    charset = decoded.charset;
    if (sniffHtml) {
      html = decoded.text;
      if (mime === '') mime = 'text/html';
    } else text = decoded.text;
  }
  const digest = r.digest || (r.body && r.body.length > 0 ? computeDigest(r.body, sha1) : '');
  if (html !== undefined) {
    const b = bodies ? bodies.bodyOf(html, digest) : extractPageBody(html);
    title = b.body.title;
    text = b.body.text;
    tidy = true;
    ({ outlinks, rawOutlinks } = pageLinks(b.body, n.ok ? n.href : r.url, n.ok));
    templateHints = b.hintHashes;
    fingerprint = b.fingerprint;
    if (!mime) mime = 'text/html';
  } else if (r.text !== undefined) {
    text = r.text;
    if (!mime) mime = 'text/plain';
  }
  if (r.links) {
    for (const l of r.links) {
      const o = normaliseUrl(l, n.ok ? n.href : undefined);
      if (o.ok && !outlinks.includes(o.href)) {
        outlinks.push(o.href);
        rawOutlinks.push(l);
      }
    }
  }
  if (!tidy) text = tidyText(text);
  const page: PageRecord = {
    seq,
    url: r.url,
    normUrl: n.href,
    host: n.host,
    status: r.status,
    statuses: r.status ? [r.status] : [],
    mime,
    sizeMin: r.size,
    sizeMax: r.size,
    hits: 1,
    fetchedAt: r.fetchedAt,
    recordType: r.recordType,
    title,
    textLength: text.length,
    fingerprint: fingerprint ?? (text ? fingerprint64(text) : ''),
    digest,
    charset,
    revisitOf: -1,
    offset: r.offset,
    note,
  };
  const content = { seq, text, outlinks, rawOutlinks, headers: r.headers };
  // Only pages with <nav>/<header>/<footer>/<aside> carry hints: the others store what they stored before.
  return { page, content: templateHints.length ? { ...content, templateHints } : content };
}

function looksLikeHtml(b: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(b.subarray(0, 512)).toLowerCase();
  return head.includes('<html') || head.includes('<!doctype html') || head.includes('<body');
}
