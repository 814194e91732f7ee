import { describe, expect, it } from 'vitest';
import { detectLikelyRules } from '../../../src/core/dust/likely-rules';
import { detectPairRules, pairDifferences } from '../../../src/core/dust/pair-rules';
import { applyRule, findRun } from '../../../src/core/dust/rules';
import { runDustBuster } from '../../../src/core/dust/index';
import { tokenizeUrl } from '../../../src/core/dust/url-list';
import { GAP, type DustRecord, type Rule } from '../../../src/core/dust/types';
import { params, side, substringRule, urlsOf } from './fixtures';

const spell = (r: { alpha: string[]; beta: string[] }) => `${r.alpha.join('')} → ${r.beta.join('')}`;
const diffs = (a: string, b: string) =>
  pairDifferences(tokenizeUrl(a), tokenizeUrl(b), 35).map(([x, y]) => `${x.join('')} → ${y.join('')}`);

/** A crawled page whose document is identified by digest d (identical bytes). */
const same = (url: string, d: number): DustRecord => ({
  url,
  status: 200,
  sizeMin: 500 + d,
  sizeMax: 500 + d,
  digest: `sha1:${d}`,
});

describe('pairDifferences: what one pair of identical documents spells', () => {
  it('the difference with separator context: the paper’s "/index.html$" → "$" (§3)', () => {
    expect(diffs('http://s.com/docs/index.html', 'http://s.com/docs/')).toEqual(['/index.html$ → /$']);
  });
  it('a two-place difference carries the shared token as {x}', () => {
    expect(diffs('http://s.com/archive/2024/17/', 'http://s.com/story_17')).toEqual([
      '/archive/2024/17/$ → /story_17$',
      `/archive/2024/${GAP}/$ → /story_${GAP}$`,
    ]);
  });
  it('shrinking side first, whichever order the pair comes in', () => {
    expect(diffs('http://s.com/story_17', 'http://s.com/archive/2024/17/')).toEqual(
      diffs('http://s.com/archive/2024/17/', 'http://s.com/story_17'),
    );
  });
  it('no alphanumeric context: "story?id=" ↔ "story_" stays "?id=" → "_"', () => {
    expect(diffs('http://s.com/story?id=5', 'http://s.com/story_5')).toEqual(['?id= → _']);
  });
  it('nothing for equal URLs; an inserted part takes its separator along', () => {
    expect(diffs('http://s.com/a', 'http://s.com/a')).toEqual([]);
    expect(diffs('http://s.com/a.c.b', 'http://s.com/a.b')).toEqual(['.c. → .']);
  });
});

describe('rules with a carried token', () => {
  const rule = substringRule('/archive/2024/{x}/$', '/story_{x}$', 3);
  rule.alpha = ['/', 'archive', '/', '2024', '/', GAP, '/', '$'];
  rule.beta = ['/', 'story', '_', GAP, '$'];
  it('apply with the matched token put in place', () => {
    expect(applyRule(rule, 'http://s.com/archive/2024/981/')).toBe('http://s.com/story_981');
    expect(applyRule(rule, 'http://s.com/x/archive/2024/ab7/')).toBe('http://s.com/x/story_ab7');
  });
  it('match one alphanumeric token only', () => {
    expect(applyRule(rule, 'http://s.com/archive/2024/-/')).toBeNull();
    expect(applyRule(rule, 'http://s.com/archive/2024/1/2/')).toBeNull();
    expect(findRun(tokenizeUrl('http://s.com/archive/2024/5/'), rule.alpha)).toBe(8);
  });
});

/** A site whose directories are too big for T_low, with index.html aliases and archive pages. */
function site(): DustRecord[] {
  const out: DustRecord[] = [];
  let d = 0;
  for (let k = 0; k < 8; k++) {
    const dir = `http://s.com/d${k}/`;
    const index = ++d;
    out.push(same(dir, index), same(`${dir}index.html`, index));
    for (let f = 0; f < 20; f++) out.push(same(`${dir}f${f}.html`, ++d));
  }
  for (let n = 100; n < 130; n++) {
    const doc = ++d;
    out.push(same(`http://s.com/story_${n}`, doc));
    if (n % 3 !== 0) out.push(same(`http://s.com/archive/2024/${n}/`, doc));
  }
  // Same numbers, different documents: archive pages of another year are not stories.
  for (let n = 100; n < 110; n++) out.push(same(`http://s.com/archive/2023/${n}/`, ++d));
  return out;
}

