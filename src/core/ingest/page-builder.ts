import { extractHtml, tidyText } from '../html/extract';
import { decodeText } from '../text/charset';
import { fingerprint64 } from '../text/fingerprint';
import { templateLineHash } from '../text/template';
import { sha1Digest } from '../text/sha1';
import type { IngestedPage, PageRecord } from '../types';
import { normaliseUrl } from '../url/normalize';
import { headerValue } from './bytes';

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

/** Texts above this are cut (and the page noted): no real page needs more to be compared. */
const MAX_TEXT_BYTES = 8 << 20;

export function buildPage(seq: number, r: RawPage): IngestedPage {
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
  if (html !== undefined) {
    const x = extractHtml(html, n.ok ? n.href : r.url);
    title = x.title;
    text = x.text;
    outlinks = x.outlinks;
    rawOutlinks = x.rawOutlinks;
    templateHints = x.templateHints.map(templateLineHash);
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
  text = tidyText(text);
  const digest = r.digest || (r.body && r.body.length > 0 ? sha1Digest(r.body) : '');
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
    fingerprint: text ? fingerprint64(text) : '',
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
