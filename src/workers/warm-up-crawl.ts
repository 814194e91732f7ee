/**
 * A small WARC.gz made in the worker for its warm-up (warm-up.ts), read after the embedded sample: pages
 * whose HTML takes the forms real pages take and the sample's generated pages do not. Why: V8 optimises a
 * function for the branches it has seen run; a branch first taken during a drop throws that code away
 * ("deopt: insufficient type feedback") and compiles it again while the drop is read, on the same cores.
 * After the sample alone, docsite's drop deoptimised 86 times and compiled for 0.45 s (Chromium's
 * --trace-opt --trace-deopt), most of it in the HTML scanner and the text and link extraction.
 *
 * What real pages take that the sample does not was listed by block coverage of the core (V8's precise
 * coverage, in Node) over the sample against docsite and iana.warc.gz: numeric entities (decimal, hex,
 * invalid), entities in attribute values and without their semicolon, comments of every shape, processing
 * instructions and CDATA, white space and line breaks inside tags, upper-case tags and attributes,
 * unquoted and single-quoted attributes, raw-text elements holding `<` and `</`, indented source with runs
 * of white space, relative links of every form and `<base>`, links in odd schemes, redirects, stated and
 * absent digests, a gzip header with an extra field.
 *
 * HTML only: the bodies are UTF-8, `text/html`, whole. A first version also varied charsets (windows-1252,
 * UTF-16, Shift_JIS, GBK), types, chunked and gzip-coded bodies and revisits: docsite's drop 0.729 →
 * 0.705 s, but a generated crawl's 0.695 → 0.734 s (code compiled for more kinds of input runs slower on
 * the plain kind). This one, drops 4–6 s after the page opened, alternated, medians: docsite 0.758 → 0.678
 * s (7 each; every drop faster) and 0.760 → 0.655 s (5), iana.warc.gz 0.142 → 0.135 s, a generated 12 MB
 * crawl of a seed never used to choose anything 0.706 / 0.714 s, the generated 210 MB file 8.40 / 8.43 s.
 *
 * Deterministic (a seeded generator, fixed dates): 48 captures, 105 records, ~100 KB.
 */
import { joinBytes } from '../core/bytes';
import { seededRandom } from '../core/random';
import { sha1Digest } from '../core/text/sha1';

const enc = new TextEncoder();
const CRLF = '\r\n';

const WORDS = (
  'index package archive mirror release source binary section manual chapter reference daemon kernel ' +
  'module network address route socket service config option default value entry table column record ' +
  'stream buffer offset length digest header payload request response capture crawler frontier queue'
).split(' ');
const ACCENTED = ['café', 'naïve', 'Größe', 'señal', 'déjà', 'Ærø'];
const WIDE = ['中文文本', '日本語のページ', '한국어', '😀 emoji', 'Ελληνικά', 'русский'];

/** Links in the forms a page's outlinks take (relative, absolute, odd schemes, entities, spaces). */
const LINKS = [
  'page.html',
  './a/b.html',
  '../up/index.html',
  '/root/path?x=1&amp;y=2',
  '?q=search+terms',
  '#section-2',
  '//other.example.test/x',
  'https://WWW.Example.TEST:443/Path/../p?b=2&a=1#frag',
  'http://example.test:80/a//b/./c',
  'mailto:someone@example.test',
  'javascript:void(0)',
  'tel:+1-555-0100',
  ' spaced.html ',
  'data:text/plain,hello',
  'Page%20Two.HTML',
  'caf%C3%A9/men\u00fc.html',
];

const ENTITIES =
  '&nbsp;&amp;&lt;&gt;&quot;&apos;&copy;&mdash;&hellip;&rsquo;&eacute; &#160;&#8212;&#39;&#x2014;&#XA0;' +
  '&#x1F600; &#0;&#128;&#x110000;&#xD800; &amp x &copy 2024 &notit; &foo; &#; &#x;';

export async function warmUpCrawl(seed = 7): Promise<Uint8Array> {
  let recordId = 0;
  const rnd = seededRandom(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)];
  const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const members: Uint8Array[] = [];
  const add = async (headers: [string, string][], block: Uint8Array, extra = false) =>
    members.push(await gzip(warcRecord(recordId++, headers, block), extra));
  await add(
    [
      ['WARC-Type', 'warcinfo'],
      ['WARC-Date', '2024-01-01T00:00:00Z'],
      ['Content-Type', 'application/warc-fields'],
    ],
    enc.encode('software: dedup-workbench warm-up\r\nformat: WARC File Format 1.1\r\n'),
  );
  const nav = `<div class="nav">${LINKS.map((l, k) => `<a href="${l}">link ${k}</a>`).join(' | ')}</div>`;
  const first: string[] = [];
  for (let i = 0; i < 48; i++) {
    const host = ['example.test', 'www.example.test', 'docs.example.test', 'xn--caf-dma.example.test'][i % 4];
    const uri = `${i % 3 ? 'https' : 'http'}://${host}/${['', 'docs/', 'a/b/'][i % 3]}p${i}.html${i % 5 ? '' : '?id=' + i}`;
    const date = `2024-01-01T00:${String(i).padStart(2, '0')}:00Z`;
    const text = `${sentence(40)} ${pick(ACCENTED)} ${pick(WIDE)} ${sentence(30)}`;
    const body = enc.encode(page(i, text, nav, sentence));
    const status = i % 11 === 5 ? 301 : i % 13 === 7 ? 404 : 200;
    const headers: [string, string][] = [
      ['Content-Type', 'text/html; charset=utf-8'],
      ['Content-Length', String(body.length)],
      ...(status === 301 ? [['Location', LINKS[i % LINKS.length]] as [string, string]] : []),
    ];
    const http = joinBytes([enc.encode(httpHead(status, headers)), body]);
    // Every other capture states its digests (checked), the others have theirs computed.
    const stated: [string, string][] =
      i % 2
        ? []
        : [
            ['WARC-Payload-Digest', sha1Digest(body)],
            ['WARC-Block-Digest', sha1Digest(http)],
          ];
    await add(
      [
        ['WARC-Type', 'request'],
        ['WARC-Target-URI', uri],
        ['WARC-Date', date],
        ['Content-Type', 'application/http; msgtype=request'],
      ],
      enc.encode(`GET /p${i}.html HTTP/1.1${CRLF}Host: ${host}${CRLF}User-Agent: warm-up${CRLF}${CRLF}`),
    );
    await add(
      [
        ['WARC-Type', 'response'],
        ['WARC-Target-URI', uri],
        ['WARC-Date', date],
        ['Content-Type', 'application/http; msgtype=response'],
        ...stated,
      ],
      http,
      i % 6 === 0,
    );
    if (i < 2) first.push(uri);
  }
  await add(
    [
      ['WARC-Type', 'metadata'],
      ['WARC-Target-URI', first[0]],
      ['WARC-Date', '2024-01-03T00:00:00Z'],
      ['Content-Type', 'application/warc-fields'],
    ],
    enc.encode(`outlink: ${first[1]} L a/@href${CRLF}`),
  );
  await add(
    [
      ['WARC-Type', 'resource'],
      ['WARC-Target-URI', 'https://example.test/notes.txt'],
      ['WARC-Date', '2024-01-03T00:00:00Z'],
      ['Content-Type', 'text/plain'],
    ],
    enc.encode(sentence(200)),
  );
  return joinBytes(members);
}

