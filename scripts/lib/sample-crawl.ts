// Shared types and helpers for the sample crawl site builders.

import { encodeLegacy } from './legacy-encodings.ts';
import { type PageModel, renderPage } from './sample-html.ts';
import { type HeaderList, isoDate } from './warc-writer.ts';

export interface CrawlItem {
  url: string;
  date: string;
  status: number;
  /** Full Content-Type header value. */
  contentType: string;
  /** Entity body after transfer/content decoding. */
  body: Buffer;
  kind: string;
  server: string;
  model?: PageModel;
  title?: string;
  /** Actual encoding of the body bytes (null for non-text). */
  charset?: string;
  /** Where the charset is declared: the HTTP Content-Type, or only a <meta> in the HTML. */
  charsetSource?: 'http-header' | 'meta';
  /** Store the body with raw chunked transfer coding. */
  chunked?: boolean;
  /** Store the body with Content-Encoding: gzip. */
  gzip?: boolean;
  /** Write WARC-Target-URI as `<url>` (wget 1.14 style). */
  angle?: boolean;
  extraHeaders?: HeaderList;
}

/** `url` was derived from (is a duplicate / alias / repost of) `of`. */
export interface Relation {
  url: string;
  of: string;
}

export interface NotDupPair {
  a: string;
  b: string;
  kind: string;
}

export interface SiteBuild {
  items: CrawlItem[];
  relations: Relation[];
  notDup: NotDupPair[];
  /** Paths of pages with a planted oddity, for the README (page names come from the text). */
  notes?: Record<string, string>;
}

export class Clock {
  private t = 0;
  constructor(private readonly start: string) {}
  next(step = 2): string {
    this.t += step;
    return isoDate(this.start, this.t);
  }
}

export interface HtmlOpts {
  server: string;
  date: string;
  kind: string;
  /** Encode with a legacy charset instead of UTF-8. */
  legacy?: 'gbk';
  /** Content-Type header value (default `text/html; charset=utf-8`). */
  contentType?: string;
}

export function htmlItem(url: string, model: PageModel, o: HtmlOpts): CrawlItem {
  const html = renderPage(model);
  return {
    url,
    date: o.date,
    status: 200,
    contentType: o.contentType ?? 'text/html; charset=utf-8',
    body: o.legacy ? encodeLegacy(html, o.legacy) : Buffer.from(html, 'utf8'),
    kind: o.kind,
    server: o.server,
    model,
    title: model.title,
    charset: o.legacy ?? 'utf-8',
    charsetSource: o.legacy ? 'meta' : 'http-header',
  };
}

export function plainItem(
  url: string,
  date: string,
  server: string,
  kind: string,
  contentType: string,
  body: string,
  status = 200,
): CrawlItem {
  const charset = /charset=([\w-]+)/i.exec(contentType)?.[1];
  return {
    url,
    date,
    status,
    contentType,
    body: Buffer.from(body, 'utf8'),
    kind,
    server,
    ...(charset ? { charset, charsetSource: 'http-header' as const } : {}),
  };
}

/** Relative reference from directory `fromDir` (ends with '/') to absolute path `to`. */
export function rel(fromDir: string, to: string): string {
  const from = fromDir.split('/').filter(Boolean);
  const toParts = to.split('/');
  const file = toParts.pop() ?? '';
  const target = toParts.filter(Boolean);
  let common = 0;
  while (common < from.length && common < target.length && from[common] === target[common]) common++;
  const up = '../'.repeat(from.length - common);
  const down = target
    .slice(common)
    .map((s) => s + '/')
    .join('');
  return up + down + file || './';
}

export const titleCase = (s: string): string =>
  s
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

/** First `fraction` of the words, paragraph structure kept. */
export function truncateWords(paragraphs: string[], fraction: number): string[] {
  const total = paragraphs.reduce((n, p) => n + p.split(' ').length, 0);
  let keep = Math.ceil(total * fraction);
  const out: string[] = [];
  for (const p of paragraphs) {
    if (keep <= 0) break;
    const words = p.split(' ');
    out.push(words.slice(0, keep).join(' '));
    keep -= words.length;
  }
  return out;
}
