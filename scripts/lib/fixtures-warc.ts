// Well-formed and odd-but-valid WARC / ARC fixtures.

import { encodeLegacy } from './legacy-encodings.ts';
import { skippableFrame, zstdFrame } from './zstd-frames.ts';
import { type Fixture, START, WarcBuilder, htmlPage } from './fixture-builder.ts';
import {
  type HeaderList,
  arcFileHeader,
  arcRecord,
  chunked,
  date14,
  gzipMember,
  httpDate,
  httpResponse,
  isoDate,
  sha1Base32,
  warcFields,
} from './warc-writer.ts';

const T = 'http://www.example.test';
const html = (s: string): Buffer => Buffer.from(s, 'utf8');
const HTML_UTF8: HeaderList = [['Content-Type', 'text/html; charset=utf-8']];

export function tiny(): Fixture[] {
  const b = new WarcBuilder('tiny', '1.1');
  b.warcinfo('tiny.warc');
  const pages: Array<[string, string]> = [
    [`${T}/`, 'Tiny home'],
    [`${T}/a.html`, 'Tiny page A'],
    [`${T}/b.html`, 'Tiny page B'],
  ];
  const links = '<p><a href="/">home</a> <a href="a.html">A</a> <a href="b.html">B</a></p>';
  const bodies = pages.map(([, title]) =>
    html(htmlPage(title, `<p>This is ${title.toLowerCase()}.</p>\n${links}`)),
  );
  const ids = pages.map(([url], i) => b.pair(url, 200, HTML_UTF8, bodies[i]));
  b.add('resource', {
    targetUri: `${T}/notes.txt`,
    date: '2024-01-15T10:00:40.123456Z',
    headers: [['Content-Type', 'text/plain; charset=utf-8']],
    block: html('A resource record: stored without HTTP headers.\n'),
  });
  b.add('metadata', {
    targetUri: `${T}/`,
    headers: [['WARC-Concurrent-To', ids[0]]],
    block: warcFields([
      ['outlink', `${T}/a.html L a/@href`],
      ['outlink', `${T}/b.html L a/@href`],
    ]),
  });
  b.add('revisit', {
    targetUri: `${T}/`,
    headers: [
      ['WARC-Profile', 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest'],
      ['WARC-Refers-To', ids[0]],
      ['WARC-Refers-To-Target-URI', `${T}/`],
      ['WARC-Refers-To-Date', isoDate(START, 5)],
      ['WARC-Payload-Digest', sha1Base32(bodies[0])],
    ],
    block: httpResponse(200, [['Content-Type', 'text/html; charset=utf-8']], Buffer.alloc(0), {
      autoLength: false,
    }),
  });
  const counts = b.counts();
  const titles = Object.fromEntries(pages);
  const expect = [
    `10 records: ${JSON.stringify(counts)} (WARC/1.1)`,
    `3 HTML responses with titles ${pages.map(([, t]) => `"${t}"`).join(', ')}`,
    `revisit (identical-payload-digest) refers to the response for ${T}/ (${ids[0]}) and has the same payload digest`,
    'resource record has a WARC-Date with microseconds (2024-01-15T10:00:40.123456Z, allowed by WARC 1.1)',
  ];
  const raw = b.raw();
  return [
    { name: 'tiny.warc', data: raw, about: 'Uncompressed WARC/1.1.', expect, counts, titles },
    {
      name: 'tiny.warc.gz',
      data: b.gz(),
      about: 'Same records, one gzip member per record.',
      expect,
      counts,
      titles,
    },
    {
      name: 'tiny.warc.zst',
      data: Buffer.concat(b.records.map((r) => zstdFrame(r))),
      about:
        'Same records, one zstd frame per record (the WARC zstd layout without its dictionary; Raw blocks: Node has no zstd compressor, a frame needs none).',
      expect: [...expect, "each record at its frame: offsets are the frames' starts"],
      counts,
      titles,
    },
    {
      name: 'tiny-dictionary.warc.zst',
      data: Buffer.concat([
        skippableFrame(Buffer.from('a zstd dictionary would be here'), 0xd),
        ...b.records.map((r) => zstdFrame(r)),
      ]),
      about:
        'The WARC zstd layout with its dictionary: a skippable frame (0x184D2A5D) holding the dictionary (raw content), then a frame per record decoded with it (Raw blocks, no dictionary id in their headers).',
      expect: [
        'refused before any page: zstd dictionaries cannot be read; the reason says to decompress it first',
      ],
      counts: { refused: true },
    },
    {
      name: 'tiny-single-member.warc.gz',
      data: gzipMember(raw),
      about:
        'Same uncompressed bytes as tiny.warc gzipped as ONE member (not seekable per record): read in order by default, with one note on the dataset.',
      expect,
      counts,
      titles,
    },
  ];
}

export function wgetAngle(): Fixture {
  const b = new WarcBuilder('wget', '1.0');
  b.warcinfo('wget-angle.warc.gz', 'Wget/1.14 (linux-gnu)');
  const pages: Array<[string, string]> = [
    [`${T}/wget/`, 'Wget index'],
    [`${T}/wget/page.html?x=1&y=2`, 'Wget page with query'],
  ];
  for (const [url, title] of pages) {
    b.pair(url, 200, [['Content-Type', 'text/html']], html(htmlPage(title, '<p>Fetched by wget.</p>')), {
      angle: true,
    });
  }
  b.add('metadata', {
    targetUri: '<metadata://gnu.org/software/wget/warc/MANIFEST.txt>',
    headers: [['Content-Type', 'text/plain']],
    block: html(`${b.warcinfoId}\n`),
  });
  b.add('resource', {
    targetUri: '<metadata://gnu.org/software/wget/warc/wget_arguments.txt>',
    headers: [['Content-Type', 'text/plain']],
    block: html('"--warc-file=wget-angle" "http://www.example.test/wget/" \n'),
  });
  const counts = b.counts();
  return {
    name: 'wget-angle.warc.gz',
    data: b.gz(),
    about: 'WARC/1.0 as written by wget 1.14: every WARC-Target-URI is wrapped in <angle brackets>.',
    expect: [
      `${b.types.length} records: ${JSON.stringify(counts)}`,
      `target URIs must be reported WITHOUT the brackets, e.g. ${pages[0][0]} and ${pages[1][0]}`,
    ],
    counts,
    titles: Object.fromEntries(pages),
  };
}

export function charsets(): Fixture {
  const b = new WarcBuilder('charsets', '1.0');
  b.warcinfo('charsets.warc.gz');
  const C = 'http://charsets.example.test';
  const cases: Array<{
    path: string;
    title: string;
    enc: 'utf8' | 'utf8-bom' | Parameters<typeof encodeLegacy>[1];
    ct: string;
    head: string;
    note: string;
  }> = [
    {
      path: '/cp1252.html',
      title: 'Café “Zürich” – menu €5',
      enc: 'windows-1252',
      ct: 'text/html; charset=windows-1252',
      head: '',
      note: 'charset only in the HTTP header; uses bytes 0x80-0x9F',
    },
    {
      path: '/gbk.html',
      title: '简体中文测试页面：你好，世界',
      enc: 'gbk',
      ct: 'text/html',
      head: '<meta charset="gbk">\n',
      note: 'only <meta charset="gbk">',
    },
    {
      path: '/big5.html',
      title: '繁體中文測試頁面：臺灣',
      enc: 'big5',
      ct: 'text/html',
      head: '<meta http-equiv="Content-Type" content="text/html; charset=big5">\n',
      note: 'only <meta http-equiv> charset=big5',
    },
    {
      path: '/gb18030.html',
      title: 'GB18030 测试页 😀 𠀀',
      enc: 'gb18030',
      ct: 'text/html; charset=GB18030',
      head: '',
      note: 'header charset; title has 4-byte GB18030 sequences',
    },
    {
      path: '/utf8-bom.html',
      title: 'UTF-8 BOM: naïve café ✓ 日本',
      enc: 'utf8-bom',
      ct: 'text/html',
      head: '',
      note: 'UTF-8 with BOM, no charset anywhere',
    },
    {
      path: '/sjis.html',
      title: '日本語のテストページ：東京',
      enc: 'shift_jis',
      ct: 'text/html; charset=Shift_JIS',
      head: '',
      note: 'header charset Shift_JIS',
    },
    {
      path: '/conflict.html',
      title: 'Header wins: Ελληνικά',
      enc: 'utf8',
      ct: 'text/html; charset=utf-8',
      head: '<meta charset="iso-8859-1">\n',
      note: 'UTF-8 bytes; header says utf-8, <meta> says iso-8859-1 (header wins)',
    },
  ];
  const titles: Record<string, string> = {};
  const notes: string[] = [];
  for (const c of cases) {
    const doc = htmlPage(c.title, `<p>${c.title}</p>`, c.head);
    let body: Buffer;
    if (c.enc === 'utf8') body = html(doc);
    else if (c.enc === 'utf8-bom') body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), html(doc)]);
    else body = encodeLegacy(doc, c.enc);
    b.response(C + c.path, [['Content-Type', c.ct]], body);
    titles[C + c.path] = c.title;
    notes.push(`${C + c.path}: ${c.note} -> "${c.title}"`);
  }
  const counts = b.counts();
  return {
    name: 'charsets.warc.gz',
    data: b.gz(),
    about: 'One response per charset case; bodies contain the title again in a <p>.',
    expect: [`${b.types.length} records: ${JSON.stringify(counts)}`, ...notes],
    counts,
    titles,
  };
}

