import { describe, expect, it } from 'vitest';
import { buildEnvelopeIndex, envelopesOf, forEachBucket } from '../../../src/core/dust/envelopes';
import { detectLikelyRules } from '../../../src/core/dust/likely-rules';
import { tokenizeUrl } from '../../../src/core/dust/url-list';
import type { DustUrl } from '../../../src/core/dust/types';
import { params, urlsOf } from './fixtures';
import { seededRandom } from '../../../src/core/random';

const tokens = (s: string) => tokenizeUrl(s);
const split = (s: string) => tokenizeUrl(s).slice(1, -1);

/** Every bucket of the list as sorted member spellings, keyed by its envelope. */
function buckets(urls: DustUrl[], S = 35, T = 100): Map<string, string[]> {
  const index = buildEnvelopeIndex(urls);
  const out = new Map<string, string[]>();
  forEachBucket(index, S, T, (b) => {
    const u0 = urls[b.url[0]].tokens;
    const key = `${u0.slice(0, b.from[0]).join('')} | ${u0.slice(b.to[0]).join('')}`;
    const members: string[] = [];
    for (let k = 0; k < b.size; k++) members.push(urls[b.url[k]].tokens.slice(b.from[k], b.to[k]).join(''));
    out.set(key, members.sort());
  });
  return out;
}

describe('envelopes (§4)', () => {
  it('the envelope of "index" in http://www.site.com/index.html is ("^http://www.site.com/", ".html$")', () => {
    expect(envelopesOf(tokens('http://www.site.com/index.html'), ['index'])).toEqual([
      ['^http://www.site.com/', '.html$'],
    ]);
  });

  it('a URL contributes one envelope per occurrence of α', () => {
    expect(envelopesOf(tokens('http://a/x/x'), ['x'])).toEqual([
      ['^http://a/', '/x$'],
      ['^http://a/x/', '$'],
    ]);
  });

  it('groups the substrings sharing an envelope into its bucket', () => {
    const urls = urlsOf(
      ['index', 'main', 'about'].map((p) => ({ url: `http://www.site.com/${p}.html`, status: 200 })),
    );
    const b = buckets(urls);
    expect(b.get('^http://www.site.com/ | .html$')).toEqual(['about', 'index', 'main']);
    // The whole URLs share the empty envelope; single-member buckets are never reported.
    expect(b.get(' | ')).toEqual(urls.map((u) => u.tokens.join('')).sort());
    expect([...b.values()].every((m) => m.length >= 2)).toBe(true);
  });

  it('skips buckets larger than T and substrings longer than S tokens', () => {
    const urls = urlsOf(['a', 'b', 'c'].map((p) => ({ url: `http://s.com/${p}.html`, status: 200 })));
    expect(buckets(urls, 35, 2).size).toBe(0);
    const short = buckets(urls, 1, 3);
    expect(short.get('^http://s.com/ | .html$')).toEqual(['a', 'b', 'c']);
    expect([...short.values()].flat().every((m) => split(m).length <= 1)).toBe(true);
    expect(short.has(' | ')).toBe(false);
  });

  it('gives equal prefix (suffix) ids exactly to equal token sequences', () => {
    const rnd = seededRandom(3);
    const parts = ['a', 'b', '1', '/', '.', '-'];
    const urls = urlsOf(
      Array.from({ length: 60 }, () => ({
        url: `http://s/${Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => parts[Math.floor(rnd() * 6)]).join('')}`,
      })),
    );
    const index = buildEnvelopeIndex(urls);
    const prefixes = new Map<string, number>();
    const suffixes = new Map<string, number>();
    urls.forEach((u, k) => {
      for (let i = 0; i <= u.tokens.length; i++) {
        const slot = index.start[k] + k + i;
        const p = u.tokens.slice(0, i).join('\u0001');
        const s = u.tokens.slice(i).join('\u0001');
        expect(prefixes.get(p) ?? index.prefixId[slot]).toBe(index.prefixId[slot]);
        expect(suffixes.get(s) ?? index.suffixId[slot]).toBe(index.suffixId[slot]);
        prefixes.set(p, index.prefixId[slot]);
        suffixes.set(s, index.suffixId[slot]);
      }
    });
    expect(new Set(prefixes.values()).size).toBe(prefixes.size);
    expect(new Set(suffixes.values()).size).toBe(suffixes.size);
  });
});

describe('Theorem 4.1 fails for semiperiodic or empty strings (§4)', () => {
  // "let α be the semiperiodic string "a.a" and β = "a". Let u1 = http://a.a.a/ and let u2 = http://a.a/.
  // There are two ways in which we can substitute α with β in u1 and obtain u2."
  const u1 = tokens('http://a.a.a/');
  const u2 = tokens('http://a.a/');
  const shared = (alpha: string[], beta: string[]) => {
    const b = new Set(envelopesOf(u2, beta).map((e) => e.join(' | ')));
    return envelopesOf(u1, alpha).filter((e) => b.has(e.join(' | ')));
  };

  it('"a.a" → "a": one instance, two shared envelopes', () => {
    expect(shared(['a', '.', 'a'], ['a'])).toEqual([
      ['^http://', '.a/$'],
      ['^http://a.', '/$'],
    ]);
  });

  it('"a." → "": one instance, two shared envelopes', () => {
    expect(shared(['a', '.'], [])).toEqual([
      ['^http://', 'a.a/$'],
      ['^http://a.', 'a/$'],
    ]);
  });

  it('so Fig. 1 counts support 2 for the pair, over the single instance (u1, u2)', () => {
    const urls = urlsOf([{ url: 'http://a.a.a/' }, { url: 'http://a.a/' }]);
    const rules = detectLikelyRules(urls, params({ site: 'list', MS: 1 }), 6);
    const find = (a: string, b: string) =>
      rules.find((r) => r.alpha.join('') === a && r.beta.join('') === b)?.support;
    expect(find('a.a', 'a')).toBe(2);
    expect(find('a.', '')).toBe(2);
    expect(find('.a', '')).toBe(2);
  });
});
