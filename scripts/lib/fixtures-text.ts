// Line-oriented fixtures (crawl logs, access logs, JSONL, CSV/TSV, URL lists)
// and the "dropped by mistake" files.

import { zstdFrame } from './zstd-frames.ts';
import { type Fixture, htmlPage } from './fixture-builder.ts';
import { tinyPng } from './png.ts';
import { seededRandom, randBytes } from './prng.ts';
import { base32 } from './warc-writer.ts';
import { createHash } from 'node:crypto';

const T = 'http://www.example.test';
const digest = (s: string): string => base32(createHash('sha1').update(s).digest());
const text = (s: string): Buffer => Buffer.from(s, 'utf8');

// Heritrix crawl.log rows: seconds.millis status size URL hop-path via mime thread fetch digest source annotations.
// `{T}` = http://www.example.test, `@x` = "sha1:" + digest of x, `%x` = bare digest of x, fetch `S.mmm+D`.
const CRAWL_ROWS = `
0.512 1 58 dns:www.example.test P {T}/ text/dns #001 0.480+21 @dns - content-size:58
1.104 200 120 {T}/robots.txt P {T}/ text/plain #002 1.020+70 @robots - content-size:310
2.300 200 5120 {T}/ - - text/html #003 2.100+180 @home {T}/ -
3.010 200 2048 {T}/a.html L {T}/ text/html #004 2.900+95 @a - -
3.500 200 800 {T}/style.css E {T}/ text/css #005 3.420+60 @css - -
4.000 200 1900 {T}/b.html L {T}/ text/html #004 3.900+88 %b - -
5.250 200 2048 {T}/a.html?sessionid=42 LL {T}/b.html text/html #001 5.150+90 @a - duplicate:digest
6.000 404 312 {T}/missing.html L {T}/ text/html #002 5.900+40 @404 - -
7.000 301 0 {T}/old L {T}/ text/html #003 6.950+30 @ - -
8.000 200 2500 {T}/new LR {T}/old text/html #003 7.900+50 @new - -
9.000 -1 - http://nohost.example.test/ L {T}/ no-type #006 - - - -
10.000 -9998 - {T}/private/secret.html L {T}/ unknown #007 - - - -
11.000 200 1048576 {T}/big.bin L {T}/ application/octet-stream #005 10.000+950 @big - 3t,content-size:1048870
`;

function heritrixTime(secMillis: string, compact: boolean): string {
  const [sec, ms] = secMillis.split('.');
  const s = sec.padStart(2, '0');
  return compact ? `202401151000${s}${ms}` : `2024-01-15T10:00:${s}.${ms}Z`;
}

export function crawlLog(): Fixture {
  const rows = CRAWL_ROWS.trim()
    .split('\n')
    .map((line) =>
      line.split(' ').map((field, i) => {
        const v = field.replace(/\{T\}/g, T);
        if (i === 0) return heritrixTime(v, false);
        if (i === 8 && v !== '-') return heritrixTime(v.split('+')[0], true) + '+' + v.split('+')[1];
        if (i === 9 && v.startsWith('@')) return 'sha1:' + digest(v.slice(1));
        if (i === 9 && v.startsWith('%')) return digest(v.slice(1));
        return v;
      }),
    );
  const lines = rows.map((r) => [r[0], r[1].padStart(5), r[2].padStart(10), ...r.slice(3)].join(' '));
  const status = rows.map((r) => Number(r[1]));
  return {
    name: 'crawl.log',
    data: text(lines.join('\n') + '\n'),
    about: 'Heritrix crawl.log, 12 whitespace-separated fields per line.',
    expect: [
      `${rows.length} lines, ${rows.length} entries; statuses ${status.join(', ')}`,
      'status 1 = dns: fetch (mime text/dns); -1 = DNS lookup failed; -9998 = blocked by robots.txt; size "-" = none',
      'digest forms: "sha1:BASE32" and bare BASE32 (the b.html line); "-" = no digest',
      `${T}/a.html and ${T}/a.html?sessionid=42 share the same digest (duplicate content, annotation duplicate:digest)`,
      `status 200: ${status.filter((x) => x === 200).length} entries; one 404 (/missing.html); one 301 (/old) followed by /new with hop path "LR"`,
    ],
    counts: {
      lines: rows.length,
      entries: rows.length,
      status_200: status.filter((x) => x === 200).length,
      negative_status: status.filter((x) => x < 0).length,
      dns: 1,
      not_found: 1,
      redirects: 1,
      same_digest_pair: [`${T}/a.html`, `${T}/a.html?sessionid=42`],
    },
  };
}

