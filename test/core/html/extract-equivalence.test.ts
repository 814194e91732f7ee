import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../src/core/html/extract';
import type { Extracted } from '../../../src/core/html/extracted';
import { tidyText } from '../../../src/core/text/tidy';
import { extractHtmlReference } from './reference-extract';
import { samplePages } from './sample-pages';

const TRICKY = [
  '<title>A &amp; B</title><p>x<br>y<br/>z</p>',
  '<p>one<p>two<div>three</div>four',
  '<table><tr><td>a<td>b</tr><tr><th>c</th></table>',
  '<script>if (a < b) document.write("</p>")</script><p>after</p>',
  '<style>p{}</style><noscript><p>no</p></noscript><template><p>t</p></template>visible',
  '<!-- <p>comment</p> --><p>text &eacute;&#233;&#x00E9; &nbsp;x</p>',
  '<base href="/dir/"><a href="a.html">A</a><a href="../b.html#frag">B</a><A HREF="HTTP://Example.COM:80/c">C</A>',
  '<a href="?q=1&amp;r=2">q</a><a href=unquoted.html>u</a><a href="javascript:void(0)">j</a><a href="mailto:x@y">m</a>',
  '<iframe src="/frame.html"></iframe><area href="/area.html"><a>no href</a><a href="">empty</a>',
  '<TITLE>Upper</TITLE><P>Para</P><svg><title>svg title</title></svg>',
  '<p>中文句子。第二句。</p><li>item</li>',
  '<textarea><p>not a tag</p></textarea><xmp><b>raw</b></xmp>',
  '<p>unclosed <b>bold <i>italic</p> tail',
  '<title>t1</title><title>t2</title><body><p>b</p>',
  '<title>\u3000A\ufeff\u2028B\u00a0\u180e C\r\n\t&#x2003;D\u200b</title><p>p</p>',
];

describe('Tokenizer extractor = Parser reference', () => {
  it('agrees on hand-written tricky HTML', () => {
    for (const html of TRICKY) {
      const a = extractHtml(html, 'http://site.test/x/page.html');
      const b = extractHtmlReference(html, 'http://site.test/x/page.html');
      expect({ ...withoutHints(a), text: tidyText(a.text) }, html).toEqual(b);
    }
  });

  it('agrees on every HTML page of the sample crawl', async () => {
    const pages = await samplePages();
    expect(pages.length).toBeGreaterThan(100);
    for (const p of pages) {
      const a = extractHtml(p.html, p.url);
      const b = extractHtmlReference(p.html, p.url);
      expect({ ...withoutHints(a), text: tidyText(a.text) }, p.url).toEqual(b);
    }
  });
});

/** The reference extracts text only: the template hints are checked in extract.test.ts. */
function withoutHints(x: Extracted): Omit<Extracted, 'templateHints'> {
  return { title: x.title, text: x.text, outlinks: x.outlinks, rawOutlinks: x.rawOutlinks };
}
