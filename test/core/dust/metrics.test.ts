import { describe, expect, it } from 'vitest';
import {
  coverage,
  discoveredRedundancy,
  dustMetrics,
  precisionAtK,
  precisionCurve,
} from '../../../src/core/dust/metrics';
import { logged, page, substringRule, urlsOf } from './fixtures';

describe('precision@k (§6, Fig. 5)', () => {
  const ranked = [
    substringRule('a', 'b', 9, { status: 'valid' }),
    substringRule('c', 'd', 8, { status: 'refuted' }),
    substringRule('ea', 'eb', 7, { refinesValid: 0 }),
    substringRule('f', 'g', 6),
  ];

  it('counts rules valid in at least one direction, and refinements of valid rules', () => {
    expect(precisionAtK(ranked, 1)).toBe(1);
    expect(precisionAtK(ranked, 2)).toBe(0.5);
    expect(precisionAtK(ranked, 3)).toBeCloseTo(2 / 3);
    expect(precisionAtK(ranked, 10)).toBe(0.5);
    expect(precisionAtK([], 10)).toBe(0);
    expect(precisionCurve(ranked)).toEqual([1, 0.5, 2 / 3, 0.5]);
  });
});

describe('discovered redundancy (§6: (U_b − U_a) / U_b)', () => {
  it('is the share of unique URLs canonization saves', () => {
    const canonical = new Map([
      ['http://s/d/index.html', 'http://s/d/'],
      ['http://s/d/', 'http://s/d/'],
      ['http://s/story?id=1', 'http://s/story_1'],
      ['http://s/story_1', 'http://s/story_1'],
      ['http://s/other', 'http://s/other'],
    ]);
    expect(discoveredRedundancy(canonical.keys(), canonical)).toEqual({ before: 5, after: 3, value: 0.4 });
    expect(discoveredRedundancy([], canonical).value).toBe(0);
  });
});

describe('coverage (§3)', () => {
  it('is the share of duplicate URLs (same sketch) that canonization removes', () => {
    const urls = urlsOf([
      page('http://s/d/', 1),
      page('http://s/d/index.html', 1),
      page('http://s/d/index.htm', 1),
      page('http://s/story?id=2', 2),
      page('http://s/story_2', 2),
      page('http://s/x', 3),
      page('http://s/y', 4),
    ]);
    // 7 URLs, 4 documents: 3 duplicates. Canonization merges index.html into d/ (1 of 3); merging
    // two different documents (x, y) is not coverage.
    const canonical = new Map(urls.map((u) => [u.url, u.url]));
    canonical.set('http://s/d/index.html', 'http://s/d/');
    canonical.set('http://s/y', 'http://s/x');
    expect(coverage(urls, canonical)).toEqual({ before: 3, after: 2, value: 1 / 3 });
  });

  it('is null without duplicates or without content', () => {
    const urls = urlsOf([{ url: 'http://s/a' }, { url: 'http://s/b' }]);
    expect(coverage(urls, new Map()).value).toBeNull();
  });
});

describe('precision@k without validation', () => {
  it('is unknown (empty), not 0, when no rule could be judged', () => {
    const urls = urlsOf([logged('http://s.com/a', 10), logged('http://s.com/b', 10)]);
    const m = dustMetrics(
      { detected: 1, afterRedundancy: 1 },
      [substringRule('a', 'b', 3)],
      urls,
      new Map(),
      0,
    );
    expect(m.precision).toEqual([]);
  });
});
