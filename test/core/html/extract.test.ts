import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../src/core/html/extract';
import { tidyText } from '../../../src/core/text/tidy';
import { textLines } from '../helpers';

const PAGE = 'http://site.test/p/page.html';
const lines = (html: string) => textLines(extractHtml(html, PAGE).text);

describe('extractHtml: text', () => {
  it('drops the content of script, style, template and noscript', () => {
    const html =
      '<html><head><title>T</title><style>p { color: red }</style>' +
      '<script>var s = "<p>not text</p>"; if (a < b) {}</script></head><body>' +
      '<template><p>template text</p></template><noscript><p>noscript text</p></noscript>' +
      '<p>visible</p><script type="application/ld+json">{"x": 1}</script><p>also visible</p></body></html>';
    const text = extractHtml(html, PAGE).text;
    expect(textLines(text)).toEqual(['visible', 'also visible']);
    for (const hidden of ['not text', 'color', 'template text', 'noscript text', '"x"']) {
      expect(text).not.toContain(hidden);
    }
  });

  it('makes block boundaries line breaks and keeps inline elements on one line', () => {
    const html =
      '<div>a<span>b</span></div><p>c</p>d<br>e<br/>f<ul><li>g</li><li>h</li></ul>' +
      '<table><tr><td>i</td><td>j</td></tr><tr><th>k</th></tr></table><h1>l</h1><b>m</b><i>n</i>';
    expect(lines(html)).toEqual(['ab', 'c', 'd', 'e', 'f', 'g', 'h', 'i j', 'k', 'l', 'mn']);
  });

  it('folds white space and decodes entities in text and title', () => {
    const x = extractHtml(
      '<title>  A &amp;\n  B  </title><p>x &lt;b&gt; &eacute;&#233;&#x41;&nbsp;y \t   z</p>',
      PAGE,
    );
    expect(x.title).toBe('A & B');
    expect(textLines(x.text)).toEqual(['x <b> ééA y z']);
  });

  // Regression test (fixed in src).
  it('folds source line breaks inside a paragraph like other white space', () => {
    expect(textLines(extractHtml('<p>y\n\n   z</p><p>next</p>', PAGE).text)).toEqual(['y z', 'next']);
  });

  it('takes the first <title> and keeps it out of the text', () => {
    const x = extractHtml('<title>First</title><title>Second</title><p>body</p>', PAGE);
    expect(x.title).toBe('First');
    expect(textLines(x.text)).not.toContain('First');
    expect(textLines(x.text)).toContain('body');
  });

  it('never returns markup from hostile input', () => {
    const x = extractHtml(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p><img src=x onerror=alert(1)><svg onload=alert(1)>',
      PAGE,
    );
    expect(textLines(x.text)).toEqual(['<script>alert(1)</script>']);
    expect(x.text).not.toContain('onerror');
  });
});

describe('extractHtml: outlinks', () => {
  it('resolves against the page URL, drops the fragment, lowercases the host and drops the default port', () => {
    const x = extractHtml(
      '<a href="a.html#frag">1</a><a href="HTTP://WWW.Example.TEST:80/Path?Q=1#x">2</a>' +
        '<a href="https://secure.test:443/s">3</a><a href="http://ports.test:8080/">4</a>',
      PAGE,
    );
    expect(x.outlinks).toEqual([
      'http://site.test/p/a.html',
      'http://www.example.test/Path?Q=1',
      'https://secure.test/s',
      'http://ports.test:8080/',
    ]);
    expect(x.rawOutlinks).toEqual([
      'a.html#frag',
      'HTTP://WWW.Example.TEST:80/Path?Q=1#x',
      'https://secure.test:443/s',
      'http://ports.test:8080/',
    ]);
  });

  it('resolves against <base href>, for links before it too; only the first <base> counts', () => {
    const x = extractHtml(
      '<a href="before.html">b</a><base href="/dir/sub/"><base href="http://other.test/"><a href="../up.html">u</a>',
      PAGE,
    );
    expect(x.outlinks).toEqual(['http://site.test/dir/sub/before.html', 'http://site.test/dir/up.html']);
    expect(x.rawOutlinks).toEqual(['before.html', '../up.html']);
  });

  it('decodes entities in attributes and reads unquoted attributes', () => {
    const x = extractHtml('<a href="?q=1&amp;r=2">q</a><A HREF=unquoted.html>u</A>', PAGE);
    expect(x.outlinks).toEqual(['http://site.test/p/page.html?q=1&r=2', 'http://site.test/p/unquoted.html']);
  });

  it('keeps http(s) links of a, area, frame and iframe once each; drops other schemes and empty hrefs', () => {
    const x = extractHtml(
      '<a href="/x">x</a><a href="/x#again">x again</a><area href="/area"><iframe src="/frame"></iframe>' +
        '<frame src="//cdn.test/f"><a href="mailto:a@b.test">m</a><a href="javascript:alert(1)">j</a>' +
        '<a href="data:text/html,hi">d</a><a href="ftp://files.test/">f</a><a href="">empty</a><a>none</a>' +
        '<img src="/img.png"><link href="/style.css">',
      PAGE,
    );
    expect(x.outlinks).toEqual([
      'http://site.test/x',
      'http://site.test/area',
      'http://site.test/frame',
      'http://cdn.test/f',
    ]);
    expect(x.rawOutlinks).toEqual(['/x', '/area', '/frame', '//cdn.test/f']);
  });
});

describe('tidyText', () => {
  it('folds runs of white space, trims lines and drops empty ones', () => {
    expect(tidyText('\n  a \t b  \n\n\r\n   \n c\u00a0\u00a0d \n')).toBe('a b\nc d');
    expect(tidyText('')).toBe('');
    expect(tidyText(' \n\t ')).toBe('');
    expect(tidyText('one')).toBe('one');
  });

  it('agrees with a regex reference on mixed white space', () => {
    const samples = ['x\r\ny', '\u3000wide\u3000space\u3000', 'a\u2003b\u200ac', ' \ufeffbom', 'p\u2028q'];
    for (const s of samples) {
      const ref = s
        .split(/[\n\r\u2028\u2029]/)
        .map((l) => l.replace(/[\s\ufeff]+/g, ' ').trim())
        .filter((l) => l !== '')
        .join('\n');
      expect(tidyText(s), JSON.stringify(s)).toBe(ref);
    }
  });
});

describe('extractHtml: template hints', () => {
  it('lists the lines inside nav, aside and page-level header/footer without changing the text', () => {
    const html =
      '<body><header><a href="/">Home</a></header><nav><ul><li>Guide</li><li>FAQ</li></ul></nav>' +
      '<main><article><header><h1>Own title</h1></header><p>Own text.</p><footer>By me</footer></article></main>' +
      '<aside>Related</aside><footer>© Site</footer></body>';
    const x = extractHtml(html, 'http://site.test/a');
    expect(tidyText(x.text).split('\n')).toEqual([
      'Home',
      'Guide',
      'FAQ',
      'Own title',
      'Own text.',
      'By me',
      'Related',
      '© Site',
    ]);
    // header/footer inside <article> are the article's own; nav and aside are template anywhere.
    expect(x.templateHints).toEqual(['Home', 'Guide', 'FAQ', 'Related', '© Site']);
  });

  it('gives no hints for a page without such elements', () => {
    expect(extractHtml('<p>one</p><div>two</div>', 'http://site.test/').templateHints).toEqual([]);
  });
});
