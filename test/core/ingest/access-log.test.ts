import { describe, expect, it } from 'vitest';
import { clfDateToIso, HOST_GUESSED, vhostOrigin } from '../../../src/core/ingest/access-log';
import { normaliseUrl } from '../../../src/core/url/normalize';
import { generateWorld, worldAccessLog } from '../../../scripts/lib/dust-world';
import { fixtureCounts, ingestFixture, ingestText, pagesByUrl } from '../helpers';

const T = 'http://www.example.test';
const line = (path: string, status: number, size: number | '-', method = 'GET', referer = '-') =>
  `192.0.2.1 - - [15/Jan/2024:10:00:01 +0000] "${method} ${path} HTTP/1.1" ${status} ${size} "${referer}" "UA"`;

describe('access.log (Combined Log Format)', () => {
  const counts = fixtureCounts['access.log'] as Record<string, number>;

  it('reads every line and makes one page per distinct GET/HEAD target', async () => {
    const { summary, pages, formats } = await ingestFixture('access.log');
    expect(formats).toEqual([{ format: 'access-log', compressed: false }]);
    expect(summary.recordsByType).toEqual({ 'log line': counts.lines });
    expect(summary.skipped).toEqual({ 'POST requests (not page fetches)': counts.post });
    // /comments is only ever POSTed to: no page.
    expect(pages).toHaveLength(counts.distinct_request_targets - 1);
    expect(pages.some((p) => p.page.url.endsWith('/comments'))).toBe(false);
    expect(pages.reduce((n, p) => n + p.page.hits, 0)).toBe(counts.get + counts.head);
  });

  it('infers the site from the referers and counts hits and the min–max size per URL', async () => {
    const { pages } = await ingestFixture('access.log');
    const byUrl = pagesByUrl(pages);
    const a = byUrl.get(`${T}/a.html`)!;
    expect(a).toMatchObject({
      hits: 4,
      sizeMin: 2048,
      sizeMax: 2051,
      status: 200,
      statuses: [200],
      note: '',
    });
    expect(a.recordType).toBe('log url');
    expect(a.fetchedAt).toBe('2024-01-15T10:00:05.000Z');
    // The query-string variant is its own URL.
    expect(byUrl.get(`${T}/a.html?utm_source=news&utm_medium=email`)).toMatchObject({
      hits: 1,
      sizeMin: 2048,
    });
    // GET / and HEAD / (size "-") are one URL with two hits; "-" does not count as a size.
    expect(byUrl.get(`${T}/`)).toMatchObject({ hits: 2, sizeMin: 5120, sizeMax: 5120 });
    // The line with escaped quotes in its user agent and the IPv6 line both count.
    expect(byUrl.get(`${T}/b.html`)).toMatchObject({ hits: 2, sizeMin: 1900, sizeMax: 1900 });
    expect(byUrl.get(`${T}/style.css`)).toMatchObject({
      status: 304,
      statuses: [304],
      sizeMin: -1,
      sizeMax: -1,
    });
  });

  it('keeps 4xx/5xx URLs with a note', async () => {
    const { pages } = await ingestFixture('access.log');
    const byUrl = pagesByUrl(pages);
    expect(byUrl.get(`${T}/missing.html`)).toMatchObject({
      status: 404,
      statuses: [404],
      note: 'error status seen: 404',
    });
    expect(byUrl.get(`${T}/cgi-bin/report`)).toMatchObject({
      status: 500,
      statuses: [500],
      note: 'error status seen: 500',
    });
    const errors = pages.filter((p) => p.page.statuses.some((s) => s >= 400));
    expect(errors).toHaveLength(counts.status_4xx + counts.status_5xx);
    for (const p of pages) if (!p.page.statuses.some((s) => s >= 400)) expect(p.page.note).toBe('');
  });
});

describe('access-common.log (Common Log Format)', () => {
  const counts = fixtureCounts['access-common.log'] as Record<string, number>;

  it('reads lines without referer and user agent, on http://localhost by default', async () => {
    const { summary, pages } = await ingestFixture('access-common.log');
    expect(summary.format).toBe('access-log');
    expect(summary.recordsByType).toEqual({ 'log line': counts.lines });
    expect(summary.skipped).toEqual({ 'POST requests (not page fetches)': counts.post });
    expect(pages).toHaveLength(counts.distinct_request_targets - 1);
    const byUrl = pagesByUrl(pages);
    expect(byUrl.get('http://localhost/a.html')).toMatchObject({ hits: 3, sizeMin: 2048, sizeMax: 2051 });
    expect(byUrl.get('http://localhost/missing.html')!.note).toBe('error status seen: 404');
  });

  it('puts the paths on the baseUrl option when given', async () => {
    const { pages } = await ingestFixture('access-common.log', { baseUrl: 'https://site.test/' });
    expect(pages.map((p) => p.page.url)).toContain('https://site.test/a.html');
    expect(pages.every((p) => p.page.url.startsWith('https://site.test/'))).toBe(true);
    expect(new Set(pages.map((p) => p.page.host))).toEqual(new Set(['site.test']));
  });
});

