import { describe, expect, it } from 'vitest';
import { CrawlIndexReader, isPageEntry } from '../../../src/core/sample/crawl-index';
import { seededRandom } from '../../../src/core/random';

function read(text: string, cuts: number[] = []): CrawlIndexReader {
  const r = new CrawlIndexReader();
  let at = 0;
  for (const c of [...cuts, text.length]) {
    r.push(text.slice(at, c));
    at = c;
  }
  r.finish();
  return r;
}

describe('crawl index reader', () => {
  it('reads CDXJ lines (pywb fields) with their place in the file', () => {
    const r = read(
      'org,example)/ 20240115100000 {"url": "https://example.org/", "mime": "text/html", "status": "200", "digest": "sha1:AAAA", "length": "812", "offset": "0", "filename": "a.warc.gz"}\n' +
        'org,example)/x 20240115100001 {"url": "https://example.org/x", "mime": "warc/revisit", "digest": "AAAA", "length": "300", "offset": "812", "filename": "a.warc.gz"}\n',
    );
    expect(r.entries).toEqual([
      {
        url: 'https://example.org/',
        timestamp: '20240115100000',
        mime: 'text/html',
        status: 200,
        digest: 'AAAA',
        length: 812,
        offset: 0,
        filename: 'a.warc.gz',
      },
      {
        url: 'https://example.org/x',
        timestamp: '20240115100001',
        mime: 'warc/revisit',
        status: 0,
        digest: 'AAAA',
        length: 300,
        offset: 812,
        filename: 'a.warc.gz',
      },
    ]);
    expect(r.entries.filter(isPageEntry)).toHaveLength(1);
  });

  it('reads CDX lines by the letters of their header (V offset, S length, g file)', () => {
    const r = read(
      ' CDX N b a m s k r M S V g\n' +
        'org,example)/ 20240115100000 https://example.org/ text/html 200 BBBB - - 900 1234 crawl-1.warc.gz\n' +
        'org,example)/img 20240115100000 https://example.org/i.png image/png 200 CCCC - - 50 2134 crawl-1.warc.gz\n',
    );
    expect(r.entries[0]).toMatchObject({
      url: 'https://example.org/',
      length: 900,
      offset: 1234,
      filename: 'crawl-1.warc.gz',
      status: 200,
    });
    expect(r.entries.filter(isPageEntry).map((e) => e.url)).toEqual(['https://example.org/']);
  });

  it('counts a bad line and names the first, reads the others', () => {
    const r = read('x\norg,a)/ 2024 {"url": "https://a/", "mime": "text/html"}\norg,b)/ 2024 {broken\n');
    expect(r.entries).toHaveLength(1);
    expect(r.bad).toBe(2);
    expect(r.firstBad).toEqual({ line: 1, reason: expect.stringMatching(/neither a CDXJ line/) });
  });

  it('the same entries whatever the text is cut into (random cuts, seeded)', () => {
    const seed = Number(process.env.INDEX_SEED ?? 7);
    const rnd = seededRandom(seed);
    const lines = Array.from(
      { length: 200 },
      (_, i) =>
        `org,s${i % 7})/p${i} 2024011510${String(i % 60).padStart(4, '0')} {"url": "https://s${i % 7}.org/p${i}", "mime": "text/html", "length": "${100 + i}", "offset": "${i * 1000}", "filename": "f${i % 3}.warc.gz"}`,
    );
    const text = lines.join('\r\n');
    const whole = read(text).entries;
    const cuts = Array.from({ length: 30 }, () => Math.floor(rnd() * text.length)).sort((a, b) => a - b);
    expect(read(text, cuts).entries, `seed ${seed}`).toEqual(whole);
    expect(whole).toHaveLength(200);
  });
});
