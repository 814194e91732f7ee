import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sniff } from '../../../src/core/ingest/sniff';
import type { FormatId } from '../../../src/core/types';
import { fixtureBytes, utf8Bytes } from '../helpers';

const head = (name: string) => fixtureBytes(name).subarray(0, 64 << 10);

function formatOf(data: Uint8Array, name: string): FormatId | string {
  const s = sniff(data, name);
  return s.ok ? s.format : `refused: ${s.reason}`;
}

describe('sniff', () => {
  const formats: [string, FormatId][] = [
    ['tiny.warc', 'warc'],
    ['bad-length.warc', 'warc'],
    ['tiny.arc', 'arc'],
    ['crawl.log', 'crawl-log'],
    ['access.log', 'access-log'],
    ['access-common.log', 'access-log'],
    ['pages.jsonl', 'jsonl'],
    ['bad-line.jsonl', 'jsonl'],
    ['urls.csv', 'csv'],
    ['urls.tsv', 'tsv'],
    ['urls.txt', 'url-list'],
  ];
  for (const [name, format] of formats) {
    it(`recognises ${name} as ${format}`, () => {
      expect(formatOf(head(name), name)).toBe(format);
    });
  }

  it('lets content win over the file name', () => {
    expect(formatOf(head('tiny.warc'), 'x.txt')).toBe('warc');
    expect(formatOf(head('tiny.arc'), 'crawl.warc')).toBe('arc');
    expect(formatOf(head('crawl.log'), 'urls.csv')).toBe('crawl-log');
    expect(formatOf(head('urls.csv'), 'data.warc')).toBe('csv');
    expect(formatOf(head('urls.txt'), 'pages.jsonl')).toBe('url-list');
  });

  it('uses the name only to break a tie (a one-column "url" table)', () => {
    const table = utf8Bytes('url\nhttp://a.test/\nhttp://b.test/\n');
    expect(formatOf(table, 'list.tsv')).toBe('tsv');
    expect(formatOf(table, 'list.csv')).toBe('csv');
  });

  it('refuses non-crawl files with a reason naming what they are', () => {
    expect(formatOf(head('junk.bin'), 'junk.bin')).toMatch(/^refused: binary data .*unknown format/);
    expect(formatOf(head('image.png'), 'image.png')).toMatch(
      /^refused: this is a PNG image, not a crawl file/,
    );
    expect(formatOf(head('page.html'), 'page.html')).toMatch(/^refused: this is a single HTML page/);
    expect(formatOf(new Uint8Array(0), 'empty.warc')).toBe('refused: the file is empty (0 bytes)');
  });

  it('names other well-known binary formats by their magic', () => {
    const cases: [number[], RegExp][] = [
      [[0xff, 0xd8, 0xff, 0xe0], /JPEG image/],
      [[0x47, 0x49, 0x46, 0x38, 0x39, 0x61], /GIF image/],
      [[0x25, 0x50, 0x44, 0x46, 0x2d], /PDF document/],
      [[0x50, 0x4b, 0x03, 0x04], /ZIP archive/],
      [[0x42, 0x5a, 0x68, 0x39], /bzip2/],
      [[0x28, 0xb5, 0x2f, 0xfd], /zstd/],
      [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], /xz/],
    ];
    for (const [bytes, re] of cases)
      expect(formatOf(new Uint8Array([...bytes, 0, 0, 0]), 'x.warc')).toMatch(re);
    expect(formatOf(new Uint8Array(gzipSync(utf8Bytes('x'))), 'x.warc')).toMatch(/gzip inside gzip/);
  });

  it('reads past a UTF-8 byte-order mark', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    expect(formatOf(new Uint8Array([...bom, ...head('tiny.warc')]), 'x')).toBe('warc');
    expect(formatOf(new Uint8Array([...bom, ...head('urls.txt')]), 'x')).toBe('url-list');
  });

  it('explains text it cannot place', () => {
    expect(formatOf(utf8Bytes('# only a comment\n\n# another\n'), 'x.txt')).toMatch(/no data lines/);
    expect(formatOf(utf8Bytes('{"text":"no url"}\n{"text":"x"}\n'), 'x.jsonl')).toMatch(
      /without a "url" field/,
    );
    expect(formatOf(utf8Bytes('{"url": oops\n{}\n'), 'x.jsonl')).toMatch(/does not parse/);
    expect(formatOf(utf8Bytes('Dear diary,\ntoday I crawled.\nIt was fun.\n'), 'x.txt')).toMatch(
      /^refused: unknown format/,
    );
  });

  it('judges a line-based head on complete lines only', () => {
    // The head ends in the middle of a line that on its own would not parse.
    const lines = head('crawl.log');
    const cut = lines.subarray(0, lines.indexOf(10, 400) + 30);
    expect(formatOf(cut, 'crawl.log')).toBe('crawl-log');
  });
});
