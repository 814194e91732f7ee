import { describe, expect, it } from 'vitest';
import { ruleSides, ruleSpelling } from '../../../src/core/dust';
import { substringRule } from './fixtures';

describe('one rule spelling (UI, exports, CLI)', () => {
  it('spells a substring rule as its joined token runs, α → β', () => {
    const r = substringRule('story?id=', 'story_', 1);
    expect(ruleSides(r)).toEqual({ alpha: 'story?id=', beta: 'story_' });
    expect(ruleSpelling(r)).toBe('story?id= → story_');
  });

  it('spells parameter substitutions in the same α → β notation', () => {
    const base = substringRule('', '', 1);
    expect(ruleSpelling({ ...base, kind: 'param-drop', param: 'sessionid' })).toBe('sessionid=… → (dropped)');
    expect(ruleSpelling({ ...base, kind: 'param-default', param: 'lang', value: 'en' })).toBe(
      'lang=… → lang=en',
    );
  });

  it('spells path parameters with their ";" and wildcards as they stand', () => {
    const base = substringRule('', '', 1);
    expect(ruleSpelling({ ...base, kind: 'path-param-drop', param: 'jsessionid' })).toBe(
      ';jsessionid=… → (dropped)',
    );
    const r = substringRule('', '', 1);
    r.alpha = ['/', '{y}', '/', '{m}', '/', '{d}', '/', '{n}', '/', '$'];
    r.beta = ['/', '?', 'p', '=', '{n}', '$'];
    expect(ruleSides(r)).toEqual({ alpha: '/{y}/{m}/{d}/{n}/$', beta: '/?p={n}$' });
  });
});
