import { describe, expect, it } from 'vitest';
import { urlsOnlyBy, urlsSaved } from '../../../src/core/dust/saved';
import { canonizeAll, runDustBuster } from '../../../src/core/dust';
import { generateWorld } from '../../../scripts/lib/dust-world';
import { params, substringRule, urlsOf } from './fixtures';

describe('urlsSaved', () => {
  const records = [
    'http://s.com/a/index.html',
    'http://s.com/a/',
    'http://s.com/b/index.html', // its target http://s.com/b/ is not in the list: kept, saves nothing
    'http://s.com/c/index.html',
    'http://s.com/c/',
    'http://s.com/story?id=1',
  ].map((url) => ({ url, status: 200 }));
  const valid = { status: 'valid' as const };
  const index = substringRule('/index.html$', '/$', 3, { id: 7, ...valid });
  const story = substringRule('^http://s.com/story?id=', '^http://s.com/story_', 1, { id: 9, ...valid });
  const refuted = substringRule('/a/', '/c/', 1, { id: 11, status: 'refuted' });

  it('counts each URL once, by the first rule its canonisation applies; other rules save nothing', () => {
    const urls = urlsOf(records);
    const { canonical } = canonizeAll(urls, [index, story, refuted], params({ site: 'domain' }));
    const saved = urlsSaved([index, story, refuted], [...canonical.keys()], canonical, params());
    expect(saved).toEqual({ 7: 2, 9: 0 });
  });

  it('says what each rule adds beyond the others: the URLs kept apart without it', () => {
    const urls = urlsOf(records);
    const both = substringRule('/index.html$', '/$', 3, { id: 8, ...valid });
    const { canonical } = canonizeAll(urls, [index, story], params({ site: 'domain' }));
    expect(urlsOnlyBy([index, story], [...canonical.keys()], canonical, params())).toEqual({ 7: 2, 9: 0 });
    // Two rules that make the same merges: neither adds anything the other does not.
    const again = canonizeAll(urls, [index, both], params({ site: 'domain' })).canonical;
    expect(urlsOnlyBy([index, both], [...again.keys()], again, params())).toEqual({ 7: 0, 8: 0 });
  });

  // Seeded generated worlds: the column adds up to the summary (U_b − U_a) on any list.
  for (const seed of [11, 12, 13]) {
    it(`adds up to the discovered redundancy on generated world ${seed}`, () => {
      const w = generateWorld(seed, 0.25);
      const r = runDustBuster(w.records);
      const saved = urlsSaved(r.rules, [...r.canonical.keys()], r.canonical, params());
      const total = Object.values(saved).reduce((a, b) => a + b, 0);
      const { before, after } = r.metrics.redundancy;
      expect(total, `seed ${seed}`).toBe(before - after);
      expect(total, `seed ${seed}`).toBeGreaterThan(0);
      // Removing one rule splits at most the classes it merged: never more than all URLs saved.
      const only = urlsOnlyBy(r.rules, [...r.canonical.keys()], r.canonical, params());
      for (const [id, n] of Object.entries(only))
        expect(n, `seed ${seed} rule ${id}`).toBeLessThanOrEqual(total);
    });
  }
});
