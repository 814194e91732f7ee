import { describe, expect, it } from 'vitest';
import { applyRule, compareSides, findRun, findInstances, UrlIndex } from '../../../src/core/dust/rules';
import { tokenizeUrl } from '../../../src/core/dust/url-list';
import { logged, side, substringRule, urlsOf } from './fixtures';

describe('applying a substring rule', () => {
  it('Definition 3.1: (http://www.site.com/index.html, http://www.site.com) is an instance of "/index.html$" → "$"', () => {
    const rule = substringRule('/index.html$', '$', 1);
    expect(applyRule(rule, 'http://www.site.com/index.html')).toBe('http://www.site.com');
    // $ is the end frame: the rule does not apply in the middle of a URL.
    expect(applyRule(rule, 'http://www.site.com/index.html?x=1')).toBeNull();
  });

  it('replaces the leftmost occurrence, token-aligned', () => {
    const rule = substringRule('1', '2', 1);
    expect(applyRule(rule, 'http://s/1/1')).toBe('http://s/2/1');
    expect(applyRule(rule, 'http://s/story_12')).toBeNull();
  });

  it('anchors ^ and $ to the frames only', () => {
    const t = tokenizeUrl('http://a/$x');
    expect(findRun(t, ['$'])).toBe(t.length - 1);
    expect(findRun(t, ['^', 'http'])).toBe(0);
    expect(findRun(t, ['x', '$'])).toBe(t.length - 2);
    expect(findRun(t, ['/', '$'])).toBe(-1);
    expect(findRun(t, [])).toBe(-1);
  });

  it('does not apply a rule with an empty left side (no one place to insert)', () => {
    expect(applyRule(substringRule('', '/index.html', 1), 'http://s/')).toBeNull();
  });

  it('applies parameter rules by query syntax', () => {
    const drop = { ...substringRule('', '', 1), kind: 'param-drop', param: 'sessionid' } as const;
    expect(applyRule(drop, 'http://s/p?a=1&sessionid=xyz&b=2')).toBe('http://s/p?a=1&b=2');
    expect(applyRule(drop, 'http://s/p?sessionid=xyz')).toBe('http://s/p');
    expect(applyRule(drop, 'http://s/p?a=1')).toBeNull();
    const def = { ...substringRule('', '', 1), kind: 'param-default', param: 'lang', value: 'en' } as const;
    expect(applyRule(def, 'http://s/p?lang=fr&x=1')).toBe('http://s/p?lang=en&x=1');
    expect(applyRule(def, 'http://s/p?lang=en')).toBeNull();
  });
});

describe('the shrinking order of §5.3', () => {
  it('longer first, then lexicographically later', () => {
    expect(compareSides(side('story?id='), side('story_'))).toBeGreaterThan(0);
    expect(compareSides(side('/index.html$'), side('$'))).toBeGreaterThan(0);
    expect(compareSides(side('ps'), side('pdf'))).toBeGreaterThan(0);
    expect(compareSides(side('b'), side('a'))).toBeGreaterThan(0);
    expect(compareSides(side('a'), side('a'))).toBe(0);
  });
});

describe('findInstances', () => {
  it('lists URL pairs of the list related by the rule, likely-similar ones first', () => {
    const urls = urlsOf([
      logged('http://s/story?id=1', 100),
      logged('http://s/story_1', 100),
      logged('http://s/story?id=2', 200),
      logged('http://s/story_2', 900),
      logged('http://s/story?id=3', 300),
    ]);
    const rule = substringRule('story?id=', 'story_', 2);
    const similar = (a: { sizeMin: number }, b: { sizeMin: number }) => a.sizeMin === b.sizeMin;
    expect(findInstances(rule, new UrlIndex(urls), 5, similar)).toEqual([
      ['http://s/story?id=1', 'http://s/story_1'],
      ['http://s/story?id=2', 'http://s/story_2'],
    ]);
  });
});
