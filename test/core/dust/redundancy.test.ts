import { describe, expect, it } from 'vitest';
import { detectNonRedundantRules, eliminateRedundancies } from '../../../src/core/dust/redundancy';
import { pairRefines, refines } from '../../../src/core/dust/rules';
import { logged, params, side, substringRule, urlsOf } from './fixtures';

const spell = (r: { alpha: string[]; beta: string[] }) => `${r.alpha.join('')} → ${r.beta.join('')}`;

describe('refinement (Definition 5.2, Lemma 5.3)', () => {
  // §1: "the rule "http://site-name/story?id=" → "http://site-name/story_" will be discovered, along
  // with many consisting of substrings thereof, e.g., "?id=" → "_"."
  const full = [side('http://site-name/story?id='), side('http://site-name/story_')] as const;

  it('"http://site-name/story?id=" → "http://site-name/story_" refines "?id=" → "_" (γ = http://site-name/story, δ = "")', () => {
    expect(refines(full[0], full[1], side('?id='), side('_'))).toBe(true);
    expect(refines(full[0], full[1], side('story?id='), side('story_'))).toBe(true);
    expect(refines(side('?id='), side('_'), full[0], full[1])).toBe(false);
    expect(refines(full[0], full[1], side('?id='), side('-'))).toBe(false);
    expect(refines(full[0], full[1], side('id='), side('_'))).toBe(false);
  });

  it('works on tokens, not characters: "d=" is not a substring of "?id="', () => {
    expect(refines(side('?id='), side('?d='), side('i'), side(''))).toBe(false);
    expect(refines(side('/index.html$'), side('/$'), side('index.html'), side(''))).toBe(true);
  });

  it('checks every occurrence of α in α′', () => {
    expect(refines(side('a/x/a'), side('a/x/b'), side('a'), side('b'))).toBe(true);
    expect(refines(side('a/x/a'), side('b/x/a'), side('a'), side('b'))).toBe(true);
    expect(refines(side('a/x/a'), side('b/x/b'), side('a'), side('b'))).toBe(false);
  });

  it('between pairs, in both directions (§5.2)', () => {
    const a = substringRule('http://site-name/story?id=', 'http://site-name/story_', 10);
    expect(pairRefines(a, substringRule('?id=', '_', 10))).toBe(true);
    expect(pairRefines(a, substringRule('_', '?id=', 10))).toBe(true);
    expect(pairRefines(substringRule('?id=', '_', 10), a)).toBe(false);
    expect(pairRefines(a, substringRule('?id=', '_', 10, { site: 'other.com' }))).toBe(false);
  });
});

describe('eliminateRedundancies (Fig. 2)', () => {
  it('drops the refined rule when supports differ by at most max(MRD·s, MAD)', () => {
    const list = [
      substringRule('?id=', '_', 21),
      substringRule('http://site-name/story?id=', 'http://site-name/story_', 20),
      substringRule('story?id=', 'story_', 20),
      substringRule('/index.html$', '/$', 19),
    ];
    expect(eliminateRedundancies(list, params()).map(spell)).toEqual([
      'http://site-name/story?id= → http://site-name/story_',
      '/index.html$ → /$',
    ]);
  });

  it('keeps both when the broader rule has clearly more support (it may hold in other contexts)', () => {
    const list = [
      substringRule('?id=', '_', 22),
      substringRule('http://site-name/story?id=', 'http://site-name/story_', 20),
    ];
    expect(eliminateRedundancies(list, params()).length).toBe(2);
    // MRD = 10% of 22 allows a deficiency of 2.2.
    expect(eliminateRedundancies(list, params({ MRD: 0.1 })).length).toBe(1);
  });

  it('looks at most MW rules down the list', () => {
    const list = [
      substringRule('?id=', '_', 20),
      substringRule('/index.html$', '/$', 20),
      substringRule('story?id=', 'story_', 20),
    ];
    expect(eliminateRedundancies(list, params({ MW: 1 })).length).toBe(3);
    expect(eliminateRedundancies(list, params({ MW: 2 })).map(spell)).toEqual([
      '/index.html$ → /$',
      'story?id= → story_',
    ]);
  });
});

describe('detection with T_low and T_high, then Fig. 2 (§5.2)', () => {
  const forum = (contexts: string[]) =>
    urlsOf(
      contexts.flatMap((c, f) =>
        Array.from({ length: 10 }, (_, k) => [
          logged(`http://site-name/${c}?id=${k + 1}`, 1000 * (k + 1) + f * 100),
          logged(`http://site-name/${c}_${k + 1}`, 1000 * (k + 1) + f * 100),
        ]).flat(),
      ),
    );

  it('keeps only the rule with the full context', () => {
    const { detected, rules } = detectNonRedundantRules(forum(['story']), params());
    expect(detected).toBeGreaterThan(5);
    expect(rules.map(spell)).toEqual(['^http://site-name/story?id= → ^http://site-name/story_']);
    expect(rules[0]).toMatchObject({ support: 10, likelySimilarSupport: 10, redundancySupport: 10 });
  });

  it('keeps "?id=" → "_" beside its refinements when it is supported in two contexts', () => {
    const { rules } = detectNonRedundantRules(forum(['story', 'thread']), params());
    expect(rules.map(spell)[0]).toBe('?id= → _');
    expect(rules.map(spell).slice(1).sort()).toEqual([
      '^http://site-name/story?id= → ^http://site-name/story_',
      '^http://site-name/thread?id= → ^http://site-name/thread_',
    ]);
    for (const r of rules) expect(r.redundancySupport).toBeGreaterThanOrEqual(r.likelySimilarSupport);
  });
});
