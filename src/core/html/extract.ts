import { Tokenizer } from 'htmlparser2';
import { isWebUrl, normaliseUrl } from '../url/normalize';

/** What the workbench keeps of an HTML page: text only, never markup (crawled content is hostile). */
export interface Extracted {
  title: string;
  /** Visible text; block boundaries as line breaks (tidied by tidyText downstream). */
  text: string;
  /** Outlinks resolved against <base> (or the page URL) and normalised; first occurrence kept. */
  outlinks: string[];
  rawOutlinks: string[];
  /**
   * Lines of text (tidied) found inside <nav>, <aside>, and <header>/<footer> outside <article> and
   * <main>: hints for the template model (src/core/text/template.ts), never removed from `text`.
   */
  templateHints: string[];
}

/** Elements whose text is usually the site's template (HTML §4.3: sectioning and landmark content). */
const TEMPLATE_HINT = new Set(['nav', 'aside']);
/** Elements that are template only outside an article or the main content. */
const TEMPLATE_HINT_OUTSIDE = new Set(['header', 'footer']);
const CONTENT = new Set(['article', 'main']);

/** Elements whose content is never visible text. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'object', 'embed', 'canvas']);
/** Elements that break a line of text (block and list content, table rows, line breaks). */
const BLOCK = new Set(
  (
    'address article aside blockquote br caption dd details dialog div dl dt fieldset figcaption figure footer ' +
    'form h1 h2 h3 h4 h5 h6 header hgroup hr legend li main menu nav ol p pre section summary table tbody thead ' +
    'tfoot tr ul option body html center frameset title'
  ).split(' '),
);
const CELL = new Set(['td', 'th']);
const PRE = new Set(['pre', 'textarea', 'listing', 'xmp', 'plaintext']);
/** Which attribute of which element is a link (base's href is the document's base URL). */
const LINK_ATTR: Record<string, string> = {
  a: 'href',
  area: 'href',
  frame: 'src',
  iframe: 'src',
  base: 'href',
};

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
 * Title, visible text and outlinks of an HTML page, on htmlparser2's Tokenizer (its tree-building
 * Parser layer builds an attribute object for every tag and handles implied end tags, which text
 * extraction does not need: 2× slower on docsite). test/core/html/extract.test.ts checks this against
 * a Parser-based reference on every page of the sample crawl. `pageUrlParsed`: the caller already
 * parsed pageUrl (it is a URL's href), so links may be resolved without parsing it again.
 */
export function extractHtml(html: string, pageUrl: string, pageUrlParsed = false): Extracted {
  /** Whether `base` is known to be a parsed URL's href (the fast link path needs one). */
  let baseParsed = pageUrlParsed;
  const parts: string[] = [];
  let hidden = 0;
  let inTitle = false;
  let title = '';
  let base = pageUrl;
  let sawBase = false;
  const raw: string[] = [];
  let tag = '';
  let wanted = ''; // the link attribute of the current tag, '' when none
  let attr = '';
  let value = '';
  let link: string | null = null;
  // Template hint depth (nav, aside; header and footer outside article/main) and content depth.
  const hintParts: string[] = [];
  let hint = 0;
  let content = 0;
  const hintStack: boolean[] = [];
  const push = (s: string) => {
    parts.push(s);
    if (hint > 0) hintParts.push(s);
  };
  const isHint = (name: string) =>
    TEMPLATE_HINT.has(name) || (TEMPLATE_HINT_OUTSIDE.has(name) && content === 0);

  const open = () => {
    if (PRE.has(tag)) pre++;
    if (CONTENT.has(tag)) content++;
    if (TEMPLATE_HINT.has(tag) || TEMPLATE_HINT_OUTSIDE.has(tag)) {
      const h = isHint(tag);
      hintStack.push(h);
      if (h) hint++;
    }
    if (tag === 'title' && title === '') inTitle = true;
    else if (HIDDEN.has(tag)) hidden++;
    if (BLOCK.has(tag)) push('\n');
    else if (CELL.has(tag)) push(' ');
    if (link !== null && link !== '') {
      if (tag === 'base') {
        if (!sawBase) {
          sawBase = true;
          const b = normaliseUrl(link, pageUrl);
          if (b.ok) {
            base = b.href;
            baseParsed = true;
          }
        }
      } else raw.push(link);
    }
  };
  // Source line breaks are white space, not text line breaks, except in preformatted text.
  let pre = 0;
  const text = (s: string) => {
    if (inTitle) title += s;
    else if (hidden === 0) push(pre > 0 ? s : s.replace(/[\r\n]+/g, ' '));
  };

  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        tag = html.slice(start, end).toLowerCase();
        wanted = LINK_ATTR[tag] ?? '';
        link = null;
      },
      onattribname(start, end) {
        if (wanted) {
          attr = html.slice(start, end).toLowerCase();
          value = '';
        }
      },
      onattribdata(start, end) {
        if (wanted) value += html.slice(start, end);
      },
      onattribentity(cp) {
        if (wanted) value += String.fromCodePoint(cp);
      },
      onattribend() {
        if (wanted && attr === wanted && link === null) link = value;
      },
      onopentagend: open,
      onselfclosingtag: open, // HTML, not XML: <br/> is an open tag
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if (PRE.has(name) && pre > 0) pre--;
        if (name === 'title') inTitle = false;
        else if (HIDDEN.has(name) && hidden > 0) hidden--;
        if (BLOCK.has(name)) push('\n');
        if (CONTENT.has(name) && content > 0) content--;
        if ((TEMPLATE_HINT.has(name) || TEMPLATE_HINT_OUTSIDE.has(name)) && hintStack.length > 0) {
          if (hintStack.pop()) hint--;
        }
      },
      ontext(start, end) {
        text(html.slice(start, end));
      },
      ontextentity(cp) {
        text(String.fromCodePoint(cp));
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();

  // Links are resolved after parsing: <base> applies to links before it too (HTML §4.2.3).
  const seen = new Set<string>();
  const outlinks: string[] = [];
  const rawOutlinks: string[] = [];
  // The fast path needs a base that is a parsed URL's href (a page URL that failed to parse is not).
  // (With a base the parser rejects, even absolute links fail: new URL throws on the base first.)
  const parsedBase = baseParsed ? null : normaliseUrl(base);
  const fastBase = baseParsed || (parsedBase!.ok && parsedBase!.href === base);
  for (const r of raw) {
    let href = fastBase ? resolveLinkFast(r, base) : null;
    if (href === null) {
      const n = normaliseUrl(r, base);
      if (!n.ok) continue;
      href = n.href;
    }
    if (!isWebUrl(href) || seen.has(href)) continue;
    seen.add(href);
    outlinks.push(href);
    rawOutlinks.push(r);
  }
  const templateHints = hintParts.length ? tidyText(hintParts.join('')).split('\n') : [];
  return { title: foldSpaces(title), text: parts.join(''), outlinks, rawOutlinks, templateHints };
}

function foldSpaces(s: string): string {
  return tidyText(s).replace(/\n/g, ' ');
}

const SPACE = new Uint8Array(0x3001);
for (const c of [9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]) SPACE[c] = 1;
for (let c = 0x2000; c <= 0x200a; c++) SPACE[c] = 1;

/**
 * Fold runs of white space within lines to one space, trim lines, drop empty lines — one pass over
 * the characters (the regex version was a third of extraction time on docsite).
 */
export function tidyText(s: string): string {
  let out = '';
  let segStart = -1; // start of the current run of non-space characters
  let pendingNewline = false;
  let empty = true;
  const n = s.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? s.charCodeAt(i) : 10;
    const ws = (c <= 0x3000 && SPACE[c] === 1) || c === 0xfeff;
    if (!ws) {
      if (segStart < 0) {
        segStart = i;
        if (!empty) out += pendingNewline ? '\n' : ' ';
        pendingNewline = false;
        empty = false;
      }
      continue;
    }
    if (segStart >= 0) {
      out += s.slice(segStart, i);
      segStart = -1;
    }
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) pendingNewline = true;
  }
  return out;
}
