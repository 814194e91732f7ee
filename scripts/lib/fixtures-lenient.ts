// Odd-but-valid files that real writers produce and the most lenient peers (warcio, jwarc's lenient
// mode, warcio.js) read: one fixture per kind. Each reader notes the oddity once per file.

import { brotliCompressSync, constants, inflateRawSync } from 'node:zlib';
import { type Fixture, START, WarcBuilder, htmlPage } from './fixture-builder.ts';
import { type HeaderList, date14, gzipMember, httpDate, httpResponse, isoDate } from './warc-writer.ts';

const T = 'http://lenient.example.test';
const html = (s: string): Buffer => Buffer.from(s, 'utf8');
const HTML_UTF8: HeaderList = [['Content-Type', 'text/html; charset=utf-8']];
const CRLF = '\r\n';

/** A WarcBuilder with a warcinfo and `n` request/response pairs titled "<kind> page i". */
function pairs(
  kind: string,
  n: number,
  version: '1.0' | '1.1' = '1.0',
): { b: WarcBuilder; titles: Record<string, string> } {
  const b = new WarcBuilder(kind, version);
  b.warcinfo(`${kind}.warc`);
  const titles: Record<string, string> = {};
  for (let i = 1; i <= n; i++) {
    const url = `${T}/${kind}/${i}.html`;
    const title = `${kind} page ${i}`;
    titles[url] = title;
    b.pair(
      url,
      200,
      HTML_UTF8,
      html(htmlPage(title, `<p>${`Paragraph ${i} of the ${kind} fixture. `.repeat(6)}</p>`)),
    );
  }
  return { b, titles };
}

/** Replace the first occurrence of `from` in a record (its header) by `to`. */
function patchHeader(rec: Buffer, from: string, to: string): Buffer {
  const at = rec.indexOf(from);
  if (at < 0) throw new Error(`"${from}" not in record`);
  return Buffer.concat([rec.subarray(0, at), Buffer.from(to, 'latin1'), rec.subarray(at + from.length)]);
}

function lowercaseVersion(): Fixture {
  const { b, titles } = pairs('lowercase', 2);
  const data = Buffer.concat(b.records.map((r) => patchHeader(r, 'WARC/1.0\r\n', 'warc/1.0\r\n')));
  const counts = { ...b.counts(), pages: 2, warnings: 1 };
  return {
    name: 'lowercase-version.warc',
    data,
    about: 'Every version line is written in lower case, `warc/1.0` (warcio reads it).',
    expect: [
      `${b.types.length} records: ${JSON.stringify(b.counts())}; 2 pages`,
      'one note for the whole file: the version line is not upper case',
    ],
    counts,
    titles,
  };
}

/**
 * ClueWeb09 (Lemur project, 2009) was written as WARC/0.18 with LF line ends, and its Content-Length
 * counts one byte too many at the junction of header and block (the LF of the blank line), so the
 * declared block ends on the first LF of the two that separate records. The whole file is one gzip
 * stream.
 */
function clueweb09(): Fixture {
  const lines = (fields: HeaderList) => fields.map(([k, v]) => `${k}: ${v}\n`).join('');
  const record = (fields: HeaderList, block: Buffer): Buffer =>
    Buffer.concat([
      Buffer.from(`WARC/0.18\n${lines(fields)}Content-Length: ${block.length + 1}\n\n`, 'utf8'),
      block,
      Buffer.from('\n\n'),
    ]);
  const date = '2009-01-15T10:00:00-0800';
  const records = [
    record(
      [
        ['WARC-Type', 'warcinfo'],
        ['WARC-Date', date],
        ['WARC-Record-ID', '<urn:uuid:00000000-0000-4000-8000-000000000000>'],
        ['Content-Type', 'application/warc-fields'],
      ],
      Buffer.from('software: Nutch 1.0-dev (modified for clueweb09)\nformat: WARC file version 0.18\n'),
    ),
  ];
  const titles: Record<string, string> = {};
  for (let i = 1; i <= 3; i++) {
    const url = `${T}/clueweb/${i}.html`;
    const title = `ClueWeb page ${i}`;
    titles[url] = title;
    const body = html(htmlPage(title, `<p>${'Text of a page crawled in 2009. '.repeat(5)}</p>`));
    const http = Buffer.concat([
      Buffer.from(`HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: ${body.length}\n\n`, 'latin1'),
      body,
    ]);
    records.push(
      record(
        [
          ['WARC-Type', 'response'],
          ['WARC-Target-URI', url],
          ['WARC-Date', date],
          ['WARC-Record-ID', `<urn:uuid:00000000-0000-4000-8000-00000000000${i}>`],
          ['WARC-TREC-ID', `clueweb09-en0000-00-0000${i}`],
          ['Content-Type', 'application/http;msgtype=response'],
        ],
        http,
      ),
    );
  }
  const counts = { warcinfo: 1, response: 3, pages: 3, warnings: 3 };
  return {
    name: 'clueweb09.warc.gz',
    data: gzipMember(Buffer.concat(records)),
    about:
      'ClueWeb09-style: WARC/0.18, LF line ends, each Content-Length one byte too large where the header meets the block (so one LF short of the separator), the whole file one gzip stream.',
    expect: [
      '4 records: {"warcinfo":1,"response":3}; 3 pages',
      'three notes, each once for the file: the 0.18 draft version, the separator one line break short (3 records: the last one ends the file, where one suffices), the whole-file gzip',
    ],
    counts,
    titles,
  };
}