const UA = '"Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0"';
// Combined Log Format; the Common Log Format file is the first 12 lines without referer and agent.
const ACCESS_LINES = [
  `192.0.2.1 - - [15/Jan/2024:10:00:01 +0000] "GET / HTTP/1.1" 200 5120 "-" ${UA}`,
  `192.0.2.1 - - [15/Jan/2024:10:00:02 +0000] "GET /index.html HTTP/1.1" 200 5120 "${T}/" ${UA}`,
  `192.0.2.2 - - [15/Jan/2024:10:00:05 +0000] "GET /a.html HTTP/1.1" 200 2048 "${T}/" ${UA}`,
  `192.0.2.3 - - [15/Jan/2024:10:00:09 +0000] "GET /a.html HTTP/1.1" 200 2051 "-" ${UA}`,
  `192.0.2.4 - - [15/Jan/2024:10:01:00 +0000] "GET /a.html HTTP/1.1" 200 2048 "-" ${UA}`,
  `192.0.2.4 - - [15/Jan/2024:10:01:30 +0000] "GET /a.html?utm_source=news&utm_medium=email HTTP/1.1" 200 2048 "-" ${UA}`,
  `192.0.2.5 - - [15/Jan/2024:10:02:00 +0000] "GET /search?q=dedup+tools&page=2 HTTP/1.1" 200 3100 "${T}/" ${UA}`,
  `192.0.2.6 - - [15/Jan/2024:10:02:10 +0000] "GET /missing.html HTTP/1.1" 404 312 "${T}/a.html" ${UA}`,
  `192.0.2.7 - - [15/Jan/2024:10:02:20 +0000] "GET /cgi-bin/report HTTP/1.1" 500 612 "-" "curl/8.5.0"`,
  `192.0.2.8 - - [15/Jan/2024:10:03:00 +0000] "POST /comments HTTP/1.1" 302 0 "${T}/b.html" ${UA}`,
  `192.0.2.8 - - [15/Jan/2024:10:03:01 +0000] "GET /style.css HTTP/1.1" 304 - "${T}/b.html" ${UA}`,
  `192.0.2.9 - - [15/Jan/2024:10:04:00 +0000] "GET /b.html HTTP/1.1" 200 1900 "-" "Mozilla/5.0 (compatible; \\"Quoted\\"Bot/1.0)"`,
  `2001:db8::1 - alice [15/Jan/2024:05:04:30 -0500] "GET /b.html HTTP/1.1" 200 1900 "-" ${UA}`,
  `192.0.2.10 - - [15/Jan/2024:10:05:00 +0000] "GET /b.html?sessionid=9f8e HTTP/1.1" 200 1900 "-" ${UA}`,
  `192.0.2.10 - - [15/Jan/2024:10:05:01 +0000] "HEAD / HTTP/1.1" 200 - "-" "check_http/v2.3"`,
  `192.0.2.11 - - [15/Jan/2024:10:06:00 +0000] "GET /img/logo.png HTTP/1.1" 200 4096 "${T}/" ${UA}`,
  `66.249.66.1 - - [15/Jan/2024:10:07:00 +0000] "GET /robots.txt HTTP/1.1" 200 68 "-" "Googlebot/2.1 (+http://www.google.com/bot.html)"`,
  `192.0.2.12 - - [15/Jan/2024:10:08:00 +0000] "GET /docs/ HTTP/1.1" 200 8000 "-" ${UA}`,
  `192.0.2.12 - - [15/Jan/2024:10:08:05 +0000] "GET /docs/index.html HTTP/1.1" 200 8000 "${T}/docs/" ${UA}`,
  `192.0.2.13 - - [15/Jan/2024:10:09:00 +0000] "GET /a.html HTTP/1.0" 200 2048 "-" ${UA}`,
];

