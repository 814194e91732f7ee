import { describe, expect, it } from 'vitest';
import { UrlIndex } from '../../../src/core/dust/rules';
import { splitUrls, validateRule, validateRules } from '../../../src/core/dust/validation';
import { seededRandom } from '../../../src/core/random';
import type { DustUrl, FetchFn, FetchResult } from '../../../src/core/dust/types';
import { logged, page, params, sketchOf, substringRule, urlsOf } from './fixtures';

/** A dataset fetch over the given pages, counting calls. */
function dataset(urls: DustUrl[], extra: Record<string, FetchResult> = {}) {
  const byUrl = new Map<string, FetchResult>(urls.map((u) => [u.url, u]));
  for (const [k, v] of Object.entries(extra)) byUrl.set(k, v);
  const calls: string[] = [];
  const fetch: FetchFn = (url) => {
    calls.push(url);
    return byUrl.get(url) ?? null;
  };
  return { fetch, calls };
}

const doc = (d: number): FetchResult => ({ sizeMin: 1, sizeMax: 1, sketch: sketchOf(d), digest: '' });

describe('splitUrls', () => {
  it('splits by URL and seed, not by order', () => {
    const urls = urlsOf(Array.from({ length: 1000 }, (_, k) => logged(`http://s/${k}`, 1)));
    const a = splitUrls(urls, 0.5, 1);
    const b = splitUrls([...urls].reverse(), 0.5, 1);
    expect(new Set(a.validation.map((u) => u.url))).toEqual(new Set(b.validation.map((u) => u.url)));
    expect(a.validation.length).toBeGreaterThan(430);
    expect(a.validation.length).toBeLessThan(570);
    expect(splitUrls(urls, 0.5, 2).validation).not.toEqual(a.validation);
    expect(splitUrls(urls, 0, 1)).toEqual({ detection: urls, validation: urls });
  });
});

describe('validateRule (Fig. 3)', () => {
  const story = (n: number, bad: (k: number) => boolean) => {
    const urls = urlsOf(Array.from({ length: n }, (_, k) => page(`http://s/story?id=${k}`, k)));
    const extra: Record<string, FetchResult> = {};
    for (let k = 0; k < n; k++) extra[`http://s/story_${k}`] = doc(bad(k) ? 10000 + k : k);
    return { urls, ...dataset(urls, extra) };
  };
  const rule = substringRule('story?id=', 'story_', 50);

  it('accepts after (1 − ε)·N = 95 similar samples', () => {
    const { urls, fetch, calls } = story(300, () => false);
    const o = validateRule(rule, new UrlIndex(urls), fetch, params(), seededRandom(1));
    expect(o).toMatchObject({ verdict: 'valid', positives: 95, negatives: 0 });
    expect(calls.length).toBe(190);
  });

  it('refutes at ε·N = 5 samples that are not similar', () => {
    const { urls, fetch } = story(300, (k) => k % 5 === 0);
    const o = validateRule(rule, new UrlIndex(urls), fetch, params(), seededRandom(1));
    expect(o).toMatchObject({ verdict: 'refuted', negatives: 5 });
    expect(o.positives).toBeLessThan(95);
  });

  it('judges an exhausted test list by the same ratio', () => {
    const few = story(10, (k) => k === 3);
    expect(validateRule(rule, new UrlIndex(few.urls), few.fetch, params(), seededRandom(1))).toMatchObject({
      verdict: 'refuted',
      positives: 9,
      negatives: 1,
    });
    const good = story(10, () => false);
    const o = validateRule(rule, new UrlIndex(good.urls), good.fetch, params(), seededRandom(1));
    expect(o).toMatchObject({ verdict: 'valid', positives: 10 });
    expect(o.reason).toMatch(/exhausted/);
  });

  it('skips R(u) missing from the dataset, unless missingIsNegative (the paper\'s "fetch v failed")', () => {
    const urls = urlsOf(Array.from({ length: 20 }, (_, k) => page(`http://s/story?id=${k}`, k)));
    const { fetch } = dataset(urls);
    expect(validateRule(rule, new UrlIndex(urls), fetch, params(), seededRandom(1))).toMatchObject({
      verdict: 'undecided',
      missing: 20,
    });
    expect(
      validateRule(rule, new UrlIndex(urls), fetch, params({ missingIsNegative: true }), seededRandom(1)),
    ).toMatchObject({ verdict: 'refuted', negatives: 5 });
  });

  it('counts an error status of R(u) as negative', () => {
    const urls = urlsOf(Array.from({ length: 20 }, (_, k) => page(`http://s/story?id=${k}`, k)));
    const extra = Object.fromEntries(urls.map((u, k) => [`http://s/story_${k}`, { ...doc(k), status: 404 }]));
    const { fetch } = dataset(urls, extra);
    expect(validateRule(rule, new UrlIndex(urls), fetch, params(), seededRandom(1)).verdict).toBe('refuted');
  });
});