/** node-warc writes a single CRLF after each record instead of CRLF CRLF. */
function shortSeparator(): Fixture {
  const { b, titles } = pairs('short-separator', 3);
  const data = Buffer.concat(b.records.map((r) => r.subarray(0, r.length - 2)));
  const counts = { ...b.counts(), pages: 3, warnings: 1, short_separators: b.records.length - 1 };
  return {
    name: 'short-separator.warc',
    data,
    about: 'Every record is followed by one CRLF instead of CRLF CRLF (as node-warc writes).',
    expect: [
      `${b.types.length} records: ${JSON.stringify(b.counts())}; 3 pages`,
      `one note for the whole file: separator one CRLF short after ${b.records.length - 1} records (after the last one, at the end of the file, one CRLF is enough)`,
    ],
    counts,
    titles,
  };
}

/** WARC 1.0 allows folded header lines (a continuation starts with space or tab). */
function foldedHeaders(): Fixture {
  const { b, titles } = pairs('folded', 2);
  const data = Buffer.concat(
    b.records.map((r) => {
      let x = patchHeader(r, 'WARC-Type: ', `WARC-Type:${CRLF} `);
      const uri = x.indexOf('WARC-Target-URI: ');
      if (uri >= 0) x = patchHeader(x, 'WARC-Target-URI: ', `WARC-Target-URI:${CRLF}\t`);
      return x;
    }),
  );
  return {
    name: 'folded-headers.warc',
    data,
    about:
      'WARC-Type and WARC-Target-URI values are folded onto a continuation line (CRLF then a space or tab), as WARC 1.0 §4 allows.',
    expect: [
      `${b.types.length} records: ${JSON.stringify(b.counts())} — types without a leading space; 2 pages with their URLs`,
    ],
    counts: { ...b.counts(), pages: 2, warnings: 0 },
    titles,
  };
}

/** A response whose body is Brotli-compressed (Content-Encoding: br), as browsers' captures store it. */
function brotli(): Fixture {
  const b = new WarcBuilder('brotli', '1.1');
  b.warcinfo('brotli.warc.gz');
  const url = `${T}/brotli.html`;
  const title = 'Brotli encoded page';
  const body = html(htmlPage(title, `<p>${'Decoded before the text is read. '.repeat(20)}</p>`));
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  b.pair(url, 200, [...HTML_UTF8, ['Content-Encoding', 'br']], br);
  return {
    name: 'brotli.warc.gz',
    data: b.gz(),
    about: `One response with \`Content-Encoding: br\`: ${br.length} Brotli bytes for a ${body.length}-byte page.`,
    expect: [
      `3 records: ${JSON.stringify(b.counts())}`,
      `the page text is the decoded HTML, title "${title}"`,
    ],
    counts: { ...b.counts(), pages: 1, warnings: 0, decoded_bytes: body.length },
    titles: { [url]: title },
  };
}

/**
 * A whole-file gzip cut short: the records that inflate completely from what is left are kept (as
 * warcio yields them), then the cut is reported. Bodies are varied so that the cut falls well past
 * the end of a record in the inflated data.
 */
