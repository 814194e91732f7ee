import { describe, expect, it } from 'vitest';
import { canonizationOrder, canonize, canonizeAll, spellAsApplied } from '../../../src/core/dust/canonize';
import { movesOrigin } from '../../../src/core/dust/origin-moves';
import { tokenizeUrl } from '../../../src/core/dust/url-list';
import { ruleSpelling } from '../../../src/core/dust/rules';
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

describe('spellAsApplied', () => {
  const origins = ['http://s.com', 'https://s.com', 'http://www.s.com', 'https://www.s.com'];
  const originTokens = (o: string) => tokenizeUrl(`${o}/`).slice(0, -2);
  const rule = (id: number, a: string[], b: string[]): SubstringRule => ({
    ...valid('a', 'b'),
    id,
    alpha: a,
    beta: b,
  });

  it('lists a cross-origin rule as the same-origin rule canonisation applies, and never changes a canonical URL', () => {
    const seed = 5120261126;
    const rng = seededRandom(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng() * xs.length)];
    let respelled = 0;
    let anyOrigin = 0;
    for (let trial = 0; trial < 150; trial++) {
      // Origin moves toward one canonical origin (a tree: no cycles), then path rules spelled on any origin.
      const canonicalOrigin = pick(origins);
      const rules: SubstringRule[] = [];
      for (const o of origins)
        if (o !== canonicalOrigin && rng() < 0.7)
          rules.push(rule(rules.length, [...originTokens(o), '/'], [...originTokens(canonicalOrigin), '/']));
      const dirs = ['node', 'old', 'amp', 'items'];
      for (let k = 0; k < 1 + Math.floor(rng() * 4); k++) {
        const [d1, d2] = [pick(dirs), pick(dirs)];
        const slash = rng() < 0.5;
        rules.push(
          rule(
            rules.length,
            [...originTokens(pick(origins)), '/', d1, '/', '{x}', ...(slash ? ['/'] : []), '$'],
            [...originTokens(pick(origins)), '/', d2, '/', '{x}', '$'],
          ),
        );
      }
      const urls = urlsOf(
        Array.from({ length: 60 }, () => ({
          url: `${pick(origins)}/${pick(dirs)}/${Math.floor(rng() * 20)}${rng() < 0.5 ? '/' : ''}`,
        })),
      );
      const before = canonizeAll(urls, rules, params()).canonical;
      const changed = spellAsApplied(rules, urls, params());
      respelled += changed.length;
      for (const r of changed) {
        expect(movesOrigin(r), `seed ${seed} trial ${trial}: ${ruleSpelling(r)}`).toBe(false);
        if ((r as SubstringRule).alpha[1] === '{o}') anyOrigin++;
      }
      const after = canonizeAll(urls, rules, params()).canonical;
      for (const [u, c] of before) expect(after.get(u), `seed ${seed} trial ${trial}: ${u}`).toBe(c);
    }
    // Both spellings occur: {o} when every origin leads to one, the target origin otherwise.
    expect(anyOrigin).toBeGreaterThan(5);
    expect(respelled - anyOrigin).toBeGreaterThan(5);
  });

  it('respells ^https://www.s/node/{x}/$ → ^http://www.s/node/{x}$ once https → http is valid, on {o} when every origin leads there', () => {
    const rules = [
      rule(0, [...originTokens('https://www.s.com'), '/'], [...originTokens('http://www.s.com'), '/']),
      rule(
        1,
        [...originTokens('https://www.s.com'), '/', 'node', '/', '{x}', '/', '$'],
        [...originTokens('http://www.s.com'), '/', 'node', '/', '{x}', '$'],
      ),
    ];
    const fresh = () => rules.map((r) => ({ ...r }));
    // Another origin of the site that no move leads to http://www.s.com: spelled with the target origin.
    const some = fresh();
    const partly = urlsOf([{ url: 'https://www.s.com/node/1/' }, { url: 'http://s.com/node/1' }]);
    expect(spellAsApplied(some, partly, params())).toEqual([some[1]]);
    expect(ruleSpelling(some[1])).toBe('^http://www.s.com/node/{x}/$ → ^http://www.s.com/node/{x}$');
    expect(some[1].reason).toContain('validated as ^https://www.s.com/node/{x}/$');
    // Every origin of the site leads there: spelled on any origin.
    const all = fresh();
    const every = urlsOf([{ url: 'https://www.s.com/node/1/' }, { url: 'http://www.s.com/node/1' }]);
    expect(spellAsApplied(all, every, params())).toEqual([all[1]]);
    expect(ruleSpelling(all[1])).toBe('^{o}/node/{x}/$ → ^{o}/node/{x}$');
    // An origin move itself and a rule already on one origin are left as they are.
    expect(spellAsApplied(all, every, params())).toEqual([]);
  });
});

describe('canonize defers a general rule while a more specific one applies', () => {
  it('gives one canonical URL whatever order the rules were ranked in', () => {
    const seed = 7120261126;
    const rng = seededRandom(seed);
    const spelled = (alpha: string[], beta: string[], id: number) => ({
      ...valid('a', 'b'),
      id,
      alpha,
      beta,
    });
    const base = [
      spelled(['/', 'items', '/', '{x}', '.', 'html', '$'], ['/', '?', 'p', '=', '{x}', '$'], 0),
      spelled(['.', 'html'], [], 1),
      spelled(
        ['/', '{y}', '/', '{m}', '/', '{d}', '/', '{n}', '/', '$'],
        ['/', 'items', '/', '{n}', '.', 'html', '$'],
        2,
      ),
      spelled(['/', 'go', '/', '{x}', '$'], ['/', 'items', '/', '{x}', '.', 'html', '$'], 3),
    ];
    const urls = [
      'http://s.com/2023/04/17/512/',
      'http://s.com/go/512',
      'http://s.com/items/512.html',
      'http://s.com/?p=512',
    ];
    for (let trial = 0; trial < 50; trial++) {
      const shuffled = [...base].sort(() => rng() - 0.5);
      const ordered = canonizationOrder(shuffled);
      for (const u of urls)
        expect(
          canonize(u, ordered, 10).url,
          `seed ${seed} trial ${trial}: ${ordered.map((r) => r.id)} ${u}`,
        ).toBe('http://s.com/?p=512');
    }
  });
});
