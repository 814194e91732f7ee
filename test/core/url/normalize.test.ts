import { describe, expect, it } from 'vitest';
import { isWebUrl, normaliseUrl } from '../../../src/core/url/normalize';

describe('normaliseUrl', () => {
  it('lowercases scheme and host, drops the default port and the fragment', () => {
    expect(normaliseUrl('HTTP://WWW.Example.TEST:80/Path/A.html?Q=X#Frag')).toEqual({
      href: 'http://www.example.test/Path/A.html?Q=X',
      host: 'www.example.test',
      ok: true,
    });
    expect(normaliseUrl('https://Secure.Test:443/').href).toBe('https://secure.test/');
    expect(normaliseUrl('http://a.test').href).toBe('http://a.test/');
    expect(normaliseUrl('http://a.test/#').href).toBe('http://a.test/');
  });

  it('keeps non-default ports in href and host', () => {
    expect(normaliseUrl('http://a.test:8080/x')).toEqual({
      href: 'http://a.test:8080/x',
      host: 'a.test:8080',
      ok: true,
    });
    expect(normaliseUrl('https://a.test:80/').href).toBe('https://a.test:80/');
  });

  it('resolves relative references against a base', () => {
    const base = 'http://site.test/dir/page.html?x=1';
    expect(normaliseUrl('other.html', base).href).toBe('http://site.test/dir/other.html');
    expect(normaliseUrl('../up.html#f', base).href).toBe('http://site.test/up.html');
    expect(normaliseUrl('/root', base).href).toBe('http://site.test/root');
    expect(normaliseUrl('//cdn.test/a', base).href).toBe('http://cdn.test/a');
    expect(normaliseUrl('?y=2', base).href).toBe('http://site.test/dir/page.html?y=2');
    expect(normaliseUrl('#only-fragment', base).href).toBe('http://site.test/dir/page.html?x=1');
  });

  it('trims white space, percent-encodes spaces in the path, and punycodes IDN hosts', () => {
    expect(normaliseUrl('  http://a.test/a b  ').href).toBe('http://a.test/a%20b');
    expect(normaliseUrl('http://bücher.test/').host).toBe('xn--bcher-kva.test');
  });

  it('returns unparseable input trimmed, with ok false and no host', () => {
    expect(normaliseUrl('  not a url ')).toEqual({ href: 'not a url', host: '', ok: false });
    expect(normaliseUrl('http://')).toEqual({ href: 'http://', host: '', ok: false });
    expect(normaliseUrl('relative.html')).toMatchObject({ ok: false, host: '' });
  });
});

describe('isWebUrl', () => {
  it('is true for http and https only', () => {
    expect(isWebUrl('http://a.test/')).toBe(true);
    expect(isWebUrl('https://a.test/')).toBe(true);
    for (const u of [
      'mailto:a@b.test',
      'javascript:alert(1)',
      'ftp://a.test/',
      'data:text/plain,x',
      'HTTP://a.test/',
    ]) {
      expect(isWebUrl(u), u).toBe(false);
    }
  });
});
