import { describe, expect, it } from 'vitest';
import { buildUrlList, isErrorStatus, tokenizeUrl, untokenize } from '../../../src/core/dust/url-list';
import { redirectTarget } from '../../../src/core/dust/from-page';
import type { PageRecord } from '../../../src/core/types';

const basePage: PageRecord = {
  seq: 0,
  url: 'http://s.com/a/x.html',
  normUrl: 'http://s.com/a/x.html',
  host: 's.com',
  status: 200,
  statuses: [200],
  mime: 'text/html',
  sizeMin: 100,
  sizeMax: 100,
  hits: 1,
  fetchedAt: '',
  recordType: 'response',
  title: '',
  textLength: 0,
  fingerprint: '',
  digest: '',
  charset: '',
  revisitOf: -1,
  offset: 0,
  note: '',
};

describe('tokenizeUrl (§3)', () => {
  it('splits alphanumeric runs and single other characters, framed by ^ … $', () => {
    expect(tokenizeUrl('http://www.site.com/index.html')).toEqual([
      '^',
      'http',
      ':',
      '/',
      '/',
      'www',
      '.',
      'site',
      '.',
      'com',
      '/',
      'index',
      '.',
      'html',
      '$',
    ]);
    expect(tokenizeUrl('http://d/story?id=12&x=ab-3')).toEqual([
      '^',
      'http',
      ':',
      '/',
      '/',
      'd',
      '/',
      'story',
      '?',
      'id',
      '=',
      '12',
      '&',
      'x',
      '=',
      'ab',
      '-',
      '3',
      '$',
    ]);
  });

  it('reads letters and digits of any script as alphanumeric, one token per other code point', () => {
    expect(tokenizeUrl('http://x/café/日本~😀')).toEqual([
      '^',
      'http',
      ':',
      '/',
      '/',
      'x',
      '/',
      'café',
      '/',
      '日本',
      '~',
      '😀',
      '$',
    ]);
  });

  it('spells the URL back without the frames', () => {
    const u = 'http://a/b^c$d?x=$1';
    expect(untokenize(tokenizeUrl(u))).toBe(u);
  });
});

describe('buildUrlList (§5.1 pre-processing)', () => {
  it('drops 4xx/5xx and Heritrix failures, keeps unknown statuses of plain URL lists', () => {
    expect([404, 500, 599, -1, -9998].map((s) => isErrorStatus(s))).toEqual([true, true, true, true, true]);
    expect([200, 301, 304, 0].map((s) => isErrorStatus(s))).toEqual([false, false, false, false]);
    expect(isErrorStatus(0, 'crawl-log line')).toBe(true);
    const { urls, errorRecords } = buildUrlList([
      { url: 'http://s/a', status: 200 },
      { url: 'http://s/b', status: 404 },
      { url: 'http://s/c', status: 503 },
      { url: 'http://s/d', status: 0 },
      { url: 'http://s/e', status: 0, recordType: 'crawl-log line' },
      { url: 'http://s/f', status: -2 },
    ]);
    expect(urls.map((u) => u.url)).toEqual(['http://s/a', 'http://s/d']);
    expect(errorRecords).toBe(4);
  });

  it('keeps unique URLs and the size range over their occurrences (§4: the interval I_u)', () => {
    const { urls, repeatedRecords } = buildUrlList([
      { url: 'HTTP://S.com/x', status: 200, sizeMin: 500, sizeMax: 500 },
      { url: 'http://s.com/x#frag', status: 200, sizeMin: 300, sizeMax: 350 },
      { url: 'http://s.com/x', status: 404, sizeMin: 10, sizeMax: 10 },
      { url: 'http://s.com/x', status: 200, sizeMin: -1, sizeMax: -1 },
      { url: 'http://s.com/y', status: 200 },
    ]);
    expect(urls.map((u) => [u.url, u.host, u.sizeMin, u.sizeMax])).toEqual([
      ['http://s.com/x', 's.com', 300, 500],
      ['http://s.com/y', 's.com', -1, -1],
    ]);
    expect(repeatedRecords).toBe(2);
    expect(urls[0].tokens[0]).toBe('^');
    expect(urls[0].tokens.at(-1)).toBe('$');
  });

  it('prefers the text fingerprint to the payload digest as content identity', () => {
    const { urls } = buildUrlList([
      { url: 'http://s/a', status: 200, digest: 'sha1:AAA', fingerprint: '0123456789abcdef' },
      { url: 'http://s/b', status: 200, digest: 'sha1:BBB' },
    ]);
    expect(urls.map((u) => u.digest)).toEqual(['fp:0123456789abcdef', 'sha1:BBB']);
  });

  it('gives a redirect its target’s document (§3: doc(u) is the returned document)', () => {
    const sketch = Uint32Array.of(1, 2, 3);
    const { urls } = buildUrlList([
      {
        url: 'http://s/old',
        status: 301,
        sizeMin: 180,
        sizeMax: 180,
        digest: 'sha1:MOVED',
        redirectTo: 'http://s/mid',
      },
      {
        url: 'http://s/mid',
        status: 302,
        sizeMin: 170,
        sizeMax: 170,
        digest: 'sha1:MOVED',
        redirectTo: 'http://s/new',
      },
      { url: 'http://s/new', status: 200, sizeMin: 900, sizeMax: 950, digest: 'sha1:NEW', sketch },
      {
        url: 'http://s/gone',
        status: 301,
        sizeMin: 180,
        sizeMax: 180,
        digest: 'sha1:MOVED',
        redirectTo: 'http://elsewhere/',
      },
      { url: 'http://s/loop1', status: 301, digest: 'sha1:MOVED', redirectTo: 'http://s/loop2' },
      { url: 'http://s/loop2', status: 301, digest: 'sha1:MOVED', redirectTo: 'http://s/loop1' },
    ]);
    const of = (u: string) => urls.find((x) => x.url === u)!;
    for (const u of ['http://s/old', 'http://s/mid']) {
      expect(of(u)).toMatchObject({
        redirect: 'http://s/new',
        digest: 'sha1:NEW',
        sizeMin: 900,
        sizeMax: 950,
      });
      expect(of(u).sketch).toBe(sketch);
    }
    // Target not crawled, or a loop: no known document (not the "Moved" notice every redirect shares).
    for (const u of ['http://s/gone', 'http://s/loop1', 'http://s/loop2'])
      expect(of(u)).toMatchObject({ redirect: '', digest: '', sketch: null, sizeMin: -1 });
    expect(of('http://s/new').redirect).toBe('');
  });
});

describe('redirectTarget', () => {
  const pageOf = (status: number) => ({ ...basePage, status });
  it('resolves Location against the page URL for 3xx only', () => {
    expect(redirectTarget(pageOf(301), [['Location', '../b/c.html#top']])).toBe('http://s.com/b/c.html');
    expect(redirectTarget(pageOf(302), [['location', 'HTTP://OTHER.org']])).toBe('http://other.org/');
    expect(redirectTarget(pageOf(200), [['Location', '/x']])).toBe('');
    expect(redirectTarget(pageOf(301), [])).toBe('');
  });
});
