import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WARCParser } from 'warcio';
import { FormatFault } from '../../../src/core/ingest/errors';
import { isGzip, MultiGunzip } from '../../../src/core/codecs/gzip';
import { seededRandom } from '../../../src/core/random';
import { WarcParser } from '../../../src/core/ingest/warc';
import { MAX_BLOCK, targetUri, type WarcRecord } from '../../../src/core/ingest/warc-record';
import {
  chunked,
  concat,
  expectedTitles,
  fixtureBytes,
  fixtureCounts,
  httpResponse,
  ingestBytes,
  ingestFixture,
  latin1,
  pagesByUrl,
  referenceSha1Digest,
  textLines,
  utf8Bytes,
  warcRecord,
} from '../helpers';

const WARC_FIXTURES = [
  'tiny.warc',
  'tiny.warc.gz',
  'wget-angle.warc.gz',
  'charsets.warc.gz',
  'chunked-gzip.warc.gz',
  'hostile.warc.gz',
];
const PAGE_TYPES = ['response', 'resource', 'revisit'];

interface SeenRecord {
  type: string;
  uri: string;
  contentLength: number;
  blockLength: number;
  offset: number;
}

/** Every record of a WARC or WARC.gz, parsed by WarcParser (through MultiGunzip for .gz). */
function parseAll(data: Uint8Array, chunkSize = 1000, memberPerRecord = false): SeenRecord[] {
  const out: SeenRecord[] = [];
  const gz = isGzip(data);
  const parser = new WarcParser(
    (r: WarcRecord) =>
      out.push({
        type: r.type,
        uri: targetUri(r.headers),
        contentLength: r.contentLength,
        blockLength: r.block ? r.block.length : -1,
        offset: r.offset,
      }),
    gz,
    { memberPerRecord },
  );
  const gunzip = gz ? new MultiGunzip((d, off) => parser.push(d, off)) : null;
  for (let i = 0; i < data.length; i += chunkSize) {
    const piece = data.slice(i, i + chunkSize);
    if (gunzip) gunzip.push(piece, false);
    else parser.push(piece, i);
  }
  gunzip?.push(new Uint8Array(0), true);
  parser.end();
  return out;
}

/** The record header block (as text) that starts at `offset` of the file (decompressing from there for .gz). */
function headerAt(data: Uint8Array, offset: number): string {
  const rest = data.subarray(offset);
  const plain = isGzip(rest) ? new Uint8Array(gunzipSync(rest)) : rest;
  const text = latin1(plain.subarray(0, 4096));
  return text.slice(0, text.indexOf('\r\n\r\n'));
}

