import { describe, expect, it } from 'vitest';
import { canonizationOrder, canonize, canonizeAll } from '../../../src/core/dust/canonize';
import type { SubstringRule } from '../../../src/core/dust/types';
import { seededRandom } from '../../../src/core/random';
import { logged, params, substringRule, urlsOf } from './fixtures';

const valid = (alpha: string, beta: string, over: Partial<SubstringRule> = {}) =>
  substringRule(alpha, beta, 10, { status: 'valid', direction: 'shrinking', ...over });

describe('canonize (§5.4)', () => {
  it("applies a rule whose α holds another rule's α first, so the general one cannot take it apart", () => {
    // At the leftmost occurrence, ".html → " first would turn /x.html/ into /x/, a page nobody crawled.
    const rules = [valid('.html', ''), valid('.html/', '.html')];
    const ordered = canonizationOrder(rules);
    expect(ordered.map((r) => r.alpha.join(''))).toEqual(['.html/', '.html']);
    expect(canonize('http://s.com/a/x.html/', ordered, 10).url).toBe('http://s.com/a/x');
    expect(canonize('http://s.com/a/x.html', ordered, 10).url).toBe('http://s.com/a/x');
  });

  it('puts the container before the contained in random lists, and keeps the order of rules that contain none', () => {
    const seed = 20261126;
    const rng = seededRandom(seed);
    const words = ['/', '.', 'html', 'x', '?', 'a', '=', '1', '$'];
    for (let trial = 0; trial < 200; trial++) {
      const rules = Array.from({ length: 2 + Math.floor(rng() * 8) }, (_, k) => {
        const alpha = Array.from(
          { length: 1 + Math.floor(rng() * 4) },
          () => words[Math.floor(rng() * words.length)],
        );
        return { ...valid('a', 'b'), id: k, alpha, beta: [] as string[] };
      });
      const ordered = canonizationOrder(rules);
      expect(ordered.map((r) => r.id).sort((a, b) => a - b)).toEqual(rules.map((r) => r.id));
      const key = (r: SubstringRule) => `\u0000${r.alpha.join('\u0000')}\u0000`;
      const pos = new Map(ordered.map((r, i) => [r.id, i]));
      const inside = (a: SubstringRule, b: SubstringRule) => key(a) !== key(b) && key(a).includes(key(b));
      const alone = (p: SubstringRule) => rules.every((r) => !inside(r, p) && !inside(p, r));
      for (const p of rules)
        for (const q of rules) {
          if (inside(p, q))
            expect(pos.get(p.id)!, `seed ${seed} trial ${trial}: ${p.alpha} before ${q.alpha}`).toBeLessThan(
              pos.get(q.id)!,
            );
          else if (p.id < q.id && alone(p) && alone(q))
            expect(pos.get(p.id)!, `seed ${seed} trial ${trial}: order given`).toBeLessThan(pos.get(q.id)!);
        }
    }
  });

  it('applies all rules each iteration until an iteration changes nothing', () => {
    const drop = { ...valid('', ''), kind: 'param-drop', param: 'sessionid' } as const;
    // The parameter rule goes first: after story?id= → story_ the URL has no query left to drop from.
    const rules = [
      drop,
      valid('/index.html$', '/$'),
      valid('^http://s.com/story?id=', '^http://s.com/story_'),
    ];
    expect(canonize('http://s.com/story?id=7&sessionid=abc', rules, 10)).toEqual({
      url: 'http://s.com/story_7',
      iterations: 1,
      cycle: false,
    });
    expect(canonize('http://s.com/d/index.html', rules, 10)).toEqual({
      url: 'http://s.com/d/',
      iterations: 1,
      cycle: false,
    });
    expect(canonize('http://s.com/other', rules, 10)).toEqual({
      url: 'http://s.com/other',
      iterations: 0,
      cycle: false,
    });
  });

  it('needs a second iteration when a later rule makes an earlier one apply', () => {
    const rules = [valid('/index.html$', '/$'), valid('/default.htm$', '/index.html$')];
    expect(canonize('http://s.com/d/default.htm', rules, 10)).toEqual({
      url: 'http://s.com/d/',
      iterations: 2,
      cycle: false,
    });
  });

  it('stops a cycle at the 10th iteration and reports it', () => {
    // Three rules that undo each other's changes over two iterations (§5.3: "rules that can be applied an
    // infinite number of times because they cancel out each others' changes").
    const rules = [valid('/n/', '/archive/'), valid('/news/', '/n/'), valid('/archive/', '/news/')];
    const c = canonize('http://s.com/news/x', rules, params().maxIterations);
    expect(c).toEqual({ url: 'http://s.com/news/x', iterations: 10, cycle: true });
    expect(canonize('http://s.com/news/x', rules, 3)).toEqual({
      url: 'http://s.com/n/x',
      iterations: 3,
      cycle: true,
    });
  });

  it('stops a growing rule the same way', () => {
    const c = canonize('http://s.com/a', [valid('a', 'a-a')], 10);
    expect(c.cycle).toBe(true);
    // One leftmost substitution per iteration: ten more a's.
    expect(c.url).toBe(`http://s.com/${Array(11).fill('a').join('-')}`);
  });
});

describe('canonizeAll', () => {
  it("uses the valid rules of each URL's site only", () => {
    const urls = urlsOf([
      logged('http://s.com/d/index.html', 1),
      logged('http://t.org/d/index.html', 1),
      logged('http://s.com/x/index.html', 1),
    ]);
    const rules = [valid('/index.html$', '/$'), valid('x', 'y', { status: 'refuted' })];
    const { canonical, cycles } = canonizeAll(urls, rules, params());
    expect([...canonical]).toEqual([
      ['http://s.com/d/index.html', 'http://s.com/d/'],
      ['http://s.com/x/index.html', 'http://s.com/x/'],
      ['http://t.org/d/index.html', 'http://t.org/d/index.html'],
    ]);
    expect(cycles).toEqual([]);
  });
});

describe('canonisation after origin moves', () => {
  const valid = { status: 'valid' as const };
  const www = substringRule('^http://s.com/', '^https://www.s.com/', 5, { id: 1, ...valid });
  const scheme = substringRule('^http://www.s.com/', '^https://www.s.com/', 5, { id: 2, ...valid });
  // Found on the pages of the canonical origin, spelled with it.
  const mirror = substringRule('^https://www.s.com/mirror/', '^https://www.s.com/', 5, { id: 3, ...valid });

  it('applies a rule spelled with one origin to the pages that came in on the others', () => {
    const rules = canonizationOrder([mirror, www, scheme]);
    expect(rules.map((r) => r.id)).toEqual([1, 2, 3]);
    for (const u of ['http://s.com/mirror/a', 'http://www.s.com/mirror/a', 'https://www.s.com/mirror/a'])
      expect(canonize(u, rules, 10).url, u).toBe('https://www.s.com/a');
  });

  it('respells a rule with the origin its own origin is moved to', () => {
    const moved = substringRule('^http://s.com/old/', '^http://s.com/', 5, { id: 4, ...valid });
    const rules = canonizationOrder([moved, www]);
    const r = rules.find((x) => x.id === 4)!;
    expect(r.kind === 'substring' && r.alpha.join('')).toBe('^https://www.s.com/old/');
    expect(canonize('http://s.com/old/x', rules, 10).url).toBe('https://www.s.com/x');
  });
});
