// Crawls as archivists keep them: a WACZ 1.1.1 (as Browsertrix / py-wacz write it), a ZIP that is not
// a WACZ, and a Heritrix crawl.log cut out of a metadata ARC (its ARC header line still on top, a
// cut line inside, Heritrix's own negative codes).

import { createHash } from 'node:crypto';
import { zipSync, type Zippable } from 'fflate';
import { type Fixture, WarcBuilder, htmlPage } from './fixture-builder.ts';
import { date14, gzipMember, type HeaderList } from './warc-writer.ts';

const T = 'https://archive.example.test';
const HTML: HeaderList = [['Content-Type', 'text/html; charset=utf-8']];
const text = (s: string): Buffer => Buffer.from(s, 'utf8');
/** Fixed ZIP times, so re-running the script does not change a byte. */
const MTIME = new Date('2024-01-15T10:00:00Z');
const sha256 = (b: Uint8Array) => 'sha256:' + createHash('sha256').update(b).digest('hex');

interface Captured {
  url: string;
  title: string;
}

/** A WARC of request/response pairs, one gzip member per record when `gzip` (WARC 1.1 Annex D). */
function warc(name: string, pages: Captured[], extra: (b: WarcBuilder) => void, gzip: boolean): Buffer {
  const b = new WarcBuilder(name, '1.1');
  b.warcinfo(name, 'Browsertrix-Crawler 1.0 (fixture written by scripts/make-fixtures.ts)');
  for (const p of pages)
    b.pair(p.url, 200, HTML, text(htmlPage(p.title, `<p>${p.title}: archived by a browser crawl.</p>`)));
  extra(b);
  return gzip ? Buffer.concat(b.records.map((r) => gzipMember(r))) : b.raw();
}

/** WACZ 1.1.1: datapackage.json (resources with sha256), archive/, indexes/index.cdx, pages/pages.jsonl. */
export function wacz(): Fixture[] {
  const first: Captured[] = [
    { url: `${T}/`, title: 'Archive home' },
    { url: `${T}/about`, title: 'About the archive' },
  ];
  const second: Captured[] = [{ url: `${T}/collections/maps`, title: 'Maps collection' }];
  const data = warc(
    'data.warc.gz',
    first,
    (b) => b.response(`${T}/style.css`, [['Content-Type', 'text/css']], text('body { margin: 0 }\n')),
    true,
  );
  // A second WARC, plain (not gzipped) and deflated in the ZIP: both member kinds are read.
  const data2 = warc('data-2.warc', second, () => {}, false);
  // pages.jsonl lists what the crawl meant as pages: the three HTML pages, and one it never captured.
  const listed = [...first, ...second, { url: `${T}/never-captured`, title: 'Listed, not captured' }];
  const pagesJsonl = text(
    [
      JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' }),
      ...listed.map((p, i) =>
        JSON.stringify({ id: `p${i}`, url: p.url, ts: '2024-01-15T10:00:00Z', title: p.title }),
      ),
    ].join('\n') + '\n',
  );
  const cdx = text(
    [...first, ...second]
      .map(
        (p) =>
          `${p.url.replace('https://', 'test,example,archive)')} ${date14('2024-01-15T10:00:00Z')} ${JSON.stringify({ url: p.url, mime: 'text/html', status: '200' })}`,
      )
      .join('\n') + '\n',
  );
  const members: Record<string, Buffer> = {
    'archive/data.warc.gz': data,
    'archive/data-2.warc': data2,
    'indexes/index.cdx': cdx,
    'pages/pages.jsonl': pagesJsonl,
  };
  const datapackage = text(
    JSON.stringify(
      {
        profile: 'data-package',
        wacz_version: '1.1.1',
        title: 'Fixture crawl',
        created: '2024-01-15T10:00:00Z',
        software: 'scripts/make-fixtures.ts',
        resources: Object.entries(members).map(([path, b]) => ({
          name: path.split('/').pop(),
          path,
          hash: sha256(b),
          bytes: b.length,
        })),
      },
      null,
      2,
    ),
  );
  const zip: Zippable = {
    // The spec asks for STORE on the WARCs (already gzipped); data-2.warc is deflated on purpose.
    'archive/data.warc.gz': [data, { level: 0, mtime: MTIME }],
    'archive/data-2.warc': [data2, { level: 6, mtime: MTIME }],
    'indexes/index.cdx': [cdx, { level: 6, mtime: MTIME }],
    'pages/pages.jsonl': [pagesJsonl, { level: 6, mtime: MTIME }],
    'datapackage.json': [datapackage, { level: 6, mtime: MTIME }],
  };
  const notWacz = zipSync({
    'readme.txt': [text('A ZIP with no datapackage.json.\n'), { level: 6, mtime: MTIME }],
  });
  return [
    {
      name: 'crawl.wacz',
      data: Buffer.from(zipSync(zip)),
      about:
        'WACZ 1.1.1: datapackage.json (resources with sha256), archive/data.warc.gz (stored, one gzip member per record), archive/data-2.warc (deflated), indexes/index.cdx, pages/pages.jsonl with its json-pages-1.0 header.',
      expect: [
        'read as ONE dataset of its two WARCs: 4 pages (3 HTML pages + 1 stylesheet), sources "crawl.wacz › archive/data.warc.gz" and "crawl.wacz › archive/data-2.warc"',
        'pages.jsonl lists 4 pages, 3 of which are in the WARCs (marked listed)',
      ],
      counts: {
        pages: 4,
        html_pages: 3,
        warcs: 2,
        listed: listed.length,
        listed_found: 3,
        sources: ['crawl.wacz › archive/data.warc.gz', 'crawl.wacz › archive/data-2.warc'],
      },
      titles: Object.fromEntries([...first, ...second].map((p) => [p.url, p.title])),
    },
    {
      name: 'not-wacz.zip',
      data: Buffer.from(notWacz),
      about: 'A ZIP archive without datapackage.json.',
      expect: ['not a crawl: a ZIP archive that is not a WACZ; no dataset'],
      counts: { pages: 0 },
    },
  ];
}

