import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WarcParser } from '../../../src/core/ingest/warc';
import { FormatFault } from '../../../src/core/ingest/errors';
import { parseHeaderLines } from '../../../src/core/ingest/bytes';
import { expectedTitles, fixtureBytes, fixtureCounts, ingestFixture, latin1, utf8Bytes } from '../helpers';

/**
 * Odd-but-valid files (scripts/lib/fixtures-lenient.ts), read with the counts the most lenient peers
 * give (warcio, jwarc's lenient mode, warcio.js), each oddity noted once per file. Every fixture is
 * read in 1000-byte pieces and in one piece, so no result depends on where a chunk ends.
 */
const counts = (name: string) => fixtureCounts[name] as Record<string, number>;

async function read(name: string) {
  const a = await ingestFixture(name);
  const b = await ingestFixture(name, { chunkSize: Infinity });
  expect(b.summary.recordsByType).toEqual(a.summary.recordsByType);
  expect(b.pages.map((p) => p.page.url)).toEqual(a.pages.map((p) => p.page.url));
  return a;
}

function titlesOf(run: Awaited<ReturnType<typeof read>>): Record<string, string> {
  return Object.fromEntries(run.pages.map((p) => [p.page.url, p.page.title]));
}

describe('WARC oddities', () => {
  it('lowercase-version.warc: "warc/1.0" is read as WARC/1.0, noted once', async () => {
    const c = counts('lowercase-version.warc');
    const { summary, pages, formats } = await read('lowercase-version.warc');
    expect(formats[0].format).toBe('warc');
    expect(summary.recordsByType).toEqual({ warcinfo: c.warcinfo, request: c.request, response: c.response });
    expect(pages.length).toBe(c.pages);
    expect(summary.warningCount).toBe(c.warnings);
    expect(summary.warnings[0].reason).toMatch(
      /"warc\/1\.0" is not upper case.*\(5 records; the first at byte 0\)/,
    );
    expect(summary.error).toBeNull();
  });

  it('clueweb09.warc.gz: WARC/0.18, LF lines, lengths one too large, whole-file gzip', async () => {
    const c = counts('clueweb09.warc.gz');
    const raw = latin1(new Uint8Array(gunzipSync(fixtureBytes('clueweb09.warc.gz'))));
    expect(raw.startsWith('WARC/0.18\n')).toBe(true);
    expect(raw).not.toContain('\r');
    const run = await read('clueweb09.warc.gz');
    expect(run.summary.recordsByType).toEqual({ warcinfo: c.warcinfo, response: c.response });
    expect(run.pages.length).toBe(c.pages);
    expect(titlesOf(run)).toEqual(expectedTitles['clueweb09.warc.gz']);
    expect(run.pages.every((p) => p.page.status === 200)).toBe(true);
    expect(run.summary.warningCount).toBe(c.warnings);
    const reasons = run.summary.warnings.map((w) => w.reason);
    expect(reasons.some((r) => /WARC\/0\.18 is a pre-standard draft/.test(r))).toBe(true);
    expect(reasons.some((r) => /^separator one CRLF short.*\(3 records;/.test(r))).toBe(true);
    expect(reasons.some((r) => /^gzipped as a whole/.test(r))).toBe(true);
    expect(run.summary.error).toBeNull();
  });

  it('short-separator.warc: one CRLF between records is read, noted once with the count', async () => {
    const c = counts('short-separator.warc');
    const run = await read('short-separator.warc');
    expect(run.summary.recordsByType).toEqual({
      warcinfo: c.warcinfo,
      request: c.request,
      response: c.response,
    });
    expect(titlesOf(run)).toEqual(expectedTitles['short-separator.warc']);
    expect(run.summary.warningCount).toBe(1);
    expect(run.summary.warnings[0].reason).toMatch(
      new RegExp(`^separator one CRLF short.*\\(${c.short_separators} records; the first at byte 0\\)`),
    );
    // The blocks are whole, not cut two bytes short: each body is as long as its HTTP Content-Length.
    for (const p of run.pages) {
      const stated = p.content.headers.find(([k]) => k.toLowerCase() === 'content-length')?.[1];
      expect(p.page.sizeMax).toBe(Number(stated));
    }
  });

  it('folded-headers.warc: folded values lose the fold, not a leading space', async () => {
    const c = counts('folded-headers.warc');
    const run = await read('folded-headers.warc');
    expect(run.summary.recordsByType).toEqual({
      warcinfo: c.warcinfo,
      request: c.request,
      response: c.response,
    });
    expect(titlesOf(run)).toEqual(expectedTitles['folded-headers.warc']);
    expect(run.summary.warningCount).toBe(0);
  });

  it('brotli.warc.gz: a Content-Encoding: br body is decoded before its text is read', async () => {
    const c = counts('brotli.warc.gz');
    const run = await read('brotli.warc.gz');
    expect(run.pages.length).toBe(c.pages);
    expect(titlesOf(run)).toEqual(expectedTitles['brotli.warc.gz']);
    expect(run.pages[0].content.text).toContain('Decoded before the text is read.');
    expect(run.pages[0].page.note).toBe('');
  });

  it('tiny-single-member.warc.gz: a whole-file gzip is read by default', async () => {
    const run = await read('tiny-single-member.warc.gz');
    expect(run.summary.error).toBeNull();
    expect(run.summary.warnings.map((w) => w.reason)).toEqual([
      expect.stringMatching(/^gzipped as a whole.*read in order; random access by offset is not possible/),
    ]);
  });

  it('truncated-whole.warc.gz: the records that inflate from a cut whole-file gzip are kept', async () => {
    const c = fixtureCounts['truncated-whole.warc.gz'] as {
      good_records: number;
      pages: number;
      record_types: string[];
    };
    const { summary, pages } = await ingestFixture('truncated-whole.warc.gz');
    const byType: Record<string, number> = {};
    for (const t of c.record_types) byType[t] = (byType[t] ?? 0) + 1;
    expect(summary.recordsByType).toEqual(byType);
    expect(pages.length).toBe(c.pages);
    expect(titlesOf({ pages } as Awaited<ReturnType<typeof read>>)).toEqual(
      expectedTitles['truncated-whole.warc.gz'],
    );
    expect(summary.error?.reason).toMatch(/^truncated gzip/);
  });
});

describe('ARC oddities', () => {
  it('arc-bad-lengths.arc: -1 and non-numeric lengths are read up to the next header line', async () => {
    const c = counts('arc-bad-lengths.arc');
    const run = await read('arc-bad-lengths.arc');
    expect(run.summary.recordsByType).toEqual({ filedesc: c.filedesc, response: c.records });
    expect(titlesOf(run)).toEqual(expectedTitles['arc-bad-lengths.arc']);
    expect(run.pages.every((p) => p.page.status === 200)).toBe(true);
    expect(run.summary.warningCount).toBe(c.warnings);
    expect(run.summary.warnings[0].reason).toMatch(
      new RegExp(`no valid length \\("-1"\\).*\\(${c.bad_lengths} records; the first at byte 0\\)`),
    );
  });

  it('arc-no-filedesc.arc: sniffed as ARC and read without its version block, noted once', async () => {
    const c = counts('arc-no-filedesc.arc');
    const run = await read('arc-no-filedesc.arc');
    expect(run.formats[0].format).toBe('arc');
    expect(run.summary.recordsByType).toEqual({ response: c.records });
    expect(titlesOf(run)).toEqual(expectedTitles['arc-no-filedesc.arc']);
    expect(run.summary.warningCount).toBe(c.warnings);
    expect(run.summary.warnings[0].reason).toMatch(/does not start with its filedesc/);
  });
});

describe('WarcParser edge cases', () => {
  const rec = (body: string, sep: string) =>
    `WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: ${body.length}\r\n\r\n${body}${sep}`;

  function parse(text: string) {
    const types: string[] = [];
    const warnings: string[] = [];
    const p = new WarcParser((r) => types.push(r.type), false, {
      onWarning: (_r, _o, kind) => warnings.push(kind),
    });
    p.push(utf8Bytes(text), 0);
    p.end();
    return { types, warnings };
  }

  it('reads a record followed directly by the next header, and a last record with no separator', () => {
    const { types, warnings } = parse(rec('one', '') + rec('two', ''));
    expect(types).toEqual(['resource', 'resource']);
    expect(warnings).toEqual(['separator-missing', 'separator-missing']);
  });

  it('says "no complete WARC record", not "trailing data", when nothing was read', () => {
    expect(() => parse('WARC/1.0\r\nWARC-Type: resource\r\nContent-Len')).toThrow(
      /the file ends inside the first record header/,
    );
    expect(() => parse('WAR')).toThrow(/^no complete WARC record/);
    expect(() => parse(rec('one', '\r\n\r\n') + 'xyz')).toThrow(/trailing data after the last record/);
    try {
      parse(rec('one', '\r\n\r\n') + 'WARC/1.0\r\nWARC-Ty');
    } catch (e) {
      expect(e).toBeInstanceOf(FormatFault);
      expect((e as FormatFault).message).toMatch(/ends inside a record header/);
    }
  });

  it('joins a folded value without a leading space', () => {
    expect(parseHeaderLines('WARC-Type:\r\n warcinfo\r\nX: a\r\n\tb\r\n')).toEqual([
      ['WARC-Type', 'warcinfo'],
      ['X', 'a b'],
    ]);
  });
});
