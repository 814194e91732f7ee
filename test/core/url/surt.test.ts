import { describe, expect, it } from 'vitest';
import { surt } from '../../../src/core/url/surt';

/**
 * Cases of the Internet Archive's SURT conventions, as its `surt` library's own tests state them
 * (WaybackURLKeyMakerTest, IAURLCanonicalizerTest, GoogleURLCanonicalizerTest): URL → key with the
 * default options (no scheme, host massage, no trailing comma).
 */
const CASES: [string, string][] = [
  // Not web URLs: their own key.
  ['', '-'],
  ['filedesc:foo.arc.gz', 'filedesc:foo.arc.gz'],
  ['filedesc://foo.arc.gz', 'filedesc://foo.arc.gz'],
  ['warcinfo:foo.warc.gz', 'warcinfo:foo.warc.gz'],
  ['dns:archive.org', 'dns:archive.org'],
  ['mailto:foo@example.com', 'mailto:foo@example.com'],
  // Scheme dropped, host reversed, www and wwwN stripped.
  ['http://www.archive.org/', 'org,archive)/'],
  ['http://archive.org/', 'org,archive)/'],
  ['https://www.example.com/', 'com,example)/'],
  ['ftp://www.example.com/', 'com,example)/'],
  ['http://www34.archive.org/index.html?b=a&b=b&a=b', 'org,archive)/index.html?a=b&b=a&b=b'],
  ['http://www2.www2foo.com/', 'com,www2foo)/'],
  ['whois://whois.isoc.org.il/shaveh.co.il', 'il,org,isoc,whois)/shaveh.co.il'],
  // Case, default ports.
  ['http://ARCHIVE.ORG/', 'org,archive)/'],
  ['http://www.archive.org:80/', 'org,archive)/'],
  ['https://www.archive.org:80/', 'org,archive:80)/'],
  ['http://www.archive.org:443/', 'org,archive:443)/'],
  ['https://www.archive.org:443/', 'org,archive)/'],
  [
    'http://mineral.galleries.com:/minerals/silicate/chabazit/chabazit.htm',
    'com,galleries,mineral)/minerals/silicate/chabazit/chabazit.htm',
  ],
  // Trailing slash, empty query, query order.
  ['http://www.archive.org/big/', 'org,archive)/big'],
  ['http://archive.org/goo/', 'org,archive)/goo'],
  ['http://archive.org/goo/?', 'org,archive)/goo'],
  ['http://archive.org/goo/?b&a', 'org,archive)/goo?a&b'],
  ['http://archive.org/goo/?a=2&b&a=1', 'org,archive)/goo?a=1&a=2&b'],
  ['http://archive.org/index.html?b=b&a=b', 'org,archive)/index.html?a=b&b=b'],
  ['http://example.com/foo?X=Y', 'com,example)/foo?x=y'],
  // Session ids.
  [
    'http://archive.org/index.php?PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile;u=4221',
    'org,archive)/index.php?action=profile;u=4221',
  ],
  ['http://archive.org/a?jsessionid=0123456789abcdefghijklemopqrstuv&x=y', 'org,archive)/a?x=y'],
  [
    'http://archive.org/a?jsessionid=0123456789abcdefghijklemopqrstuv0&x=y',
    'org,archive)/a?jsessionid=0123456789abcdefghijklemopqrstuv0&x=y',
  ],
  ['http://archive.org/a?sid=9682993c8daa2c5497996114facdc805&x=y', 'org,archive)/a?x=y'],
  [
    'http://archive.org/a?CFID=12412453&CFTOKEN=15501799&dt=19_08_2006_22_39_28',
    'org,archive)/a?dt=19_08_2006_22_39_28',
  ],
  ['http://archive.org/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx', 'org,archive)/mileg.aspx'],
  ['http://archive.org/photos/36050182@N05/', 'org,archive)/photos/36050182@n05'],
  // Escapes decoded repeatedly, written back only where needed; fragments dropped; dot segments.
  ['http://host/%25%32%35', 'host)/%25'],
  ['http://host/%2525252525252525', 'host)/%25'],
  ['http://host/asdf%25%32%35asd', 'host)/asdf%25asd'],
  ['http://www.evil.com/blah#frag', 'com,evil)/blah'],
  ['http://www.google.com/blah/..', 'com,google)/'],
  ['http://host.com//twoslashes?more//slashes', 'com,host)/twoslashes?more//slashes'],
  ['http://www.google.com/foo\tbar\rbaz\n2', 'com,google)/foobarbaz2'],
  // The IA's "Yahoo web bug" case: escapes decoded, the empty first part kept and sorted first.
  [
    'http://visit.webhosting.yahoo.com/visit.gif?&r=http%3A//web.archive.org/web/20090517140029/http%3A//anthonystewarthead.electric-chi.com/&b=Netscape%205.0%20%28Windows%3B%20en-US%29&s=1366x768&o=Win32&c=24&j=true&v=1.2',
    'com,yahoo,webhosting,visit)/visit.gif?&b=netscape%205.0%20(windows;%20en-us)&c=24&j=true&o=win32&r=http://web.archive.org/web/20090517140029/http://anthonystewarthead.electric-chi.com/&s=1366x768&v=1.2',
  ],
  // Internationalised host names in punycode.
  ['http://bücher.ch:8080/', 'ch,xn--bcher-kva:8080)/'],
];

describe('surt', () => {
  it.each(CASES)('%s → %s', (url, key) => {
    expect(surt(url)).toBe(key);
  });
});
