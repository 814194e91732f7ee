import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ArcParser, arcDateToIso, type ArcRecord } from '../../../src/core/ingest/arc';
import { FormatFault } from '../../../src/core/ingest/errors';
import { seededRandom } from '../../../src/core/random';
import {
  expectedTitles,
  fixtureBytes,
  fixtureCounts,
  ingestBytes,
  ingestFixture,
  latin1,
  referenceSha1Digest,
  utf8Bytes,
} from '../helpers';

const URLS = [
  'http://www.example.test/',
  'http://www.example.test/one.html',
  'http://www.example.test/two.html',
];
const DATES = ['2024-01-15T10:00:10Z', '2024-01-15T10:00:20Z', '2024-01-15T10:00:30Z'];

/** The file's bytes from `offset` on, decompressed when they start a gzip member. */
function from(data: Uint8Array, offset: number): Uint8Array {
  const rest = data.subarray(offset);
  return rest[0] === 0x1f && rest[1] === 0x8b ? new Uint8Array(gunzipSync(rest)) : rest;
}

describe('ARC fixtures', () => {
  for (const name of ['tiny.arc', 'tiny.arc.gz']) {
    describe(name, () => {
      it('counts the filedesc block and 3 records', async () => {
        const { summary, formats } = await ingestFixture(name);
        const counts = fixtureCounts[name] as { filedesc: number; records: number };
        expect(formats).toEqual([{ format: 'arc', compressed: name.endsWith('.gz') }]);
        expect(summary.recordsByType).toEqual({ filedesc: counts.filedesc, response: counts.records });
        expect(summary.pages).toBe(counts.records);
        expect(summary.skipped).toEqual({ 'ARC version block (not a page)': 1 });
        expect(summary.error).toBeNull();
      });

      it('reads URLs, dates, statuses and the titles in expected.json', async () => {
        const { pages } = await ingestFixture(name);
        expect(pages.map((p) => p.page.url)).toEqual(URLS);
        expect(pages.map((p) => p.page.fetchedAt)).toEqual(DATES);
        expect(pages.map((p) => p.page.status)).toEqual([200, 200, 200]);
        expect(pages.map((p) => p.page.mime)).toEqual(['text/html', 'text/html', 'text/html']);
        for (const p of pages) expect(p.page.title).toBe(expectedTitles[name][p.page.url]);
      });

      it('gives each page the offset of its ARC header line', async () => {
        const data = fixtureBytes(name);
        const { pages } = await ingestFixture(name);
        for (const { page } of pages) {
          const line = latin1(from(data, page.offset).subarray(0, 200)).split('\n')[0];
          expect(line.startsWith(`${page.url} 192.0.2.`), `${page.url} @${page.offset}: ${line}`).toBe(true);
        }
      });

      it('computes the SHA-1 digest of each HTTP body (ARC records carry none)', async () => {
        const data = fixtureBytes(name);
        const { pages } = await ingestFixture(name);
        for (const { page } of pages) {
          const rec = from(data, page.offset);
          const text = latin1(rec.subarray(0, 2000));
          const nl = text.indexOf('\n');
          const length = Number(text.slice(0, nl).split(' ').pop());
          const block = rec.subarray(nl + 1, nl + 1 + length);
          const bodyAt = latin1(block).indexOf('\r\n\r\n') + 4;
          const body = block.subarray(bodyAt);
          expect(page.digest).toBe(referenceSha1Digest(body));
          expect(page.sizeMin).toBe(body.length);
        }
      });
    });
  }

  it('tiny.arc and tiny.arc.gz give the same pages, offsets aside', async () => {
    const plain = await ingestFixture('tiny.arc');
    const gz = await ingestFixture('tiny.arc.gz');
    const strip = (r: typeof plain) => r.pages.map((p) => ({ ...p, page: { ...p.page, offset: 0 } }));
    expect(strip(gz)).toEqual(strip(plain));
  });
});