function accessCounts(lines: string[]): Record<string, number> {
  const parsed = lines.map((l) => {
    const m = /^\S+ \S+ \S+ \[[^\]]+\] "(\S+) (\S+) [^"]*" (\d{3}) (\S+)/.exec(l);
    if (!m) throw new Error(`unparsable log line: ${l}`);
    return { method: m[1], target: m[2], status: Number(m[3]), size: m[4] };
  });
  return {
    lines: lines.length,
    entries: parsed.length,
    get: parsed.filter((p) => p.method === 'GET').length,
    post: parsed.filter((p) => p.method === 'POST').length,
    head: parsed.filter((p) => p.method === 'HEAD').length,
    status_200: parsed.filter((p) => p.status === 200).length,
    status_4xx: parsed.filter((p) => p.status >= 400 && p.status < 500).length,
    status_5xx: parsed.filter((p) => p.status >= 500).length,
    size_dash: parsed.filter((p) => p.size === '-').length,
    distinct_request_targets: new Set(parsed.map((p) => p.target)).size,
  };
}

export function accessLogs(): Fixture[] {
  const common = ACCESS_LINES.slice(0, 12).map((l) => l.replace(/ "[^"]*" ("(?:[^"\\]|\\.)*")$/, ''));
  const c1 = accessCounts(ACCESS_LINES);
  const c2 = accessCounts(common);
  return [
    {
      name: 'access.log',
      data: text(ACCESS_LINES.join('\n') + '\n'),
      about: 'Apache/nginx Combined Log Format (no host in the lines; relative request targets).',
      expect: [
        `${c1.lines} entries: ${JSON.stringify(c1)}`,
        '/a.html is requested 4 times (sizes 2048, 2051, 2048, 2048; the last over HTTP/1.0) plus once as /a.html?utm_source=news&utm_medium=email',
        'one user agent contains escaped quotes (`\\"`); one IPv6 client with user "alice" and a -0500 timestamp (= 10:04:30Z)',
        'size "-" on the 304 and the HEAD line means unknown/zero',
      ],
      counts: c1,
    },
    {
      name: 'access-common.log',
      data: text(common.join('\n') + '\n'),
      about: 'Common Log Format (first 12 entries of access.log without referer / user agent).',
      expect: [`${c2.lines} entries: ${JSON.stringify(c2)}`],
      counts: c2,
    },
  ];
}

