import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../src/core/html/extract';
import { resolveLinkFast } from '../../../src/core/html/links';
import { seededRandom } from '../../../src/core/random';
import { normaliseUrl } from '../../../src/core/url/normalize';

const BASES = [
  'http://site.test/',
  'http://site.test/dir/page.html',
  'https://www.example.com/a/b/c?x=1&y=2',
  'http://site.test/dir/',
  'https://sub.site.test/p;q?r',
];

const LINKS = [
  '/a.html',
  '/a/b/c.html?x=1&y=2#frag',
  'page2.html',
  'sub/page.html?q',
  '?page=2',
  '#top',
  '/',
  'http://other.test',
  'http://other.test?x',
  'https://other.test/path/to?x=y#z',
  'http://Other.test/',
  'http://other.test:80/',
  'http://127.0.0.1/x',
  'http://a.1/x',
  'http://xn--nxasmq6b.test/',
  'http://user@other.test/',
  '//cdn.test/x.js',
  './a.html',
  '../up.html',
  '/a/./b',
  '/a/../b',
  '/a/%2e%2e/b',
  '/a b',
  ' /lead',
  '/tab\there',
  '/back\\slash',
  "/it's",
  "?it's",
  'mailto:x@y.test',
  'javascript:void(0)',
  'a:b',
  '/a:b@c',
  '/ümlaut',
  '/q?a=<b>',
  '/x^y',
  '/x|y',
  '/{x}',
  'HTTP://UPPER.test/',
  'http://a-.test/',
  'http://-a.test/',
  'http://a..b/',
  'http://a.test./',
  '/a?b?c/d',
  '/a#b#c',
  '..',
  '.',
  '...',
  '/..x/.y/',
];

function expectSame(raw: string, base: string): boolean {
  const fast = resolveLinkFast(raw, base);
  const n = normaliseUrl(raw, base);
  if (fast !== null)
    expect(n.ok && fast === n.href, `${raw} against ${base}: ${fast} vs ${n.href}`).toBe(true);
  return fast !== null;
}

describe('resolveLinkFast = the URL parser (normaliseUrl) wherever it answers', () => {
  it('agrees on hand-picked links and takes the common shapes', () => {
    let taken = 0;
    for (const base of BASES) for (const raw of LINKS) if (expectSame(raw, base)) taken++;
    expect(taken).toBeGreaterThan(BASES.length * 10);
    // The shapes it exists for are taken, not left to the parser.
    for (const raw of ['/a.html', 'page2.html', '?page=2', 'https://other.test/x', '#top'])
      expect(resolveLinkFast(raw, BASES[1]), raw).not.toBeNull();
  });

  it('agrees on 20,000 random links built from URL-significant characters', () => {
    const rnd = seededRandom(11);
    const parts = [
      'a',
      'B',
      '0',
      '9',
      '/',
      '.',
      '..',
      '?',
      '#',
      '%',
      '%2e',
      ':',
      '@',
      ' ',
      '\t',
      "'",
      '"',
      '\\',
      '-',
      '_',
      '~',
      '=',
      '&',
      'é',
      'http://',
      'https://',
      'x.test',
      '1.2',
      'xn--',
    ];
    let taken = 0;
    for (let i = 0; i < 20_000; i++) {
      let raw = '';
      const n = 1 + Math.floor(rnd() * 8);
      for (let k = 0; k < n; k++) raw += parts[Math.floor(rnd() * parts.length)];
      if (expectSame(raw, BASES[i % BASES.length])) taken++;
    }
    expect(taken).toBeGreaterThan(1000);
  });
});

describe('extractHtml with a page URL the parser rejects', () => {
  it('keeps no link, as the parser resolves none against it', () => {
    const x = extractHtml('<a href="https://x.test/a">a</a><a href="/b">b</a>', '<http://bad>');
    expect(x.outlinks).toEqual([]);
  });
});