describe('detectPairRules', () => {
  const urls = urlsOf(site());
  const p = params({ MS: 3 });
  it('find "/index.html$" → "/$" where every envelope overflows T_low (Fig. 1 cannot)', () => {
    const fromEnvelopes = detectLikelyRules(urls, p, p.Tlow).map(spell);
    expect(fromEnvelopes.some((r) => r.includes('index.html'))).toBe(false);
    const rules = detectPairRules(urls, p, []);
    const index = rules.find((r) => spell(r) === '/index.html$ → /$');
    expect(index).toMatchObject({ support: 8, likelySimilarSupport: 8, origin: 'pairs' });
  });
  it('find the two-place archive rule with its support over the whole list', () => {
    const rules = detectPairRules(urls, p, []);
    const archive = rules.find((r) => spell(r) === `/archive/${2024}/${GAP}/$ → /story_${GAP}$`);
    expect(archive).toMatchObject({ support: 20, likelySimilarSupport: 20 });
    // The pair-specific spellings stay below MS.
    expect(rules.some((r) => spell(r).includes('/101/'))).toBe(false);
  });
  it('drop a candidate that a rule of Figs. 1–2 already states or refines', () => {
    const existing = substringRule('/index.html$', '/$', 8, { site: '' });
    existing.alpha = side('/index.html$');
    const rules = detectPairRules(urls, params({ site: 'list' }), [existing]);
    expect(rules.map(spell)).not.toContain('/index.html$ → /$');
  });
  it('skip groups of identical documents larger than pairGroupMax', () => {
    expect(detectPairRules(urls, params({ pairGroupMax: 1 }), [])).toEqual([]);
  });
});

describe('runDustBuster with rules from pairs', () => {
  const result = runDustBuster(site());
  const by = (s: string): Rule | undefined =>
    result.rules.find((r) => r.kind === 'substring' && spell(r) === s);
  it('validates them against the crawl and canonises with them', () => {
    expect(by('/index.html$ → /$')?.status).toBe('valid');
    expect(by(`/archive/2024/${GAP}/$ → /story_${GAP}$`)?.status).toBe('valid');
    expect(result.canonical.get('http://s.com/d3/index.html')).toBe('http://s.com/d3/');
    expect(result.canonical.get('http://s.com/archive/2024/101/')).toBe('http://s.com/story_101');
    expect(result.canonical.get('http://s.com/archive/2023/101/')).toBe('http://s.com/archive/2023/101/');
    expect(result.metrics.pairRules).toBeGreaterThanOrEqual(2);
  });
  it('leave them out with pairRules off', () => {
    const off = runDustBuster(site(), { pairRules: false });
    expect(off.rules.some((r) => r.kind === 'substring' && r.origin === 'pairs')).toBe(false);
    expect(off.canonical.get('http://s.com/d3/index.html')).toBe('http://s.com/d3/index.html');
  });
});

describe('redirects in DustBuster', () => {
  /** shop.test/item_N answers 301 to www.shop.test/item_N; both forms are in the crawl. */
  function shop(): DustRecord[] {
    const out: DustRecord[] = [];
    for (let n = 1; n <= 12; n++) {
      out.push(same(`http://www.shop.test/item_${n}`, n));
      out.push({
        url: `http://shop.test/item_${n}`,
        status: 301,
        digest: 'sha1:moved',
        redirectTo: `http://www.shop.test/item_${n}`,
      });
    }
    return out;
  }
  it('read a redirect as its target, so the host rule is likely similar and valid', () => {
    const r = runDustBuster(shop(), { pairRules: false });
    const host = r.rules.find((x) => x.kind === 'substring' && x.status === 'valid');
    expect(host && spell(host as { alpha: string[]; beta: string[] })).toBe(
      '^http://shop.test/item_ → ^http://www.shop.test/item_',
    );
    // The server's direction, not the shrinking one (§5.3), when its redirects say so.
    expect(host?.direction).toBe('growing');
    expect(host?.reason).toMatch(/the site redirects this way/);
    expect(r.canonical.get('http://shop.test/item_3')).toBe('http://www.shop.test/item_3');
    expect(r.list.redirects).toBe(12);
  });
  it('per host, the two hosts are two sites and nothing is found', () => {
    const r = runDustBuster(shop(), { pairRules: false, site: 'host' });
    expect(r.rules.filter((x) => x.status === 'valid')).toEqual([]);
  });
});