describe('access log (synthetic)', () => {
  it('collects every status seen for a URL, sorted, with the first non-error as status', async () => {
    const text = [
      line('/x', 503, 100),
      line('/x', 200, 300, 'GET', 'https://site.test/'),
      line('/x', 200, 250),
      line('/x', 404, 50),
      line('/x', 301, 0),
    ].join('\n');
    const { pages } = await ingestText(text, 'x.log');
    expect(pages).toHaveLength(1);
    expect(pages[0].page).toMatchObject({
      url: 'https://site.test/x',
      status: 200,
      statuses: [200, 301, 404, 503],
      hits: 5,
      sizeMin: 250,
      sizeMax: 300,
      note: 'error status seen: 404, 503',
    });
  });

  it('skips POST and malformed requests, counts lines it cannot parse', async () => {
    const text = [
      line('/a', 200, 10),
      line('/form', 200, 10, 'POST'),
      line('/form', 200, 10, 'PUT'),
      '192.0.2.1 - - [15/Jan/2024:10:00:01 +0000] "\\x16\\x03\\x01" 400 0 "-" "-"',
      'garbage that is not a log line',
    ].join('\n');
    const { pages, summary } = await ingestText(text, 'y.log');
    expect(pages.map((p) => p.page.url)).toEqual(['http://localhost/a']);
    expect(summary.recordsByType).toEqual({ 'log line': 4, 'unparsed line': 1 });
    expect(summary.skipped).toEqual({
      'POST requests (not page fetches)': 1,
      'PUT requests (not page fetches)': 1,
      'malformed request lines': 1,
      'lines not in Common/Combined Log Format': 1,
    });
  });

  it('clfDateToIso converts to UTC and rejects malformed dates', () => {
    expect(clfDateToIso('15/Jan/2024:05:04:30 -0500')).toBe('2024-01-15T10:04:30.000Z');
    expect(clfDateToIso('17/May/2015:10:05:03 +0000')).toBe('2015-05-17T10:05:03.000Z');
    expect(clfDateToIso('01/Jan/2024:00:30:00 +0100')).toBe('2023-12-31T23:30:00.000Z');
    expect(clfDateToIso('15/Foo/2024:05:04:30 -0500')).toBe('');
    expect(clfDateToIso('2024-01-15')).toBe('');
  });
});

describe('access logs as they come: virtual hosts, or a host guessed per site and said', () => {
  // Seeded generated worlds of three sites (scripts/lib/dust-world.ts), written as access logs.
  for (const seed of [31, 32, 33]) {
    const world = generateWorld(seed, 0.3, 3);
    const origins = new Set(world.records.map((r) => new URL(r.url).origin));
    const paths = (o: string) =>
      world.records.filter((r) => new URL(r.url).origin === o).map((r) => new URL(r.url).pathname);

    it(`keeps every virtual host of a vhost_combined log apart (world ${seed})`, async () => {
      const { pages, summary } = await ingestText(worldAccessLog(world, true), 'vhosts.log');
      // The field has a port but no scheme: hosts and ports are kept (https read from 443 and 8443).
      const hostOf = (u: string) => new URL(u).host;
      expect(new Set(pages.map((p) => p.page.host)), `seed ${seed}`).toEqual(
        new Set([...origins].map(hostOf)),
      );
      // http and https of one host are two URLs when their ports say so (80, 443).
      expect(pages.length).toBe(new Set(world.records.map((r) => normaliseUrl(r.url).href)).size);
      expect(summary.warnings.some((w) => w.kind === HOST_GUESSED)).toBe(false);
      expect(pages.every((p) => p.page.logPath === undefined)).toBe(true);
    });

    it(`guesses the host per path from the referers and says so (world ${seed})`, async () => {
      const { pages, summary } = await ingestText(worldAccessLog(world, false), 'paths.log');
      const said = summary.warnings.find((w) => w.kind === HOST_GUESSED);
      expect(said?.reason, `seed ${seed}`).toMatch(/host guessed from the referers: https?:\/\//);
      // A path only one site serves gets that site's host.
      const owner = new Map<string, Set<string>>();
      for (const o of origins) for (const p of paths(o)) owner.set(p, (owner.get(p) ?? new Set()).add(o));
      let unique = 0;
      let right = 0;
      for (const p of pages) {
        const path = p.page.logPath!;
        const o = owner.get(new URL(path, 'http://x').pathname);
        if (!o || o.size !== 1) continue;
        unique++;
        if (new URL(p.page.url).origin === [...o][0]) right++;
      }
      expect(unique).toBeGreaterThan(50);
      expect(right / unique, `seed ${seed}: ${right} of ${unique}`).toBeGreaterThan(0.9);
      expect(new Set(pages.map((p) => p.page.host)).size).toBeGreaterThan(1);
    });
  }

  it('reads port 443 as https and other ports as part of the origin', () => {
    expect(vhostOrigin('www.a.test:443')).toBe('https://www.a.test');
    expect(vhostOrigin('www.a.test:80')).toBe('http://www.a.test');
    expect(vhostOrigin('a.test:8080')).toBe('http://a.test:8080');
    expect(vhostOrigin('a.test')).toBe('http://a.test');
  });
});

describe('a guessed host per site', () => {
  it('puts the paths of www.s and s on one origin, the one that refers most', async () => {
    const text = [
      line('/a', 200, 10, 'GET', 'http://www.s.test/b'),
      line('/b', 200, 10, 'GET', 'http://www.s.test/a'),
      line('/c', 200, 10, 'GET', 'http://s.test/a'),
      line('/d', 200, 10, 'GET', 'http://www.s.test/c'),
      line('/x', 200, 10, 'GET', 'http://other.test/y'),
      line('/y', 200, 10, 'GET', 'http://other.test/x'),
    ].join('\n');
    const { pages } = await ingestText(text, 'x.log');
    const hosts = new Map(pages.map((p) => [p.page.logPath, p.page.host]));
    expect(hosts.get('/c')).toBe('www.s.test');
    expect(hosts.get('/a')).toBe('www.s.test');
    expect(hosts.get('/x')).toBe('other.test');
  });
});