export function chunkedGzip(): Fixture {
  const b = new WarcBuilder('chunked', '1.0');
  b.warcinfo('chunked-gzip.warc.gz');
  const C = 'http://encodings.example.test';
  const doc = (title: string): Buffer =>
    html(
      htmlPage(
        title,
        Array.from({ length: 12 }, (_, i) => `<p>Line ${i + 1} of ${title.toLowerCase()}.</p>`).join('\n'),
      ),
    );
  const chunkedBody = chunked(doc('Chunked transfer'), 200);
  // A chunk extension on the first chunk (legal HTTP/1.1; decoders must ignore it).
  const firstLineEnd = chunkedBody.indexOf('\r\n');
  const withExt = Buffer.concat([
    chunkedBody.subarray(0, firstLineEnd),
    Buffer.from(';ext=1'),
    chunkedBody.subarray(firstLineEnd),
  ]);
  b.pair(`${C}/chunked.html`, 200, [...HTML_UTF8, ['Transfer-Encoding', 'chunked']], withExt);
  b.pair(
    `${C}/gzip.html`,
    200,
    [...HTML_UTF8, ['Content-Encoding', 'gzip']],
    gzipMember(doc('Gzip content')),
  );
  b.pair(
    `${C}/both.html`,
    200,
    [...HTML_UTF8, ['Content-Encoding', 'gzip'], ['Transfer-Encoding', 'chunked']],
    chunked(gzipMember(doc('Chunked and gzipped')), 100),
  );
  const counts = b.counts();
  return {
    name: 'chunked-gzip.warc.gz',
    data: b.gz(),
    about: 'Stored HTTP bodies with transfer and content codings still applied.',
    expect: [
      `${b.types.length} records: ${JSON.stringify(counts)}`,
      `${C}/chunked.html: Transfer-Encoding: chunked (200-byte chunks, first chunk has a ";ext=1" extension)`,
      `${C}/gzip.html: Content-Encoding: gzip`,
      `${C}/both.html: gzip body, then chunked (100-byte chunks); de-chunk first, then gunzip`,
      'each decoded body is an HTML page with 12 "Line N of ..." paragraphs',
    ],
    counts,
    titles: {
      [`${C}/chunked.html`]: 'Chunked transfer',
      [`${C}/gzip.html`]: 'Gzip content',
      [`${C}/both.html`]: 'Chunked and gzipped',
    },
  };
}