// crawl.log lines: seconds status size URL path via mime; `{T}` = http://www.example.test.
const STRAY_ROWS = `
01 1 58 dns:www.example.test P http://www.example.test/ text/dns
02 200 5120 {T}/ - - text/html
03 200 2048 {T}/a.html L {T}/ text/html
04 301 0 {T}/old L {T}/ text/html
05 404 312 {T}/missing L {T}/ text/html
06 500 100 {T}/broken L {T}/ text/html
07 -5003 - {T}/q1 L {T}/ unknown
08 -5003 - {T}/q2 L {T}/ unknown
09 -5003 - {T}/q3 L {T}/ unknown
10 -61 - {T}/robots-blocked L {T}/ unknown
11 -2 - http://down.example.test/ L {T}/ unknown
12 0 - {T}/never L {T}/ unknown
13 -9998 - {T}/private L {T}/ unknown
`;

/** A crawl.log cut out of a NetarchiveSuite metadata ARC: its ARC header line on top, one cut line inside. */
export function crawlLogStray(): Fixture {
  const T0 = 'http://www.example.test';
  const lines = STRAY_ROWS.trim()
    .split('\n')
    .map((row) => {
      const f = row.replace(/\{T\}/g, T0).split(' ');
      return [
        `2024-01-15T10:00:${f[0]}.000Z`,
        f[1].padStart(5),
        f[2].padStart(6),
        ...f.slice(3),
        '#001',
        '-',
        '-',
        '-',
        '-',
      ].join(' ');
    });
  const header =
    'metadata://netarkivet.dk/crawl/logs/crawl.log?heritrixVersion=1.14.4&harvestid=2&jobid=4 172.16.13.127 20130522090849 text/plain 1550';
  // A line cut short by the extraction, between the 404 and the 500.
  const body = [header, ...lines.slice(0, 5), '2024-01-15T10:00:05.500Z   200', ...lines.slice(5)];
  return {
    name: 'crawl-stray.log',
    data: text(body.join('\n') + '\n'),
    about:
      'Heritrix crawl.log whose first line is the ARC record header it was cut out of, with a truncated line inside and Heritrix codes -5003 (quota) ×3, -61, -2, 0, -9998.',
    expect: [
      'read as a crawl.log; line 1 (the ARC header) and line 7 (cut short) are listed as problems with their line numbers',
      'pages: only fetched URLs (status > 0, not dns:): 200 ×2, 301, 404, 500 = 5 pages',
      'not pages, counted by code: -5003 ×3, -61, -2, 0, -9998; 1 dns: lookup',
    ],
    counts: {
      lines: body.length,
      log_lines: lines.length,
      bad_lines: [1, 7],
      pages: 5,
      status_classes: { '2xx': 2, '3xx': 1, '4xx': 1, '5xx': 1 },
      heritrix: { '-5003': 3, '-61': 1, '-2': 1, '0': 1, '-9998': 1 },
      dns: 1,
    },
  };
}