function truncatedWhole(): Fixture {
  const { b, titles } = pairs('cut-whole', 6);
  const raw = b.raw();
  const gz = gzipMember(raw);
  const ends: number[] = [];
  b.records.reduce((acc, r) => (ends.push(acc + r.length), acc + r.length), 0);
  // Cut so that the inflatable prefix ends in the middle of a response, at least 256 bytes past the
  // previous record's end (streaming inflaters may hold back a few bytes).
  let cut = Math.floor(gz.length * 0.6);
  let whole = 0;
  for (; cut < gz.length; cut += 16) {
    const inflated = inflateRawSync(gz.subarray(10, cut), { finishFlush: constants.Z_SYNC_FLUSH }).length;
    whole = ends.filter((e) => e <= inflated).length;
    const last = whole > 0 ? ends[whole - 1] : 0;
    if (inflated - last >= 256 && b.types[whole] === 'response') break;
  }
  const kept = b.types.slice(0, whole);
  const responses = kept.filter((t) => t === 'response').length;
  const counts = {
    good_records: whole,
    pages: responses,
    errors: 1,
    record_types: kept,
  };
  return {
    name: 'truncated-whole.warc.gz',
    data: gz.subarray(0, cut),
    about: `${b.types.length} records gzipped as ONE member, cut at byte ${cut} of ${gz.length}: the inflatable part holds ${whole} whole records.`,
    expect: [
      `the ${whole} whole records (${responses} pages) are kept, then a truncated-gzip error (partial dataset)`,
    ],
    counts,
    titles: Object.fromEntries(Object.entries(titles).slice(0, responses)),
  };
}

/** An ARC line: "URL IP date mime length" with the length written as given. */
function arcLine(url: string, length: string, content: Buffer, ip = '192.0.2.80'): Buffer {
  return Buffer.concat([
    Buffer.from(`${url} ${ip} ${date14(START)} text/html ${length}\n`, 'latin1'),
    content,
    Buffer.from('\n'),
  ]);
}

function arcPage(title: string): Buffer {
  const date = isoDate(START, 10);
  return httpResponse(
    200,
    [
      ['Date', httpDate(date)],
      ['Content-Type', 'text/html'],
    ],
    html(htmlPage(title, '<p>Stored in an ARC file.</p>')),
    { httpVersion: 'HTTP/1.0' },
  );
}

/** warcio's bad.arc kind: lengths of -1 or not a number; read up to the next header line. */
function arcBadLengths(): Fixture {
  const filedesc = Buffer.from('1 0 Lenient\nURL IP-address Archive-date Content-type Archive-length\n');
  const pages: Array<[string, string]> = [
    [`${T}/arc/minus-one.html`, '-1'],
    [`${T}/arc/stated.html`, ''],
    [`${T}/arc/not-a-number.html`, 'abc'],
  ];
  const titles: Record<string, string> = {};
  const records = [arcLine('filedesc://arc-bad-lengths.arc', '-1', filedesc, '0.0.0.0')];
  for (const [url, length] of pages) {
    const title = `ARC ${url.split('/').pop()}`;
    titles[url] = title;
    const content = arcPage(title);
    records.push(arcLine(url, length || String(content.length), content));
  }
  return {
    name: 'arc-bad-lengths.arc',
    data: Buffer.concat(records),
    about:
      "ARC whose filedesc block and two records declare a length of `-1` or `abc` (as warcio's bad.arc).",
    expect: [
      'filedesc 1, response 3; 3 pages with their titles',
      'one note for the whole file: no valid length (3 records), each read up to the next ARC header line',
    ],
    counts: { filedesc: 1, records: 3, pages: 3, warnings: 1, bad_lengths: 3 },
    titles,
  };
}

function arcNoFiledesc(): Fixture {
  const titles: Record<string, string> = {};
  const records: Buffer[] = [];
  for (let i = 1; i <= 3; i++) {
    const url = `${T}/nofiledesc/${i}.html`;
    const title = `ARC without filedesc ${i}`;
    titles[url] = title;
    const content = arcPage(title);
    records.push(arcLine(url, String(content.length), content));
  }
  return {
    name: 'arc-no-filedesc.arc',
    data: Buffer.concat(records),
    about:
      'ARC records with no `filedesc://` version block at the start (a file split or cut from a larger one).',
    expect: ['3 response records, 3 pages; one note: no filedesc:// version block'],
    counts: { filedesc: 0, records: 3, pages: 3, warnings: 1 },
    titles,
  };
}

export function lenient(): Fixture[] {
  return [
    lowercaseVersion(),
    clueweb09(),
    shortSeparator(),
    foldedHeaders(),
    brotli(),
    truncatedWhole(),
    arcBadLengths(),
    arcNoFiledesc(),
  ];
}
