import { describe, expect, it } from 'vitest';
import { detectParamRules } from '../../../src/core/dust/param-rules';
import { dropParam, setParam } from '../../../src/core/dust/url-params';
import { logged, page, params, urlsOf } from './fixtures';

describe('parameter syntax', () => {
  it('drops every occurrence of a parameter, and the ? with the last one', () => {
    expect(dropParam('http://s/p?a=1&sid=2&a=3', 'a')).toBe('http://s/p?sid=2');
    expect(dropParam('http://s/p?sid=2', 'sid')).toBe('http://s/p');
    expect(dropParam('http://s/p?flag&x=1', 'flag')).toBe('http://s/p?x=1');
    expect(dropParam('http://s/p', 'a')).toBeNull();
    expect(dropParam('http://s/p?ab=1', 'a')).toBeNull();
  });

  it('sets a parameter where it occurs', () => {
    expect(setParam('http://s/p?lang=fr&x=1', 'lang', 'en')).toBe('http://s/p?lang=en&x=1');
    expect(setParam('http://s/p?x=1', 'lang', 'en')).toBeNull();
  });
});

describe('detectParamRules', () => {
  it('finds "drop sessionid" from URLs that differ only in it, with likely-similar support', () => {
    const records = Array.from({ length: 6 }, (_, k) => [
      page(`http://s.com/page.php?item=${k}`, k),
      page(`http://s.com/page.php?item=${k}&sessionid=${((k + 1) * 7919).toString(36)}`, k),
      page(`http://s.com/page.php?item=${k}&sessionid=${((k + 1) * 104729).toString(36)}`, k),
    ]).flat();
    const rules = detectParamRules(urlsOf(records), params());
    const drop = rules.find((r) => r.kind === 'param-drop' && r.param === 'sessionid');
    expect(drop).toMatchObject({
      support: 12,
      likelySimilarSupport: 12,
      status: 'likely',
      direction: 'one-way',
    });
    expect(drop?.instances.length).toBe(5);
    // Each item is a different document, so "drop item" has no likely-similar support.
    expect(rules.some((r) => r.param === 'item')).toBe(false);
  });

  it('finds a default value: lang=en serves the same page as lang=fr and lang=de', () => {
    const records = Array.from({ length: 5 }, (_, k) =>
      ['en', 'fr', 'de'].map((lang) => logged(`http://s.com/doc?id=${k}&lang=${lang}`, 3000 + 500 * k)),
    ).flat();
    const rules = detectParamRules(urlsOf(records), params());
    expect(rules.find((r) => r.kind === 'param-default' && r.value === 'en')).toMatchObject({
      param: 'lang',
      support: 10,
      likelySimilarSupport: 10,
    });
    expect(rules.find((r) => r.kind === 'param-drop' && r.param === 'lang')).toMatchObject({ support: 15 });
  });

  it('does not count parameters whose values change the page (pagination)', () => {
    const records = Array.from({ length: 10 }, (_, k) =>
      logged(`http://s.com/list?page=${k}`, 1000 * (k + 1)),
    );
    expect(detectParamRules(urlsOf(records), params())).toEqual([]);
  });
});