export function tinyArc(): Fixture[] {
  const d = date14(START);
  const pages: Array<[string, string, string]> = [
    [`${T}/`, '192.0.2.80', 'ARC home'],
    [`${T}/one.html`, '192.0.2.80', 'ARC page one'],
    [`${T}/two.html`, '192.0.2.81', 'ARC page two'],
  ];
  const records = [arcFileHeader('tiny.arc', d)];
  pages.forEach(([url, ip, title], i) => {
    const date = isoDate(START, 10 * (i + 1));
    const body = html(htmlPage(title, '<p>Stored in an ARC v1 file.</p>'));
    const http = httpResponse(
      200,
      [
        ['Date', httpDate(date)],
        ['Content-Type', 'text/html'],
      ],
      body,
      { httpVersion: 'HTTP/1.0' },
    );
    records.push(arcRecord(url, ip, date14(date), 'text/html', http));
  });
  const counts = { filedesc: 1, records: 3 };
  const expect = [
    'ARC v1: a filedesc:// version block, then 3 records (each block is a full HTTP/1.0 response)',
    `URLs ${pages.map(([u]) => u).join(', ')}; dates 20240115100010, ...20, ...30`,
  ];
  const titles = Object.fromEntries(pages.map(([u, , t]) => [u, t]));
  return [
    { name: 'tiny.arc', data: Buffer.concat(records), about: 'Uncompressed ARC v1.', expect, counts, titles },
    {
      name: 'tiny.arc.gz',
      data: Buffer.concat(records.map(gzipMember)),
      about: 'Same, one gzip member per record.',
      expect,
      counts,
      titles,
    },
  ];
}

