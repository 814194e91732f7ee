import { describe, expect, it } from 'vitest';
import { fixtureCounts, ingestFixture, ingestText } from '../helpers';

const T = 'http://www.example.test';

describe('urls.txt', () => {
  it('reads one URL per line, ignoring the comment and the blank line', async () => {
    const { pages, summary, formats } = await ingestFixture('urls.txt');
    expect(formats).toEqual([{ format: 'url-list', compressed: false }]);
    expect(summary.recordsByType).toEqual({ url: fixtureCounts['urls.txt'].urls });
    expect(pages.map((p) => p.page.url)).toEqual([
      `${T}/`,
      `${T}/a.html`,
      `${T}/search?q=a,b`,
      `${T}/missing.html`,
      `${T}/b.html`,
    ]);
    // Offsets are line numbers (line 1 is the comment, line 4 blank).
    expect(pages.map((p) => p.page.offset)).toEqual([2, 3, 5, 6, 7]);
    for (const { page } of pages) {
      expect(page).toMatchObject({
        status: 0,
        statuses: [],
        sizeMin: -1,
        hits: 1,
        recordType: 'url',
        title: '',
      });
      expect(page.host).toBe('www.example.test');
    }
  });
});

describe('URL list (synthetic)', () => {
  it('normalises URLs and skips lines that are not absolute URLs', async () => {
    const text =
      'HTTP://WWW.Example.TEST:80/a#top\r\nhttps://b.test:443/\r\nhttps://c.test/\r\nhttps://d.test/\r\nnot a url\r\n';
    const { pages, summary } = await ingestText(text, 'list.txt');
    expect(pages.map((p) => [p.page.url, p.page.normUrl, p.page.host])).toEqual([
      ['HTTP://WWW.Example.TEST:80/a#top', 'http://www.example.test/a', 'www.example.test'],
      ['https://b.test:443/', 'https://b.test/', 'b.test'],
      ['https://c.test/', 'https://c.test/', 'c.test'],
      ['https://d.test/', 'https://d.test/', 'd.test'],
    ]);
    expect(summary.skipped).toEqual({ 'lines that are not absolute URLs': 1 });
    expect(summary.hosts).toBe(4);
  });
});
