import { describe, expect, it } from 'vitest';
import {
  extractHtml,
  extractHtmlFast,
  extractHtmlTidy,
  extractHtmlTokenizer,
} from '../../../src/core/html/extract';
import type { Extracted } from '../../../src/core/html/extracted';
import { seededRandom } from '../../../src/core/random';
import { tidyText } from '../../../src/core/text/tidy';
import { samplePages } from './sample-pages';

const PAGE = 'http://site.test/x/page.html';

/** extractHtmlTidy must be extractHtml with its text through tidyText, every other field the same. */
function expectTidyOf(tidied: Extracted | null, plain: Extracted | null, what: string): void {
  // The scanner gives up (null) on the same pages in both modes.
  expect(tidied === null, what).toBe(plain === null);
  if (plain) expect(tidied, what).toEqual({ ...plain, text: tidyText(plain.text) });
}

/** Pieces HTML text is made of: every kind of white space raw and as references, in and out of <pre>. */
const PIECES = [
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '\u000b',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2003',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '&#10;',
  '&#13;',
  '&#x2028;',
  '&nbsp;',
  '&#32;',
  '&#9;',
  '&amp;',
  '&lt;',
  '&#x1F600;',
  'word',
  'a',
  '日本語',
  '😀',
  'x.y',
  '<p>',
  '</p>',
  '<br>',
  '<td>',
  '<li>',
  '<pre>',
  '</pre>',
  '<textarea>',
  '</textarea>',
  '<span>',
  '</span>',
  '<nav>',
  '</nav>',
  '<header>',
  '</header>',
  '<script>s()</script>',
  '<![CDATA[ c ]]>',
  '<plaintext>',
  '&#0;',
  '&notin',
  '\u0000',
  '\u0085',
  '<title>T &amp; t</title>',
  '<!-- c -->',
  '<div>',
  '</div>',
  '<b>',
  '</b>',
];

describe('extractHtmlTidy', () => {
  it('is extractHtml then tidyText, on random pages of every kind of white space', () => {
    const next = seededRandom(5);
    for (let t = 0; t < 3000; t++) {
      const n = Math.floor(next() * 40);
      let html = '';
      for (let i = 0; i < n; i++) html += PIECES[Math.floor(next() * PIECES.length)];
      const tidied = extractHtmlTidy(html, PAGE);
      expect(tidied).not.toBeNull();
      expectTidyOf(tidied, extractHtml(html, PAGE), JSON.stringify(html));
      // Both tokenizers, each in both modes (the Tokenizer is the fallback of the tidy path too).
      expectTidyOf(
        extractHtmlFast(html, PAGE, false, true),
        extractHtmlFast(html, PAGE),
        JSON.stringify(html),
      );
      expectTidyOf(extractHtmlTokenizer(html, PAGE, false, true), extractHtmlTokenizer(html, PAGE), html);
    }
  });

  it('keeps nothing of pages of white space only, and trims both ends', () => {
    expect(extractHtmlTidy(' \n<p>\u3000</p>&#10;&nbsp;<br>', PAGE).text).toBe('');
    expect(extractHtmlTidy('', PAGE).text).toBe('');
    expect(extractHtmlTidy('\n<p> a </p>\n<p>b\r\nc</p><pre>d\n\ne</pre> ', PAGE).text).toBe('a\nb c\nd\ne');
  });

  it('is extractHtml then tidyText on every HTML page of the sample crawl', async () => {
    const pages = await samplePages();
    expect(pages.length).toBeGreaterThan(100);
    for (const p of pages) {
      expectTidyOf(extractHtmlTidy(p.html, p.url), extractHtml(p.html, p.url), p.url);
      expectTidyOf(extractHtmlFast(p.html, p.url, false, true), extractHtmlFast(p.html, p.url), p.url);
    }
  });
});