describe('ArcParser', () => {
  const filedesc = 'filedesc://x.arc 0.0.0.0 20240115100000 text/plain 9\n1 0 Test\n\n';
  const body = 'HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<title>V2</title>';
  const v2 = `http://a.test/v2 192.0.2.1 20240115100010 text/html 200 SUMCHECK - 0 x.arc ${body.length}\n${body}\n`;

  function run(text: string, pieces: number): ArcRecord[] {
    const out: ArcRecord[] = [];
    const p = new ArcParser((r) => out.push({ ...r, block: r.block.slice() }), false);
    const data = utf8Bytes(text);
    for (let i = 0; i < data.length; i += pieces) p.push(data.slice(i, i + pieces), i);
    p.end();
    return out;
  }

  it('reads the filedesc block and v2 header lines (length is the last field), in any pieces', () => {
    const whole = run(filedesc + v2, 10_000);
    expect(whole.map((r) => [r.type, r.url, r.ip, r.date, r.mime, r.offset])).toEqual([
      ['filedesc', 'filedesc://x.arc', '0.0.0.0', '20240115100000', 'text/plain', 0],
      ['response', 'http://a.test/v2', '192.0.2.1', '20240115100010', 'text/html', filedesc.length],
    ]);
    expect(latin1(whole[1].block)).toBe(body);
    for (const n of [1, 2, 5, 17]) expect(run(filedesc + v2, n)).toEqual(whole);
  });

  it('reads records without the filedesc:// block, noting it once', () => {
    const warnings: string[] = [];
    const seen: ArcRecord[] = [];
    const p = new ArcParser(
      (r) => seen.push({ ...r, block: r.block.slice() }),
      false,
      0,
      (_r, _o, kind) => warnings.push(kind),
    );
    p.push(utf8Bytes(v2 + v2), 0);
    p.end();
    expect(seen.map((r) => r.type)).toEqual(['response', 'response']);
    expect(warnings).toEqual(['arc-no-filedesc']);
  });

  it('keeps every record after a stated length corrupted to any size (seeded random corruptions)', () => {
    const seed = 9117;
    const rng = seededRandom(seed);
    for (let trial = 0; trial < 40; trial++) {
      const n = 4 + Math.floor(rng() * 20);
      const bodies = Array.from(
        { length: n },
        (_, k) => `HTTP/1.0 200 OK\r\n\r\nbody ${k} ${'y'.repeat(Math.floor(rng() * 200))}`,
      );
      const bad = Math.floor(rng() * n);
      const wrong = [0, 3, 5000, 70_000_000, 2 ** 40][Math.floor(rng() * 5)];
      const line = (k: number, len: number) =>
        `http://a.test/${trial}/${k} 192.0.2.1 20240115100010 text/html ${len}\n`;
      const text = filedesc + bodies.map((b, k) => line(k, k === bad ? wrong : b.length) + b + '\n').join('');
      const pieces = [1 + Math.floor(rng() * 40), 4096, 1 << 20][trial % 3];
      let where = `seed ${seed} trial ${trial}: record ${bad} of ${n} states ${wrong}, pieces ${pieces}`;
      const seen: string[] = [];
      const warnings: string[] = [];
      const p = new ArcParser(
        (r) => seen.push(r.url),
        false,
        0,
        (reason) => warnings.push(reason),
      );
      const data = utf8Bytes(text);
      let fault: unknown = null;
      try {
        for (let i = 0; i < data.length; i += pieces) p.push(data.slice(i, i + pieces), i);
        p.end();
      } catch (e) {
        fault = e;
        where += `: ${(e as Error).message}`;
      }
      for (let k = 0; k < n; k++) {
        // Only a last record that claims more than the file holds may be lost (the cut is reported).
        if (k === bad && k === n - 1 && fault) continue;
        expect(seen, where).toContain(`http://a.test/${trial}/${k}`);
      }
      // A fault is only the last record's (its length cut by the file's end, or nothing after it to
      // prove it wrong); it names that record's offset.
      if (fault) expect(bad, where).toBe(n - 1);
      else if (bad < n - 1) expect(warnings.join(' '), where).toContain(`states ${wrong} bytes`);
    }
  });

  it('faults on a header line that is not "URL IP date mime length"', () => {
    expect(() => run(filedesc + 'not an arc header\nxx', 100)).toThrow(FormatFault);
    expect(() => run(filedesc + 'not an arc header\nxx', 100)).toThrow(/expected an ARC header line/);
  });

  it('faults when the file ends inside a record, at that record', () => {
    const cut = (filedesc + v2).slice(0, filedesc.length + 100);
    try {
      run(cut, 100);
      expect.unreachable('should have thrown');
    } catch (e) {
      expect(e).toBeInstanceOf(FormatFault);
      expect((e as FormatFault).message).toMatch(/truncated record/);
      expect((e as FormatFault).offset).toBe(filedesc.length);
    }
  });

  it('arcDateToIso converts 14-digit (and shorter) ARC dates', () => {
    expect(arcDateToIso('19961104142103')).toBe('1996-11-04T14:21:03Z');
    expect(arcDateToIso('20240115')).toBe('2024-01-15T00:00:00Z');
    expect(arcDateToIso('2024-01-15')).toBe('');
  });

  it('skips dns: records and uses the ARC mime when the block has no HTTP header', async () => {
    const dns = 'dns:a.test 192.0.2.53 20240115100001 text/dns 10\n0123456789\n';
    const plain = 'hello from a non-HTTP block';
    const raw = `http://a.test/raw.txt 192.0.2.1 20240115100002 text/plain ${plain.length}\n${plain}\n`;
    const { pages, summary } = await ingestBytes(utf8Bytes(filedesc + dns + raw), 'x.arc');
    expect(summary.skipped['dns: lookup records']).toBe(1);
    expect(pages).toHaveLength(1);
    expect(pages[0].page.status).toBe(0);
    expect(pages[0].page.mime).toBe('text/plain');
    expect(pages[0].content.text).toBe(plain);
  });
});