function page(i: number, text: string, nav: string, sentence: (n: number) => string): string {
  const xml = i % 3 === 0 ? '<?xml version="1.0" encoding="UTF-8"?>\n' : '';
  const base = i % 8 === 2 ? '<base href="https://example.test/base/dir/">' : '';
  return (
    `${xml}<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n` +
    `<html lang=en xmlns="http://www.w3.org/1999/xhtml"><head>${base}` +
    `<title>Page ${i} &mdash; ${sentence(3)} &amp; more</title>` +
    `<meta name="description" content="A &amp; B &#8212; ${sentence(4)}"><link rel=stylesheet href='../css/site.css' type="text/css"/>` +
    `<style type="text/css">p > a { color: red } /* </p> */</style>` +
    `<script>if (a < b && c > d) { document.write("</p>"); } var s = '<!-- x -->';</script>` +
    `<script type="application/ld+json">{"@type": "WebPage", "name": "p${i}"}</script></head>\n` +
    `<BODY class='c${i % 3}' data-x = "1" ><!-- header --><!----><!-- a -- b --><!--[if IE]><p>old</p><![endif]-->` +
    `<noscript>enable scripts</noscript>${nav}\n` +
    `<div id=main>\n    <H1>Heading ${i}</H1>\n    <p>\n      ${text} \n      ${i % 2 ? ENTITIES : ''}\t\n    <p>${sentence(12)}  ${sentence(13)} \r\n` +
    `<A HREF="Page${i + 1}.HTML" title='next &quot;one&quot;'>next</A> <a\nhref="sub/p${i}.html"\n>sub</a> ` +
    `<img src=img${i}.png alt="&lt;img&gt; ${i}"><br/><br><hr>` +
    `<ul><li>${sentence(5)}<li>${sentence(6)}</ul><table><tr><th>k<th>v<tr><td>${i}<td>${sentence(3)}</table>` +
    `<pre>  code line\n    &lt;tag attr="v"&gt;\n</pre><textarea>a < b</textarea><![CDATA[ raw ]]><?php echo 1; ?>` +
    `<h2>Section</h2><p>${sentence(60)}</p></div>` +
    `<div class="footer"><p>Copyright &copy; 2024 Example. ${sentence(8)}</p></div></body></html>`
  );
}

function httpHead(status: number, headers: [string, string][]): string {
  const reason = status === 200 ? 'OK' : status === 301 ? 'Moved Permanently' : 'Not Found';
  return `HTTP/1.1 ${status} ${reason}${CRLF}${headers.map(([k, v]) => `${k}: ${v}${CRLF}`).join('')}${CRLF}`;
}

function warcRecord(id: number, headers: [string, string][], block: Uint8Array): Uint8Array {
  const all: [string, string][] = [
    ['WARC-Record-ID', `<urn:uuid:00000000-0000-4000-8000-${String(id).padStart(12, '0')}>`],
    ...headers,
    ['Content-Length', String(block.length)],
  ];
  const head = `WARC/1.1${CRLF}${all.map(([k, v]) => `${k}: ${v}${CRLF}`).join('')}${CRLF}`;
  return joinBytes([enc.encode(head), block, enc.encode(CRLF + CRLF)]);
}

/** One gzip member (CompressionStream); `extra`: with an FEXTRA field in its header, as some writers add. */
async function gzip(bytes: Uint8Array, extra: boolean): Promise<Uint8Array> {
  const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new CompressionStream('gzip'));
  const out = new Uint8Array(await new Response(stream).arrayBuffer());
  if (!extra) return out;
  // FLG.FEXTRA, XLEN 8: one subfield 'sl' of 4 bytes (the header's CRC is not set, FHCRC stays off).
  const field = Uint8Array.from([8, 0, 0x73, 0x6c, 4, 0, 0, 0, 0, 0]);
  const head = out.slice(0, 10);
  head[3] |= 4;
  return joinBytes([head, field, out.subarray(10)]);
}
