import { Tokenizer } from 'htmlparser2';
import { Extraction } from './extraction';
import { pageLinks } from './links';
import { scanHtml } from './scan';
import type { Extracted, ExtractedBody } from './extracted';

/**
 * Title, visible text and outlinks of an HTML page. Tokenized by the scanner of scan.ts (indexOf over
 * the string, no callback per character) and, for the rare page it does not reproduce exactly, by
 * htmlparser2's Tokenizer — the same output either way (test/core/html/scan.test.ts). On docsite
 * (39 M characters of HTML, Node 20) tokenizing alone takes 71 ms against the Tokenizer's 196; the
 * whole extraction ~210 against ~350, the rest being the text itself (slices, line breaks, join)
 * which both share (npm run bench:extract). `pageUrlParsed`: the caller already
 * parsed pageUrl (it is a URL's href), so links may be resolved without parsing it again.
 */
export function extractHtml(html: string, pageUrl: string, pageUrlParsed = false): Extracted {
  return extractHtmlFast(html, pageUrl, pageUrlParsed) ?? extractHtmlTokenizer(html, pageUrl, pageUrlParsed);
}

/**
 * extractHtmlTidy's page-independent part (text tidied): with pageLinks, `extractHtmlTidy(html, url)`
 * is `{ ...body, ...pageLinks(body, url) }` without `raw` and `baseHref`.
 */
export function extractBodyTidy(html: string): ExtractedBody {
  const x = new Extraction(html, true);
  return (scanHtml(html, x) ? x : tokenize(html, true)).body();
}

/** A body and its page's links as Extracted. */
function extracted(body: ExtractedBody, pageUrl: string, pageUrlParsed: boolean): Extracted {
  const { outlinks, rawOutlinks } = pageLinks(body, pageUrl, pageUrlParsed);
  return { title: body.title, text: body.text, outlinks, rawOutlinks, templateHints: body.templateHints };
}

/**
 * extractHtml with `text` already as tidyText makes it (`tidyText(extractHtml(…).text)`, the same
 * string): the text is tidied piece by piece as the page is read, where most pieces are white space
 * between tags that then leave nothing to join, instead of joined and walked again (ingest,
 * page-builder.ts).
 */
export function extractHtmlTidy(html: string, pageUrl: string, pageUrlParsed = false): Extracted {
  return (
    extractHtmlFast(html, pageUrl, pageUrlParsed, true) ??
    extractHtmlTokenizer(html, pageUrl, pageUrlParsed, true)
  );
}

/** extractHtml on the scanner of scan.ts; null when the page needs the Tokenizer. */
export function extractHtmlFast(
  html: string,
  pageUrl: string,
  pageUrlParsed = false,
  tidy = false,
): Extracted | null {
  const x = new Extraction(html, tidy);
  return scanHtml(html, x) ? extracted(x.body(), pageUrl, pageUrlParsed) : null;
}

/**
 * extractHtml on htmlparser2's Tokenizer (its tree-building Parser layer builds an attribute object
 * for every tag and handles implied end tags, which text extraction does not need: 2× slower on
 * docsite). The reference for the scanner and its fallback. test/core/html/extract.test.ts checks
 * extractHtml against a Parser-based reference on every page of the sample crawl.
 */
export function extractHtmlTokenizer(
  html: string,
  pageUrl: string,
  pageUrlParsed = false,
  tidy = false,
): Extracted {
  return extracted(tokenize(html, tidy).body(), pageUrl, pageUrlParsed);
}

/** An Extraction fed by htmlparser2's Tokenizer (see extractHtmlTokenizer). */
function tokenize(html: string, tidy: boolean): Extraction {
  const x = new Extraction(html, tidy);
  let wanted = ''; // the link attribute of the current tag, '' when none
  let attr = '';
  let value = '';
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        wanted = x.openTag(html.slice(start, end).toLowerCase());
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
        if (wanted && attr === wanted) x.attribute(value);
      },
      onopentagend: () => x.openEnd(),
      onselfclosingtag: () => x.openEnd(), // HTML, not XML: <br/> is an open tag
      onclosetag(start, end) {
        x.closeTag(html.slice(start, end).toLowerCase());
      },
      ontext(start, end) {
        x.textRange(start, end);
      },
      ontextentity(cp) {
        x.text(String.fromCodePoint(cp));
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
  return x;
}
