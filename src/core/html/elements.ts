/**
 * What the extractor (extraction.ts) needs to know of each element: the kinds of element its text
 * handling tells apart, as bits per tag name, and which attribute of which element is a link.
 */

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
/**
 * What each element named in the sets above is, as bits: one Map lookup per tag instead of one Set
 * lookup per set (several per tag, on ~250 tags a page).
 */
export const F_PRE = 1;
export const F_CONTENT = 2;
export const F_HINT = 4;
export const F_HINT_OUTSIDE = 8;
export const F_HIDDEN = 16;
export const F_BLOCK = 32;
export const F_CELL = 64;
export const KIND = new Map<string, number>();
for (const [set, bit] of [
  [PRE, F_PRE],
  [CONTENT, F_CONTENT],
  [TEMPLATE_HINT, F_HINT],
  [TEMPLATE_HINT_OUTSIDE, F_HINT_OUTSIDE],
  [HIDDEN, F_HIDDEN],
  [BLOCK, F_BLOCK],
  [CELL, F_CELL],
] as const) {
  for (const name of set) KIND.set(name, (KIND.get(name) ?? 0) | bit);
}

/** Which attribute of which element is a link (base's href is the document's base URL). */
export const LINK_ATTR = new Map([
  ['a', 'href'],
  ['area', 'href'],
  ['frame', 'src'],
  ['iframe', 'src'],
  ['base', 'href'],
]);
