import { Parser } from 'htmlparser2';
import { tidyText } from '../../../src/core/text/tidy';
import { isWebUrl, normaliseUrl } from '../../../src/core/url/normalize';
import type { Extracted } from '../../../src/core/html/extracted';

/**
 * Reference extractor on htmlparser2's Parser (the tree-building event layer), kept to check the
 * production extractor (Tokenizer-level, faster) gives the same title, text and links. Its element
 * tables are written out again on purpose, not imported from src/core/html/elements.ts: an oracle
 * that shared them could not catch an edit to them.
 */
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
const LINKS: Record<string, string> = { a: 'href', area: 'href', frame: 'src', iframe: 'src' };

export function extractHtmlReference(html: string, pageUrl: string): Omit<Extracted, 'templateHints'> {
  const parts: string[] = [];
  let hidden = 0;
  let inTitle = false;
  let pre = 0;
  let title = '';
  let base = pageUrl;
  let sawBase = false;
  const raw: string[] = [];
  const seen = new Set<string>();
  const outlinks: string[] = [];
  const rawOutlinks: string[] = [];

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (PRE.has(name)) pre++;
        if (name === 'title' && title === '') inTitle = true;
        else if (HIDDEN.has(name)) hidden++;
        if (BLOCK.has(name)) parts.push('\n');
        else if (CELL.has(name)) parts.push(' ');
        if (name === 'base' && !sawBase && attribs.href) {
          sawBase = true;
          const b = normaliseUrl(attribs.href, pageUrl);
          if (b.ok) base = b.href;
        }
        const attr = LINKS[name];
        if (attr && attribs[attr]) raw.push(attribs[attr]);
      },
      ontext(data) {
        if (inTitle) title += data;
        else if (hidden === 0) parts.push(pre > 0 ? data : data.replace(/[\r\n]+/g, ' '));
      },
      onclosetag(name) {
        if (PRE.has(name) && pre > 0) pre--;
        if (name === 'title') inTitle = false;
        else if (HIDDEN.has(name) && hidden > 0) hidden--;
        if (BLOCK.has(name)) parts.push('\n');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  // Links are resolved after parsing: <base> applies to links before it too (HTML §4.2.3).
  for (const r of raw) {
    const n = normaliseUrl(r, base);
    if (!n.ok || !isWebUrl(n.href) || seen.has(n.href)) continue;
    seen.add(n.href);
    outlinks.push(n.href);
    rawOutlinks.push(r);
  }
  return { title: foldSpaces(title), text: tidyText(parts.join('')), outlinks, rawOutlinks };
}

function foldSpaces(s: string): string {
  return tidyText(s).replace(/\n/g, ' ');
}
