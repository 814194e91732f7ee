import { describe, expect, it } from 'vitest';
import { urlsSaved } from '../../../src/core/dust/saved';
import { substringRule } from './fixtures';

describe('urlsSaved', () => {
  const urls = [
    'http://s.com/a/index.html',
    'http://s.com/a/',
    'http://s.com/b/index.html', // its target http://s.com/b/ is not in the list: saves nothing
    'http://s.com/c/index.html',
    'http://s.com/c/',
    'http://s.com/story?id=1',
  ];
  const index = substringRule('/index.html$', '/$', 3, { id: 7 });
  const story = substringRule('^http://s.com/story?id=', '^http://s.com/story_', 1, { id: 9 });

  it('counts list URLs a rule rewrites to another URL of the list', () => {
    expect(urlsSaved([index, story], urls)).toEqual({ 7: 2, 9: 0 });
  });

  it('counts only the first rules, in the order given', () => {
    expect(urlsSaved([story, index], urls, 1)).toEqual({ 9: 0 });
  });
});