export function tables(): Fixture[] {
  const J = 'http://jsonl.example.test';
  const aHtml = htmlPage('JSONL page A', '<p>Alpha page text about harbor cranes and river barges.</p>');
  const lines = [
    { url: `${J}/a`, html: aHtml },
    { url: `${J}/b`, text: 'Plain text page B about mountain railways and snow.' },
    {
      url: `${J}/c`,
      html: htmlPage('JSONL page C', `<p>Gamma.</p><p><a href="/a">A</a> <a href="${J}/b">B</a></p>`),
      status: 200,
      size: 1234,
      links: [`${J}/a`, `${J}/b`],
      fetched_at: '2024-01-15T10:00:00Z',
    },
    { url: `${J}/d`, text: 'Not found', status: 404 },
    { url: `${J}/a?ref=feed`, html: aHtml, fetched_at: '2024-01-15T11:00:00Z' },
  ];
  const jsonl = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const bad = [
    JSON.stringify({ url: `${J}/1`, text: 'one' }),
    JSON.stringify({ url: `${J}/2`, text: 'two' }),
    `{"url": "${J}/3", "text": oops this is not JSON`,
    JSON.stringify({ url: `${J}/4`, text: 'four' }),
    JSON.stringify({ url: `${J}/5`, text: 'five' }),
  ];
  const rows: Array<[string, string, string]> = [
    [`${T}/`, '200', '5120'],
    [`${T}/a.html`, '200', '2048'],
    [`${T}/search?q=a,b`, '200', '3100'],
    [`${T}/missing.html`, '404', '312'],
    [`${T}/a.html?sessionid=42`, '200', '2048'],
    [`${T}/style.css`, '304', ''],
  ];
  const csvField = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const csv = ['url,status,size', ...rows.map((r) => r.map(csvField).join(','))].join('\n') + '\n';
  const tsv = ['url\tstatus\tsize', ...rows.map((r) => r.join('\t'))].join('\n') + '\n';
  const txt =
    [
      '# URL list exported from a crawler',
      `${T}/`,
      `${T}/a.html`,
      '',
      `${T}/search?q=a,b`,
      `${T}/missing.html`,
      `${T}/b.html`,
    ].join('\n') + '\n';
  const rowCounts = { rows: 6, status_200: 4, empty_size: 1 };
  return [
    {
      name: 'pages.jsonl',
      data: text(jsonl),
      about: 'One JSON object per line: url + html or url + text, optional status/size/links/fetched_at.',
      expect: [
        '5 pages: 3 with html (titles "JSONL page A", "JSONL page C", "JSONL page A"), 2 with text only',
        `line 5 (${J}/a?ref=feed) has exactly the same html as line 1 (${J}/a): identical content`,
        'line 3 has explicit links; line 4 has status 404',
      ],
      counts: {
        lines: 5,
        pages: 5,
        with_html: 3,
        with_text: 2,
        identical_pairs: [[`${J}/a`, `${J}/a?ref=feed`]],
      },
      titles: { [`${J}/a`]: 'JSONL page A', [`${J}/c`]: 'JSONL page C', [`${J}/a?ref=feed`]: 'JSONL page A' },
    },
    {
      name: 'pages.jsonl.zst',
      // Two frames (the first two lines, then the rest), as a file zstd compressed in pieces is.
      data: Buffer.concat([
        zstdFrame(text(jsonl.split('\n').slice(0, 2).join('\n') + '\n')),
        zstdFrame(text(jsonl.split('\n').slice(2).join('\n'))),
      ]),
      about: 'pages.jsonl compressed with zstd, in two frames (Raw blocks).',
      expect: ['the same 5 pages as pages.jsonl'],
      counts: { lines: 5, pages: 5 },
    },
    {
      name: 'bad-line.jsonl',
      data: text(bad.join('\n') + '\n'),
      about: 'JSONL whose line 3 is not valid JSON.',
      expect: ['4 pages (lines 1, 2, 4, 5) and 1 error pointing at line 3'],
      counts: { lines: 5, pages: 4, errors: 1, bad_line: 3 },
    },
    {
      name: 'urls.csv',
      data: text(csv),
      about: 'CSV with header url,status,size; one quoted URL containing a comma; one empty size.',
      expect: ['6 rows; row 3 url is http://www.example.test/search?q=a,b (quoted field); row 6 size empty'],
      counts: rowCounts,
    },
    {
      name: 'urls.tsv',
      data: text(tsv),
      about: 'Same rows as urls.csv, tab-separated, no quoting.',
      expect: ['6 rows, same values as urls.csv'],
      counts: rowCounts,
    },
    {
      name: 'urls.txt',
      data: text(txt),
      about: 'Plain URL list: one per line, with a # comment and a blank line.',
      expect: ['5 URLs (comment and blank line ignored)'],
      counts: { urls: 5, comments: 1, blank: 1 },
    },
  ];
}

export function misc(): Fixture[] {
  const junk = randBytes(seededRandom(0x5eed), 4096);
  return [
    {
      name: 'junk.bin',
      data: junk,
      about: '4096 seeded random bytes.',
      expect: ['not recognised as any format; 0 records; a clear "unrecognised file" error, no crash/hang'],
      counts: { records: 0, errors: 1 },
    },
    {
      name: 'empty.warc',
      data: Buffer.alloc(0),
      about: 'Zero bytes.',
      expect: ['0 records; reported as empty (not as a crash)'],
      counts: { records: 0 },
    },
    {
      name: 'image.png',
      data: tinyPng(0x2a, 0x7f, 0xd4),
      about: 'A valid 1x1 RGB PNG (dropped by mistake).',
      expect: ['recognised as not-a-crawl (PNG signature); 0 records'],
      counts: { records: 0, errors: 1 },
    },
    {
      name: 'page.html',
      data: text(
        htmlPage('A single saved page', '<p>Someone saved this page from a browser and dropped it here.</p>'),
      ),
      about: 'A lone HTML file (dropped by mistake, or importable as one page).',
      expect: [
        'either rejected as not-a-crawl, or imported as 1 page titled "A single saved page" (no URL known)',
      ],
      counts: { pages_if_imported: 1 },
      titles: { 'page.html': 'A single saved page' },
    },
  ];
}