/**
 * A WET file as Common Crawl writes them (CC-MAIN-*.warc.wet.gz): a warcinfo record, then one
 * `conversion` record per page, its block the page's extracted text (text/plain, UTF-8),
 * `WARC-Refers-To` the response record it was extracted from (in the WARC, not in this file),
 * `WARC-Identified-Content-Language` and `WARC-Block-Digest`; one gzip member per record. Four pages:
 * two with the same text under different URLs, one near copy of them, and one other.
 */
export function wet(): Fixture {
  const b = new WarcBuilder('wet', '1.0');
  b.warcinfo('CC-MAIN-20240115-00000.warc.wet.gz', 'dedup-workbench scripts/make-fixtures.ts (WET layout)');
  const story =
    'The river rose overnight after three days of rain.\nResidents of the lower town moved their cars to the hill ' +
    'road, and the ferry stopped running at noon.\nThe council opened the school gym as a shelter.';
  const texts: Array<[string, string, string]> = [
    [`${T}/news/flood`, story, 'eng'],
    [`${T}/news/flood?utm_source=feed`, story, 'eng'],
    [`${T}/print/news/flood`, story.replace('three days', 'four days'), 'eng'],
    [
      `${T}/recettes/tarte`,
      'Tarte aux pommes.\nÉplucher les pommes, les couper en lamelles, cuire 35 minutes à 180 °C.',
      'fra',
    ],
  ];
  for (const [url, text, lang] of texts)
    b.add('conversion', {
      targetUri: url,
      headers: [
        ['WARC-Refers-To', b.nextId()],
        ['Content-Type', 'text/plain'],
        ['WARC-Identified-Content-Language', lang],
      ],
      block: html(text),
    });
  const counts = b.counts();
  return {
    name: 'wet.warc.wet.gz',
    data: Buffer.concat(b.records.map(gzipMember)),
    about:
      "Common Crawl's WET layout: `conversion` records holding each page's extracted text (the text is the page, WARC-Target-URI its URL); one gzip member per record.",
    expect: [
      `${texts.length + 1} records: ${JSON.stringify(counts)}`,
      `${texts.length} pages, their text the record's block: ${texts.map(([u]) => u).join(', ')}`,
      'the first two have the same text (the same fingerprint); the third changes one word',
    ],
    counts,
    titles: {},
  };
}
