import { describe, expect, it } from 'vitest';
import { hostnameOf, registrableDomain } from '../../../src/core/url/site';

describe('registrableDomain: the site DUST is mined within', () => {
  it('joins sub-domains and ports (google.com/news and news.google.com, §1)', () => {
    expect(registrableDomain('news.google.com')).toBe('google.com');
    expect(registrableDomain('google.com')).toBe('google.com');
    expect(registrableDomain('www.site.com:8080')).toBe('site.com');
    expect(registrableDomain('money.cnn.com')).toBe('cnn.com');
  });
  it('keeps a country second level (the forum site of Fig. 7 was under .co.il)', () => {
    expect(registrableDomain('www.forum.co.il')).toBe('forum.co.il');
    expect(registrableDomain('www.bbc.co.uk')).toBe('bbc.co.uk');
    expect(registrableDomain('a.b.example.com.au')).toBe('example.com.au');
    // "co" before a generic top-level domain is an ordinary label.
    expect(registrableDomain('www.co.com')).toBe('co.com');
  });
  it('leaves IP addresses whole and drops their ports', () => {
    expect(registrableDomain('127.0.0.1:18081')).toBe('127.0.0.1');
    expect(registrableDomain('[::1]:8080')).toBe('[::1]');
    expect(hostnameOf('[::1]:8080')).toBe('[::1]');
    expect(hostnameOf('example.org')).toBe('example.org');
  });
});
