import { describe, expect, it } from 'vitest';
import { ingestCrawl } from '../../../src/core/ingest/many-files';
import { bytesSource } from '../../../src/core/ingest/wacz';
import {
  expectedTitles,
  fixtureCounts,
  ingestFailure,
  ingestFixture,
  ingestText,
  utf8Bytes,
} from '../helpers';

const J = 'http://jsonl.example.test';

describe('pages.jsonl', () => {
  it('makes one page per line with the titles in expected.json', async () => {
    const { pages, summary, formats } = await ingestFixture('pages.jsonl');
    expect(formats).toEqual([{ format: 'jsonl', compressed: false }]);
    expect(summary.recordsByType).toEqual({ 'jsonl line': fixtureCounts['pages.jsonl'].lines });
    expect(pages.map((p) => p.page.url)).toEqual([`${J}/a`, `${J}/b`, `${J}/c`, `${J}/d`, `${J}/a?ref=feed`]);
    expect(pages.map((p) => p.page.offset)).toEqual([1, 2, 3, 4, 5]);
    for (const [url, title] of Object.entries(expectedTitles['pages.jsonl'])) {
      expect(pages.find((p) => p.page.url === url)!.page.title).toBe(title);
    }
    expect(pages.filter((p) => p.page.mime === 'text/html')).toHaveLength(3);
    expect(pages.filter((p) => p.page.mime === 'text/plain')).toHaveLength(2);
  });

  it('gives identical content the same fingerprint and different content different ones', async () => {
    const { pages } = await ingestFixture('pages.jsonl');
    const fp = new Map(pages.map((p) => [p.page.url, p.page.fingerprint]));
    for (const [a, b] of fixtureCounts['pages.jsonl'].identical_pairs as [string, string][]) {
      expect(fp.get(a)).toMatch(/^[0-9a-f]{16}$/);
      expect(fp.get(a)).toBe(fp.get(b));
    }
    expect(new Set(fp.values()).size).toBe(4);
  });

  it('reads text, status, size, fetched_at and links', async () => {
    const { pages } = await ingestFixture('pages.jsonl');
    const [a, b, c, d] = pages;
    expect(b.content.text).toBe('Plain text page B about mountain railways and snow.');
    expect(b.page).toMatchObject({ title: '', status: 0, sizeMin: b.content.text.length });
    expect(c.page).toMatchObject({
      status: 200,
      sizeMin: 1234,
      sizeMax: 1234,
      fetchedAt: '2024-01-15T10:00:00Z',
    });
    // Links from the HTML and from "links", resolved and without duplicates.
    expect(c.content.outlinks).toEqual([`${J}/a`, `${J}/b`]);
    expect(d.page).toMatchObject({ status: 404, statuses: [404] });
    expect(a.content.text.split('\n')).toContain('Alpha page text about harbor cranes and river barges.');
    expect(a.content.text).not.toContain('<');
  });
});

describe('bad-line.jsonl', () => {
  it('keeps lines 1–2 and reports line 3 as the error', async () => {
    const { pages, summary } = await ingestFixture('bad-line.jsonl');
    expect(pages.map((p) => p.page.url)).toEqual([`${J}/1`, `${J}/2`]);
    expect(pages.map((p) => p.content.text)).toEqual(['one', 'two']);
    expect(summary.error).not.toBeNull();
    expect(summary.error!.line).toBe(fixtureCounts['bad-line.jsonl'].bad_line);
    expect(summary.error!.fileName).toBe('bad-line.jsonl');
    expect(summary.error!.message).toMatch(/^bad-line\.jsonl at line 3: not valid JSON/);
  });
});

describe('JSONL (synthetic)', () => {
  it('faults on a later line without a "url" string, naming the line', async () => {
    const text = ['{"url":"http://a.test/","text":"a"}', '{"text":"no url"}'].join('\n');
    const { summary, pages } = await ingestText(text, 'n.jsonl');
    expect(pages).toHaveLength(1);
    expect(summary.error).toMatchObject({ line: 2, reason: 'a JSON line without a "url" string' });
  });

  it('tells the format before handing over the lines read before a fault in its first 64 KiB (a small file keeps them)', async () => {
    const text = [
      '{"url":"http://a.test/1","text":"one"}',
      '{"url":"http://a.test/2","text":"two"}',
      '{"text":"x"}',
    ].join('\n');
    const formats: string[] = [];
    const told: number[] = [];
    const urls: string[] = [];
    const summary = await ingestCrawl(
      [bytesSource('gap.jsonl', utf8Bytes(text))],
      { onFormat: (f) => void formats.push(f) },
      async (b) => {
        told.push(formats.length);
        urls.push(...b.map((p) => p.page.url));
      },
    );
    expect(formats).toEqual(['jsonl']);
    expect(told.length > 0 && told.every((n) => n === 1)).toBe(true);
    expect(urls).toEqual(['http://a.test/1', 'http://a.test/2']);
    expect(summary.error?.message).toBe('gap.jsonl at line 3: a JSON line without a "url" string');
  });

  it('is refused before onFormat when the first line has no "url"', async () => {
    const { error, onFormatCalls } = await ingestFailure(utf8Bytes('{"text":"x"}\n'), 'nourl.jsonl');
    expect(onFormatCalls).toBe(0);
    expect(error.message).toMatch(/JSON lines without a "url" field/);
  });

  it('handles a BOM, CRLF line ends, blank lines and a last line without a line break', async () => {
    const text = '\ufeff{"url":"http://a.test/1","text":"x"}\r\n\r\n{"url":"http://a.test/2","text":"y"}';
    const { pages } = await ingestText(text, 'crlf.jsonl');
    expect(pages.map((p) => [p.page.url, p.content.text, p.page.offset])).toEqual([
      ['http://a.test/1', 'x', 1],
      ['http://a.test/2', 'y', 3],
    ]);
  });
});