describe('WARC fixtures through ingest()', () => {
  for (const name of WARC_FIXTURES) {
    describe(name, () => {
      const counts = fixtureCounts[name] as Record<string, number>;

      it('counts records by type as counts.json says', async () => {
        const { summary } = await ingestFixture(name);
        expect(summary.format).toBe('warc');
        expect(summary.compressed).toBe(name.endsWith('.gz'));
        expect(summary.recordsByType).toEqual(counts);
        expect(summary.error).toBeNull();
        expect(summary.warnings).toEqual([]);
      });

      it('makes one page per response/resource/revisit record', async () => {
        const { summary, pages } = await ingestFixture(name);
        // Records of those types whose URI is not a web URL (wget's log and manifest) are skipped.
        const notWeb = Object.entries(summary.skipped)
          .filter(([reason]) => reason.endsWith('URIs (not web pages)'))
          .reduce((n, [, k]) => n + k, 0);
        const expected = PAGE_TYPES.reduce((n, t) => n + (counts[t] ?? 0), 0) - notWeb;
        expect(pages).toHaveLength(expected);
        expect(pages.filter((p) => !/^https?:\/\//i.test(p.page.url)).map((p) => p.page.url)).toEqual([]);
        expect(summary.pages).toBe(expected);
        expect(pages.map((p) => p.page.seq)).toEqual(pages.map((_, i) => i));
        const skippedTotal = Object.values(summary.skipped).reduce((a, b) => a + b, 0);
        const recordTotal = Object.values(counts).reduce((a, b) => a + b, 0);
        expect(skippedTotal + expected).toBe(recordTotal);
      });

      it('decodes the titles listed in expected.json', async () => {
        const { pages } = await ingestFixture(name);
        const byUrl = pagesByUrl(pages.filter((p) => p.page.recordType === 'response'));
        const titles = expectedTitles[name];
        expect(titles).toBeDefined();
        for (const [url, title] of Object.entries(titles)) {
          expect(byUrl.get(url)?.title, url).toBe(title);
        }
      });

      it('gives each page the offset of its record in the file', async () => {
        const data = fixtureBytes(name);
        const { pages } = await ingestFixture(name);
        for (const { page } of pages) {
          const head = headerAt(data, page.offset);
          expect(head.startsWith('WARC/1.'), `${page.url} @${page.offset}`).toBe(true);
          expect(head).toContain(`WARC-Type: ${page.recordType}`);
          expect(head).toMatch(
            new RegExp(`WARC-Target-URI: <?${page.url.replace(/[.?*+()[\]\\^$|{}]/g, '\\$&')}>?\\r`),
          );
        }
      });
    });
  }
});

describe('tiny.warc', () => {
  it('ties the revisit to its original response: revisitOf = seq, title and fingerprint copied', async () => {
    const data = fixtureBytes('tiny.warc');
    const text = latin1(data);
    const refersTo = /WARC-Type: revisit[\s\S]*?WARC-Refers-To: (<[^>]+>)/.exec(text)?.[1];
    expect(refersTo).toBe('<urn:uuid:7d55f28a-344f-583f-aa26-401a4427ba39>');
    // The original's offset, found in the raw file independently of the parser.
    const idAt = text.indexOf(`WARC-Record-ID: ${refersTo}`);
    const originalOffset = text.lastIndexOf('WARC/1.1\r\n', idAt);

    const { pages } = await ingestFixture('tiny.warc');
    const revisits = pages.filter((p) => p.page.recordType === 'revisit');
    expect(revisits).toHaveLength(1);
    const original = pages.find((p) => p.page.offset === originalOffset)!.page;
    expect(original.recordType).toBe('response');
    expect(original.url).toBe('http://www.example.test/');
    const r = revisits[0].page;
    expect(r.url).toBe('http://www.example.test/');
    expect(r.revisitOf).toBe(original.seq);
    expect(r.revisitOf).not.toBe(-1);
    expect(r.title).toBe('Tiny home');
    expect(r.title).toBe(original.title);
    expect(r.fingerprint).toBe(original.fingerprint);
    expect(r.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(r.textLength).toBe(original.textLength);
    expect(r.digest).toBe(original.digest);
    expect(r.note).toBe('');
    // Other pages are no revisits.
    for (const p of pages) if (p !== revisits[0]) expect(p.page.revisitOf).toBe(-1);
  });

  it('reads the resource record as a page without HTTP status, with its computed digest and microsecond date', async () => {
    const data = fixtureBytes('tiny.warc');
    const { pages } = await ingestFixture('tiny.warc');
    const res = pages.find((p) => p.page.recordType === 'resource')!;
    expect(res.page.url).toBe('http://www.example.test/notes.txt');
    expect(res.page.status).toBe(0);
    expect(res.page.mime).toBe('text/plain');
    expect(res.page.fetchedAt).toBe('2024-01-15T10:00:40.123456Z');
    expect(res.content.text).toBe('A resource record: stored without HTTP headers.');
    // No WARC-Payload-Digest on this record: the digest is computed over the block.
    const block = data.subarray(res.page.offset).subarray(0, 2000);
    const headEnd = latin1(block).indexOf('\r\n\r\n') + 4;
    const blockBytes = block.subarray(headEnd, headEnd + 48);
    expect(res.page.digest).toBe(referenceSha1Digest(blockBytes));
    expect(res.page.sizeMin).toBe(48);
  });

  it('keeps the WARC payload digest of responses as given', async () => {
    const { pages } = await ingestFixture('tiny.warc');
    const home = pages.find(
      (p) => p.page.recordType === 'response' && p.page.url === 'http://www.example.test/',
    )!;
    expect(home.page.digest).toBe('sha1:TXMXGE3DMITFCFVYVNFW7M7NFU6SBC6P');
    expect(home.page.status).toBe(200);
    expect(home.page.mime).toBe('text/html');
    expect(home.content.headers[0]).toEqual([':status', expect.stringMatching(/^HTTP\/1\.[01] 200/)]);
  });

  it('yields the same pages from tiny.warc and tiny.warc.gz (offsets aside)', async () => {
    const plain = await ingestFixture('tiny.warc');
    const gz = await ingestFixture('tiny.warc.gz');
    const strip = (r: typeof plain) => r.pages.map((p) => ({ ...p, page: { ...p.page, offset: 0 } }));
    expect(strip(gz)).toEqual(strip(plain));
    expect(gz.pages.map((p) => p.page.offset)).not.toEqual(plain.pages.map((p) => p.page.offset));
  });
});

describe('tiny-single-member.warc.gz (gzipped as a whole)', () => {
  it('is read by default, with one note saying it is gzipped as a whole', async () => {
    const { summary } = await ingestFixture('tiny-single-member.warc.gz');
    expect(summary.error).toBeNull();
    expect(summary.warningCount).toBe(1);
    expect(summary.warnings[0].message).toContain('tiny-single-member.warc.gz');
    expect(summary.warnings[0].reason).toMatch(
      /^gzipped as a whole, not one gzip member per record .*random access by offset is not possible/,
    );
  });

  it('gives the same pages as tiny.warc.gz', async () => {
    const whole = await ingestFixture('tiny-single-member.warc.gz');
    const members = await ingestFixture('tiny.warc.gz');
    expect(whole.summary.error).toBeNull();
    expect(whole.summary.recordsByType).toEqual(fixtureCounts['tiny-single-member.warc.gz']);
    const strip = (r: typeof whole) => r.pages.map((p) => ({ ...p, page: { ...p.page, offset: 0 } }));
    expect(strip(whole)).toEqual(strip(members));
    // One member: every record is at compressed offset 0.
    expect(new Set(whole.pages.map((p) => p.page.offset))).toEqual(new Set([0]));
  });
});

describe('wget-angle.warc.gz', () => {
  it('strips the angle brackets wget 1.14 puts around WARC-Target-URI', async () => {
    const raw = latin1(new Uint8Array(gunzipSync(fixtureBytes('wget-angle.warc.gz'))));
    expect(raw).toContain('WARC-Target-URI: <http://www.example.test/wget/>');
    const { pages } = await ingestFixture('wget-angle.warc.gz');
    const urls = pages.map((p) => p.page.url);
    expect(urls).toContain('http://www.example.test/wget/');
    expect(urls).toContain('http://www.example.test/wget/page.html?x=1&y=2');
    for (const p of pages) {
      expect(p.page.url).not.toMatch(/[<>]/);
      expect(p.page.normUrl).not.toMatch(/[<>%]3[CE]/i);
    }
    const q = pages.find((p) => p.page.url.endsWith('?x=1&y=2'))!;
    expect(q.page.host).toBe('www.example.test');
    expect(q.page.title).toBe('Wget page with query');
  });

  it('targetUri() strips brackets only when both are there', () => {
    expect(targetUri([['WARC-Target-URI', '<http://a.test/>']])).toBe('http://a.test/');
    expect(targetUri([['warc-target-uri', 'http://a.test/']])).toBe('http://a.test/');
    expect(targetUri([['WARC-Target-URI', '<http://a.test/']])).toBe('<http://a.test/');
    expect(targetUri([])).toBe('');
  });
});

describe('charsets.warc.gz', () => {
  const cases: [string, string][] = [
    ['http://charsets.example.test/cp1252.html', 'windows-1252'],
    ['http://charsets.example.test/gbk.html', 'gbk'],
    ['http://charsets.example.test/big5.html', 'big5'],
    ['http://charsets.example.test/gb18030.html', 'gb18030'],
    ['http://charsets.example.test/utf8-bom.html', 'utf-8'],
    ['http://charsets.example.test/sjis.html', 'shift_jis'],
    ['http://charsets.example.test/conflict.html', 'utf-8'],
  ];
  for (const [url, charset] of cases) {
    it(`decodes ${url.split('/').pop()} as ${charset}`, async () => {
      const { pages } = await ingestFixture('charsets.warc.gz');
      const p = pages.find((x) => x.page.url === url)!;
      const title = expectedTitles['charsets.warc.gz'][url];
      expect(p.page.title).toBe(title);
      expect(p.page.charset).toBe(charset);
      // The body repeats the title in a <p>.
      expect(textLines(p.content.text)).toContain(title);
      expect(p.content.text).not.toContain('\ufffd');
      expect(p.content.text).not.toContain('\ufeff');
    });
  }
});

describe('chunked-gzip.warc.gz', () => {
  for (const [path, title] of [
    ['chunked.html', 'Chunked transfer'],
    ['gzip.html', 'Gzip content'],
    ['both.html', 'Chunked and gzipped'],
  ]) {
    it(`de-chunks and gunzips ${path}`, async () => {
      const { pages } = await ingestFixture('chunked-gzip.warc.gz');
      const p = pages.find((x) => x.page.url === `http://encodings.example.test/${path}`)!;
      expect(p.page.title).toBe(title);
      expect(p.page.note).toBe('');
      const lines = textLines(p.content.text).filter((l) => /^Line \d+ of /.test(l));
      expect(lines).toHaveLength(12);
      expect(lines.map((l) => Number(/^Line (\d+)/.exec(l)![1]))).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
      ]);
      // No chunk-size lines or gzip bytes leaked into the text.
      expect(p.content.text).not.toMatch(/^[0-9a-f]+(;ext=1)?$/m);
      expect(p.content.text).not.toContain('\ufffd');
    });
  }
});

describe('hostile.warc.gz', () => {
  it('keeps markup in the title and text as literal text and drops script contents', async () => {
    const evil = '<script>alert(1)</script> <img src=x onerror=alert(1)>';
    const { pages } = await ingestFixture('hostile.warc.gz');
    expect(pages).toHaveLength(1);
    const p = pages[0];
    expect(p.page.title).toBe(evil);
    const lines = textLines(p.content.text);
    expect(lines).toContain(evil);
    expect(p.content.text).toContain('a javascript: link');
    // The real <script> elements' content is not text.
    expect(lines).not.toContain('alert(1)');
    // <h1> and <p> repeat the escaped string; nothing else (no script bodies, no attributes) is text.
    expect(lines).toEqual([evil, evil, 'a javascript: link']);
    expect(p.content.outlinks.some((l) => l.startsWith('javascript:'))).toBe(false);
  });
});

describe('bad-length.warc and bad-length-short.warc (wrong Content-Length)', () => {
  for (const [name, declared] of [
    ['bad-length.warc', 510],
    ['bad-length-short.warc', 442],
  ] as const) {
    const offsets = fixtureCounts[name].record_offsets as number[];

    it(`${name}: warns at record 2 naming Content-Length and reads all 3 records`, async () => {
      const { pages, summary } = await ingestFixture(name);
      expect(summary.error).toBeNull();
      expect(summary.warningCount).toBe(1);
      const w = summary.warnings[0];
      expect(w.fileName).toBe(name);
      expect(w.offset).toBe(offsets[1]);
      expect(w.message).toContain(name);
      expect(w.message).toContain(`at byte ${offsets[1]}`);
      expect(w.message).toContain('Content-Length');
      expect(w.message).toContain(String(declared));
      expect(w.reason).toMatch(declared === 510 ? /too large/ : /too small/);
      const base = `http://www.example.test/${name.replace('.warc', '')}`;
      expect(pages.map((p) => p.page.url)).toEqual([1, 2, 3].map((i) => `${base}/${i}.html`));
      expect(pages.map((p) => p.page.offset)).toEqual(offsets);
      expect(pages.map((p) => p.page.title)).toEqual(
        [1, 2, 3].map((i) => `${name.replace('.warc', '')} record ${i}`),
      );
    });

    // Regression test (fixed in src).
    it(`${name}: the recovered block is exact and the warning says off by 40`, async () => {
      const { pages, summary } = await ingestFixture(name);
      expect(summary.warnings[0].reason).toContain('off by 40 bytes');
      // All three bodies are the same template, so they have the same size.
      expect(pages[1].page.sizeMin).toBe(pages[0].page.sizeMin);
    });
  }
});

describe('WarcParser', () => {
  const REC2_BLOCK = 'resource body\r\n\r\nwith a blank line inside';
  const REC2_LEN = REC2_BLOCK.length; // ASCII: one byte per character (41)
  const rec1 = warcRecord(
    [
      ['WARC-Type', 'response'],
      ['WARC-Target-URI', 'http://a.test/'],
    ],
    httpResponse(200, [['Content-Type', 'text/html']], '<title>A</title>'),
  );
  const rec2 = warcRecord(
    [
      ['WARC-Type', 'resource'],
      ['WARC-Target-URI', 'http://a.test/r.txt'],
    ],
    REC2_BLOCK,
  );

  function run(data: Uint8Array, pieces: number, compressed = false): WarcRecord[] {
    const out: WarcRecord[] = [];
    const p = new WarcParser((r) => out.push({ ...r, block: r.block && r.block.slice() }), compressed);
    for (let i = 0; i < data.length; i += pieces) p.push(data.slice(i, i + pieces), i);
    p.end();
    return out;
  }

  it('parses records fed byte by byte exactly as when fed whole', () => {
    const data = concat(rec1, rec2);
    const whole = run(data, data.length);
    expect(whole.map((r) => [r.type, r.offset, r.contentLength, r.block?.length])).toEqual([
      ['response', 0, whole[0].block!.length, whole[0].block!.length],
      ['resource', rec1.length, REC2_LEN, REC2_LEN],
    ]);
    expect(latin1(whole[1].block!)).toBe(REC2_BLOCK);
    expect(REC2_LEN).toBe(41);
    for (const n of [1, 2, 3, 7, 64]) expect(run(data, n)).toEqual(whole);
  });

  it('reports version, ordered headers and lowercases the type', () => {
    const data = warcRecord(
      [
        ['WARC-Type', 'Response'],
        ['X-Folded', 'a'],
        ['WARC-Target-URI', 'http://a.test/'],
      ],
      'x',
      'WARC/1.0',
    );
    const [r] = run(data, 5);
    expect(r.version).toBe('WARC/1.0');
    expect(r.type).toBe('response');
    expect(r.headers.map(([k]) => k)).toEqual(['WARC-Type', 'X-Folded', 'WARC-Target-URI', 'Content-Length']);
  });

  it('accepts bare LF line ends and separators between records', () => {
    const lf = utf8Bytes(
      'WARC/1.0\nWARC-Type: resource\nContent-Length: 5\n\nhello\n\n' +
        'WARC/1.0\nWARC-Type: resource\nContent-Length: 2\n\nhi\r\n\r\n',
    );
    expect(run(lf, 3).map((r) => latin1(r.block!))).toEqual(['hello', 'hi']);
  });

  // Regression test (fixed in src).
  it('accepts a bare "\\n\\n" after the last record', () => {
    const lf = utf8Bytes('WARC/1.0\nWARC-Type: resource\nContent-Length: 5\n\nhello\n\n');
    expect(run(lf, 100).map((r) => latin1(r.block!))).toEqual(['hello']);
  });

  function runWarned(data: Uint8Array, pieces: number, compressed = false) {
    const out: WarcRecord[] = [];
    const warnings: { kind: string; reason: string; offset: number }[] = [];
    const p = new WarcParser((r) => out.push({ ...r, block: r.block && r.block.slice() }), compressed, {
      onWarning: (reason, offset, kind) => warnings.push({ kind, reason, offset }),
    });
    for (let i = 0; i < data.length; i += pieces) p.push(data.slice(i, i + pieces), i);
    p.end();
    return { records: out, warnings };
  }

  it('reads a record without Content-Length up to the next record header, naming its offset', () => {
    const bad = utf8Bytes('WARC/1.1\r\nWARC-Type: resource\r\n\r\nabc\r\n\r\n');
    for (const pieces of [1, 7, 1000]) {
      const { records, warnings } = runWarned(concat(rec1, bad, rec2), pieces);
      expect(records.map((r) => r.offset)).toEqual([0, rec1.length, rec1.length + bad.length]);
      expect(latin1(records[1].block!)).toBe('abc');
      expect(latin1(records[2].block!)).toBe(REC2_BLOCK);
      expect(warnings).toEqual([
        {
          kind: 'length-malformed',
          reason: expect.stringMatching(/without Content-Length/),
          offset: rec1.length,
        },
      ]);
    }
  });

  it('decodes WARC headers as UTF-8 (WARC 1.1), not Latin-1', () => {
    const rec = warcRecord(
      [
        ['WARC-Type', 'resource'],
        ['WARC-Target-URI', 'http://bücher.test/straße?q=日本'],
      ],
      'x',
    );
    const [r] = run(rec, 7);
    expect(targetUri(r.headers)).toBe('http://bücher.test/straße?q=日本');
  });

  it('refuses lengths that are not digits ("", 1e2, 0x10, -5) and reads on at the next record', () => {
    for (const v of ['', '1e2', '0x10', '-5', '3.0', '12abc']) {
      const bad = utf8Bytes(`WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: ${v}\r\n\r\nabc\r\n\r\n`);
      const { records, warnings } = runWarned(concat(rec1, bad, rec2), 5);
      expect(records.map((r) => r.block && latin1(r.block)).slice(1), v).toEqual(['abc', REC2_BLOCK]);
      expect(
        warnings.map((w) => [w.kind, w.offset]),
        v,
      ).toEqual([['length-malformed', rec1.length]]);
      expect(warnings[0].reason, v).toContain(JSON.stringify(v));
    }
  });

  it('notes duplicate Content-Length headers and keeps the one that fits', () => {
    const two = utf8Bytes(
      'WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 9999\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n',
    );
    const { records, warnings } = runWarned(concat(rec1, two, rec2), 3);
    expect(records.map((r) => r.block && latin1(r.block)).slice(1)).toEqual(['abc', REC2_BLOCK]);
    expect(warnings.map((w) => w.kind)).toEqual(['length-duplicate', 'length-off']);
    expect(warnings.every((w) => w.offset === rec1.length)).toBe(true);
    expect(warnings[0].reason).toContain('"9999", "3"');
  });

  it('keeps every record after a length corrupted to any size (seeded random corruptions)', () => {
    const seed = 4242;
    const rng = seededRandom(seed);
    for (let trial = 0; trial < 40; trial++) {
      const n = 5 + Math.floor(rng() * 30);
      const recs = Array.from({ length: n }, (_, k) =>
        warcRecord(
          [
            ['WARC-Type', 'resource'],
            ['WARC-Target-URI', `http://a.test/${trial}/${k}`],
          ],
          `body ${k} ${'x'.repeat(Math.floor(rng() * 300))}`,
        ),
      );
      const bad = Math.floor(rng() * n);
      const lengths = [0, 1, 7, 5000, 70_000_000, 2 ** 40, Math.floor(rng() * 1e6)];
      const wrong = lengths[Math.floor(rng() * lengths.length)];
      const text = latin1(recs[bad]);
      const real = /Content-Length: (\d+)/.exec(text)![1];
      if (Number(real) === wrong) continue;
      recs[bad] = utf8Bytes(text.replace(`Content-Length: ${real}`, `Content-Length: ${wrong}`));
      const data = concat(...recs);
      const pieces = [1 + Math.floor(rng() * 50), 4096, data.length][trial % 3];
      const where = `seed ${seed} trial ${trial}: record ${bad} of ${n}, Content-Length ${real} → ${wrong}, pieces ${pieces}`;
      let read: ReturnType<typeof runWarned>;
      try {
        read = runWarned(data, pieces);
      } catch (e) {
        // Only the last record may claim more than the file holds: then the file is cut, said so.
        expect(bad, `${where}: ${(e as Error).message}`).toBe(n - 1);
        expect((e as FormatFault).message, where).toMatch(new RegExp(`Content-Length \\(?${wrong}\\b`));
        continue;
      }
      const { records, warnings } = read;
      // Every other record is read whole; the damaged one is noted at its own offset.
      const urls = records.map((r) => targetUri(r.headers));
      for (let k = 0; k < n; k++) if (k !== bad) expect(urls, where).toContain(`http://a.test/${trial}/${k}`);
      let at = 0;
      for (let k = 0; k < bad; k++) at += recs[k].length;
      if (bad < n - 1 || wrong < Number(real))
        expect(
          warnings.map((w) => w.offset),
          where,
        ).toContain(at);
      for (const w of warnings) expect(w.reason, where).toContain(String(wrong));
    }
  });

  it('faults on data that is not a WARC record header', () => {
    const data = concat(rec1, utf8Bytes('HTTP/1.1 200 OK\r\n\r\n'));
    expect(() => run(data, 1000)).toThrow(/trailing data after the last record: "HTTP\/1\.1 200 OK/);
    // Followed by a record, it is read past (noted), and the record is read.
    const { records, warnings } = runWarned(concat(rec1, utf8Bytes('HTTP/1.1 200 OK\r\n\r\n'), rec2), 7);
    expect(records.map((r) => r.offset)).toEqual([0, rec1.length + 19]);
    expect(warnings).toEqual([
      { kind: 'junk', reason: expect.stringMatching(/^19 bytes after a record/), offset: rec1.length },
    ]);
  });

  it('faults when the file ends inside a block', () => {
    const data = rec2.subarray(0, rec2.length - 10);
    expect(() => run(data, 1000)).toThrow(/truncated record: it declares Content-Length 41/);
  });

  it('faults on trailing junk after the last record but not on trailing line breaks', () => {
    expect(run(concat(rec1, utf8Bytes('\r\n\n\r\n')), 4)).toHaveLength(1);
    expect(() => run(concat(rec1, utf8Bytes('junk')), 1000)).toThrow(/trailing data after the last record/);
  });

  it('faults when Content-Length is wrong and no record header is near', () => {
    const data = utf8Bytes('WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\nabcdef\r\n\r\n');
    expect(() => run(data, 1000)).toThrow(/Content-Length \(3\) does not match its data/);
  });

  it(`counts but does not keep blocks over ${MAX_BLOCK >> 20} MiB, and reads the next record`, () => {
    const size = MAX_BLOCK + 1000;
    const head = utf8Bytes(`WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: ${size}\r\n\r\n`);
    const seen: [string, number, number | null][] = [];
    const p = new WarcParser((r) => seen.push([r.type, r.contentLength, r.block && r.block.length]), false);
    p.push(head, 0);
    const piece = new Uint8Array(1 << 20).fill(0x61);
    let left = size;
    let at = head.length;
    while (left > 0) {
      const n = Math.min(left, piece.length);
      p.push(piece.subarray(0, n), at);
      at += n;
      left -= n;
    }
    p.push(utf8Bytes('\r\n\r\n'), at);
    p.push(rec2, at + 4);
    p.end();
    expect(seen).toEqual([
      ['resource', size, null],
      ['resource', REC2_LEN, REC2_LEN],
    ]);
  });

  it('with memberPerRecord, refuses a record that starts inside a gzip member', () => {
    const data = concat(rec1, rec2);
    const records: string[] = [];
    const p = new WarcParser((r) => records.push(r.type), true, { memberPerRecord: true });
    // One "member" holding both records (decoded data pushed with one member offset).
    expect(() => {
      p.push(data, 0);
      p.end();
    }).toThrow(/gzipped as a whole/);
    expect(records).toEqual(['response']);

    const q = new WarcParser((r) => records.push(r.type), true, { memberPerRecord: true });
    q.push(rec1, 0);
    q.push(rec2, 500);
    q.end();
    expect(records).toEqual(['response', 'response', 'resource']);
  });
});

describe('WARC revisits (synthetic)', () => {
  const html = httpResponse(
    200,
    [['Content-Type', 'text/html; charset=utf-8']],
    '<title>Orig</title><p>Body text</p>',
  );
  const original = warcRecord(
    [
      ['WARC-Type', 'response'],
      ['WARC-Record-ID', '<urn:uuid:orig>'],
      ['WARC-Target-URI', 'http://a.test/'],
      ['WARC-Payload-Digest', 'sha1:AAAA'],
    ],
    html,
  );
  const revisit = (headers: [string, string][]) =>
    warcRecord(
      [['WARC-Type', 'revisit'], ...headers],
      httpResponse(304, [['Content-Type', 'text/html']], ''),
    );

  it('finds the original by URI and payload digest when WARC-Refers-To is absent', async () => {
    const data = concat(
      original,
      revisit([
        ['WARC-Target-URI', 'http://a.test/'],
        ['WARC-Payload-Digest', 'sha1:AAAA'],
      ]),
    );
    const { pages } = await ingestBytes(data, 'r.warc');
    expect(pages[1].page.revisitOf).toBe(0);
    expect(pages[1].page.title).toBe('Orig');
    expect(pages[1].page.fingerprint).toBe(pages[0].page.fingerprint);
  });

  it('notes a revisit whose original is not in the file', async () => {
    const data = concat(
      original,
      revisit([
        ['WARC-Target-URI', 'http://a.test/'],
        ['WARC-Refers-To', '<urn:uuid:elsewhere>'],
        ['WARC-Payload-Digest', 'sha1:BBBB'],
      ]),
    );
    const { pages } = await ingestBytes(data, 'r.warc');
    expect(pages[1].page.revisitOf).toBe(-1);
    expect(pages[1].page.note).toBe('revisit of a record not in this file');
    expect(pages[1].page.title).toBe('');
    expect(pages[1].page.fingerprint).toBe('');
  });

  it('skips dns: records and records without a target URI', async () => {
    const data = concat(
      warcRecord(
        [
          ['WARC-Type', 'response'],
          ['WARC-Target-URI', 'dns:a.test'],
        ],
        '20240115100000\na.test. 300 IN A 192.0.2.1',
      ),
      warcRecord([['WARC-Type', 'resource']], 'no uri'),
      original,
    );
    const { pages, summary } = await ingestBytes(data, 'd.warc');
    expect(pages.map((p) => p.page.url)).toEqual(['http://a.test/']);
    expect(summary.recordsByType).toEqual({ response: 2, resource: 1 });
    expect(summary.skipped).toEqual({
      'dns: lookup records': 1,
      'resource records without WARC-Target-URI': 1,
    });
  });
});

describe('WarcParser agrees with warcio', () => {
  for (const name of ['tiny.warc', 'tiny.warc.gz', 'wget-angle.warc.gz', 'charsets.warc.gz']) {
    it(`${name}: same record types, target URIs, block lengths and offsets`, async () => {
      const data = fixtureBytes(name);
      const theirs: SeenRecord[] = [];
      const parser = new WARCParser(chunked(data, 1000), { parseHttp: false });
      for await (const record of parser) {
        const block = await record.readFully(false);
        const uri = record.warcTargetURI ?? '';
        theirs.push({
          type: record.warcType ?? '',
          uri: uri.replace(/^<(.*)>$/, '$1'),
          contentLength: record.warcContentLength,
          blockLength: block.length,
          offset: parser.offset,
        });
      }
      const ours = parseAll(data, 1000, name.endsWith('.gz'));
      expect(theirs.length).toBeGreaterThan(5);
      expect(ours).toEqual(theirs);
      for (const r of ours) expect(r.blockLength).toBe(r.contentLength);
    });
  }
});

describe('wet.warc.wet.gz (Common Crawl WET)', () => {
  it("reads each conversion record as a page: the record's text, its target URI; the rest counted", async () => {
    const { summary, pages } = await ingestFixture('wet.warc.wet.gz');
    expect(summary.format).toBe('warc');
    expect(summary.error).toBeNull();
    expect(summary.recordsByType).toEqual(fixtureCounts['wet.warc.wet.gz']);
    expect(pages.map((p) => [p.page.url, p.page.recordType])).toEqual([
      ['http://www.example.test/news/flood', 'conversion'],
      ['http://www.example.test/news/flood?utm_source=feed', 'conversion'],
      ['http://www.example.test/print/news/flood', 'conversion'],
      ['http://www.example.test/recettes/tarte', 'conversion'],
    ]);
    // The text is the block as written (UTF-8), line breaks kept; the accents of the French page too.
    const first = pages[0].content?.text ?? '';
    expect(first.startsWith('The river rose overnight after three days of rain.')).toBe(true);
    expect(pages[3].content?.text).toContain('Éplucher les pommes');
    expect(pages[0].page.fingerprint).toBe(pages[1].page.fingerprint);
    expect(pages[2].page.fingerprint).not.toBe(pages[0].page.fingerprint);
    expect(pages.every((p) => p.page.textLength > 0 && p.page.status === 0)).toBe(true);
    expect(summary.skipped).toEqual({ 'warcinfo records (not pages)': 1 });
  });

  it('says a WAT file (JSON metadata records) is not where the pages are', async () => {
    const meta = (uri: string, n: number) =>
      warcRecord(
        [
          ['WARC-Type', 'metadata'],
          ['WARC-Target-URI', uri],
          ['WARC-Record-ID', `<urn:uuid:00000000-0000-4000-8000-00000000000${n}>`],
          ['WARC-Date', '2024-01-15T10:00:00Z'],
          ['Content-Type', 'application/json'],
        ],
        JSON.stringify({ Envelope: { 'WARC-Header-Metadata': { 'WARC-Target-URI': uri } } }),
      );
    const { summary, pages } = await ingestBytes(
      concat(meta('http://a.test/', 1), meta('http://a.test/b', 2)),
      'x.warc.wat',
    );
    expect(pages).toHaveLength(0);
    expect(summary.skipped).toEqual({
      'metadata records in JSON (a WAT file: open its WARC or WET for the pages)': 2,
    });
  });
});
