// Broken and hostile WARC fixtures.

import { type Fixture, WarcBuilder, htmlPage } from './fixture-builder.ts';
import { type HeaderList, gzipMember } from './warc-writer.ts';

const T = 'http://www.example.test';
const html = (s: string): Buffer => Buffer.from(s, 'utf8');
const HTML_UTF8: HeaderList = [['Content-Type', 'text/html; charset=utf-8']];

function threeResponses(seed: string, n = 3): WarcBuilder {
  const b = new WarcBuilder(seed, '1.0');
  for (let i = 1; i <= n; i++) {
    b.response(
      `${T}/${seed}/${i}.html`,
      HTML_UTF8,
      html(htmlPage(`${seed} record ${i}`, `<p>${'Body text. '.repeat(20)}</p>`)),
    );
  }
  return b;
}

export function broken(): Fixture[] {
  const out: Fixture[] = [];
  const t = threeResponses('truncated');
  const off = t.offsets().gz;
  const gz = t.gz();
  const cut = off[2] + Math.floor((gz.length - off[2]) / 2);
  out.push({
    name: 'truncated.warc.gz',
    data: gz.subarray(0, cut),
    about: `3 responses, one member each; cut at byte ${cut}, in the middle of the 3rd member (starts at ${off[2]}).`,
    expect: [
      '2 complete response records, then an "unexpected end of file" / truncated-gzip error for the 3rd',
    ],
    counts: { good_records: 2, errors: 1, member_offsets: off },
  });

  for (const [name, delta] of [
    ['bad-length.warc', 40],
    ['bad-length-short.warc', -40],
  ] as const) {
    const b = threeResponses(name.replace('.warc', ''));
    const second = b.records[1];
    const declared = second.length - second.indexOf('\r\n\r\n') - 4 - 4 + delta;
    const hdrEnd = second.indexOf('Content-Length: ') + 16;
    const fixed = Buffer.concat([
      second.subarray(0, hdrEnd),
      Buffer.from(String(declared)),
      second.subarray(second.indexOf('\r\n', hdrEnd)),
    ]);
    b.records[1] = fixed;
    const offs = b.offsets().raw;
    out.push({
      name,
      data: b.raw(),
      about:
        delta > 0
          ? `3 responses; the 2nd (at byte ${offs[1]}) declares Content-Length ${declared}, 40 bytes more than its block, so the read swallows the CRLFCRLF and 36 bytes of the 3rd record (at byte ${offs[2]}).`
          : `3 responses; the 2nd (at byte ${offs[1]}) declares Content-Length ${declared}, 40 bytes less than its block; the 3rd record starts at byte ${offs[2]}.`,
      expect: [
        'record 1 parses cleanly',
        'record 2: the bytes after the declared block are not CRLF CRLF -> report a length mismatch / misalignment error at record 2',
        `a resyncing reader that scans for the next "WARC/1." line from the end of record 2's header recovers record 3 (${T}/${name.replace('.warc', '')}/3.html): 2 good records (1 and 3) + 1 error; a strict reader stops after record 1 + 1 error`,
      ],
      counts: { good_records_strict: 1, good_records_resync: 2, errors: 1, record_offsets: offs },
    });
  }

  const g = threeResponses('garbage', 4);
  const members = g.records.map(gzipMember);
  const bad = Buffer.from(members[2]);
  bad[10] = 0x07; // first deflate byte: BFINAL=1, BTYPE=11 (reserved) -> "invalid block type"
  members[2] = bad;
  const goff: number[] = [];
  members.reduce((acc, m) => (goff.push(acc), acc + m.length), 0);
  out.push({
    name: 'garbage-middle.warc.gz',
    data: Buffer.concat(members),
    about: `4 one-member responses; the 3rd member (at byte ${goff[2]}) has a corrupted deflate stream (invalid block type).`,
    expect: [
      'records 1 and 2 parse; member 3 fails with a zlib/inflate error (invalid block type)',
      `a reader that skips to the next gzip header (1f 8b 08) recovers record 4 at byte ${goff[3]} (${T}/garbage/4.html)`,
    ],
    counts: { good_records_strict: 2, good_records_resync: 3, errors: 1, member_offsets: goff },
  });
  return out;
}

export function hostile(): Fixture {
  const b = new WarcBuilder('hostile', '1.0');
  b.warcinfo('hostile.warc.gz');
  const evil = '<script>alert(1)</script> <img src=x onerror=alert(1)>';
  const url = 'http://hostile.example.test/xss?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E';
  const body =
    '<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>\n' +
    '<script>alert(1)</script>\n<img src=x onerror=alert(1)>\n' +
    '<p><a href="javascript:alert(1)">a javascript: link</a> <svg onload=alert(1)></svg></p>';
  b.pair(url, 200, HTML_UTF8, html(htmlPage(evil, body, '<script>alert(1)</script>\n')));
  const counts = b.counts();
  return {
    name: 'hostile.warc.gz',
    data: b.gz(),
    about:
      'A response whose title and text contain markup as literal text, plus real script/img/svg elements.',
    expect: [
      `${b.types.length} records: ${JSON.stringify(counts)}`,
      `title (decoded text) is exactly: \`${evil}\``,
      'extracted text contains the same literal string (from the escaped <p>) and "a javascript: link"; it must NOT contain the real <script> contents as markup',
      'the javascript: href is not an http(s) outlink',
      'nothing may execute when the title, text or URL is displayed',
    ],
    counts,
    titles: { [url]: evil },
  };
}