describe('validateRules (Fig. 4)', () => {
  it('tries the shrinking direction first and keeps it when valid', () => {
    const records = Array.from({ length: 30 }, (_, k) => [
      page(`http://s.com/d${k}/`, k),
      page(`http://s.com/d${k}/index.html`, k),
    ]).flat();
    const urls = urlsOf(records);
    const { fetch, calls } = dataset(urls);
    const rules = [substringRule('/index.html$', '/$', 30)];
    validateRules(rules, urls, fetch, params());
    expect(rules[0]).toMatchObject({ status: 'valid', direction: 'shrinking', positives: 30, negatives: 0 });
    expect(rules[0].alpha.join('')).toBe('/index.html$');
    // 30 samples of u and R(u); the growing direction was never tried.
    expect(calls.length).toBe(60);
  });

  it('validates the growing direction when the shrinking one is refuted, and swaps the sides', () => {
    // story?id=k exists for k < 20 but story_k is a different page there; story_k for k ≥ 20 has an
    // alias story?id=k with the same document.
    const records = [
      ...Array.from({ length: 20 }, (_, k) => page(`http://s.com/story?id=${k}`, k)),
      ...Array.from({ length: 20 }, (_, k) => page(`http://s.com/story_${k}`, 500 + k)),
      ...Array.from({ length: 20 }, (_, k) => page(`http://s.com/story_${20 + k}`, 20 + k)),
      ...Array.from({ length: 20 }, (_, k) => page(`http://s.com/story?id=${20 + k}`, 20 + k)),
    ];
    const all = urlsOf(records);
    const test = all.filter((u) =>
      u.url.includes('?id=') ? +u.url.split('=')[1] < 20 : +u.url.split('_')[1] >= 20,
    );
    const rules = [substringRule('story?id=', 'story_', 20)];
    validateRules(rules, test, dataset(all).fetch, params());
    expect(rules[0]).toMatchObject({ status: 'valid', direction: 'growing', positives: 20 });
    expect([rules[0].alpha.join(''), rules[0].beta.join('')]).toEqual(['story_', 'story?id=']);
  });

  it('drops refinements of valid rules without fetching (lines 4–7)', () => {
    const records = Array.from({ length: 30 }, (_, k) => [
      page(`http://s.com/story?id=${k}`, k),
      page(`http://s.com/story_${k}`, k),
    ]).flat();
    const urls = urlsOf(records);
    const { fetch, calls } = dataset(urls);
    const rules = [
      substringRule('?id=', '_', 30, { id: 7 }),
      substringRule('^http://s.com/story?id=', '^http://s.com/story_', 30, { id: 8 }),
    ];
    validateRules(rules, urls, fetch, params());
    const fetched = calls.length;
    expect(rules[0].status).toBe('valid');
    expect(rules[1]).toMatchObject({ status: 'likely', refinesValid: 7 });
    expect(rules[1].reason).toMatch(/refines valid rule #7/);
    validateRules([rules[1]], urls, fetch, params());
    expect(calls.length).toBeGreaterThan(fetched);
  });

  it('leaves rules likely, with a reason, when the URL list has no content (access logs)', () => {
    const records = Array.from({ length: 30 }, (_, k) => [
      logged(`http://s.com/d${k}/`, 100 + k),
      logged(`http://s.com/d${k}/index.html`, 100 + k),
    ]).flat();
    const urls = urlsOf(records);
    const rules = [substringRule('/index.html$', '/$', 30)];
    validateRules(rules, urls, dataset(urls).fetch, params());
    expect(rules[0].status).toBe('likely');
    expect(rules[0].direction).toBe('undecided');
    expect(rules[0].reason).toMatch(/no content/);
  });

  it('refutes a rule invalid in both directions', () => {
    const records = Array.from({ length: 30 }, (_, k) => [
      page(`http://s.com/a/${k}`, k),
      page(`http://s.com/b/${k}`, 100 + k),
    ]).flat();
    const urls = urlsOf(records);
    const rules = [substringRule('b', 'a', 30)];
    validateRules(rules, urls, dataset(urls).fetch, params());
    expect(rules[0]).toMatchObject({ status: 'refuted', negatives: 5 });
  });
});
