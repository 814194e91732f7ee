import { describe, expect, it } from 'vitest';
import { runDustBuster, ruleSpelling, type DustRecord, type Rule } from '../../../src/core/dust';
import { dropPathParam, pathParamNames } from '../../../src/core/dust/url-params';
import { applyRule } from '../../../src/core/dust/rules';
import { generalise } from '../../../src/core/dust/generalise';
import { mergeLikelyRules } from '../../../src/core/dust/pair-rules';
import { params, side, sketchOf, substringRule, urlsOf } from './fixtures';

/** A crawled page of document d: its sketch and its digest (identical bytes within a document). */
const doc = (url: string, d: number): DustRecord => ({
  url,
  status: 200,
  sizeMin: 800 + d,
  sizeMax: 800 + d,
  sketch: sketchOf(d),
  digest: `sha1:${d}`,
});

/** A rule built from spelled sides (wildcards included). */
const rule = (alpha: string, beta: string) => {
  const r = substringRule('', '', 1);
  r.alpha = side(alpha).flatMap(fix);
  r.beta = side(beta).flatMap(fix);
  return r;
};
// side() tokenises '{m}' as '{', 'm', '}': put wildcards back together.
function fix(t: string, i: number, all: string[]): string[] {
  if (t === '{' && all[i + 2] === '}') return [`{${all[i + 1]}}`];
  if ((t === '}' && all[i - 2] === '{') || (all[i - 1] === '{' && all[i + 1] === '}')) return [];
  return [t];
}

/**
 * Brute-force support (Definition 3.1): unordered pairs {u, v} of the list with v = f(u), f given as
 * an independent regular-expression rewrite, every pair of URLs tried.
 */
function bruteSupport(urls: readonly string[], f: (u: string) => string | null): number {
  const pairs = new Set<string>();
  for (const u of urls)
    for (const v of urls) if (u !== v && f(u) === v) pairs.add(u < v ? `${u} ${v}` : `${v} ${u}`);
  return pairs.size;
}

const spelled = (rules: readonly Rule[]) => rules.map(ruleSpelling);

describe('wildcards: matching and applying', () => {
  it('digits, words and slugs bind what they match; β repeats the bound ones', () => {
    const r = rule('/2024/{m}/{d}/{n}/$', '/?p={n}$');
    expect(applyRule(r, 'http://b.test/2024/04/14/1234/')).toBe('http://b.test/?p=1234');
    expect(applyRule(r, 'http://b.test/2024/04/14/hello/')).toBeNull();
    expect(applyRule(r, 'http://b.test/2024/04/14/1234/x')).toBeNull();
    const s = rule('/2024/{m}/{d}/{s}/$', '/post/{s}$');
    expect(applyRule(s, 'http://b.test/2024/04/14/hello-big-world/')).toBe(
      'http://b.test/post/hello-big-world',
    );
    expect(applyRule(s, 'http://b.test/2024/04/14/hello/')).toBe('http://b.test/post/hello');
  });
  it('a β wildcard that α does not bind makes the rule not apply (no reverse of a many-to-one rule)', () => {
    expect(applyRule(rule('/post/{s}$', '/2024/{m}/{d}/{s}/$'), 'http://b.test/post/hello')).toBeNull();
  });
  it('frames: a trailing $ only at the end, a leading ^ only at the start', () => {
    const r = rule('/{n}/$', '/$');
    expect(applyRule(r, 'http://b.test/a/7/')).toBe('http://b.test/a/');
    expect(applyRule(r, 'http://b.test/7/a/')).toBeNull();
  });
});

describe('generalise: one rule for spellings that differ where words vary', () => {
  const c = (a: string, b: string, count = 1) => ({ alpha: side(a), beta: side(b), count });
  it('dates and a carried id become {m}/{d}/{n}; a constant year stays', () => {
    const out = generalise(
      [
        c('/2024/04/14/1234/$', '/?p=1234$'),
        c('/2024/05/02/77/$', '/?p=77$'),
        c('/2024/11/30/901/$', '/?p=901$'),
      ],
      3,
    );
    expect(out.map((g) => `${g.alpha.join('')} → ${g.beta.join('')}`)).toEqual([
      '/2024/{m}/{d}/{n}/$ → /?p={n}$',
    ]);
    expect(out[0]).toMatchObject({ members: 3, count: 3 });
  });
  it('years vary too: {y}/{m}/{d}', () => {
    const out = generalise(
      [c('/2023/04/14/1/$', '/?p=1$'), c('/2024/05/02/2/$', '/?p=2$'), c('/2022/11/30/3/$', '/?p=3$')],
      3,
    );
    expect(out[0].alpha.join('')).toBe('/{y}/{m}/{d}/{n}/$');
  });
  it('a daily blog over two years, one pair a date: digits vary at two values, counts summed', () => {
    const out = generalise(
      [c('/2023/12/30/71/$', '/?p=71$'), c('/2023/12/31/72/$', '/?p=72$'), c('/2024/01/01/73/$', '/?p=73$')],
      3,
    );
    expect(out.map((g) => `${g.alpha.join('')} → ${g.beta.join('')}`)).toEqual([
      '/{y}/{m}/{d}/{n}/$ → /?p={n}$',
    ]);
    expect(out[0]).toMatchObject({ members: 3, count: 3 });
    // Two spellings of one pair each are not a family: their count stays under MS.
    expect(generalise([c('/2023/12/30/71/$', '/?p=71$'), c('/2024/01/01/73/$', '/?p=73$')], 3)).toEqual([]);
    // Hex ids are values too; plain words are not (v1, v2 above).
    const hex = generalise([c('/~a3f9c2e1/$', '/$', 2), c('/~0b7d4e9f/$', '/$', 1)], 3);
    expect(hex.map((g) => `${g.alpha.join('')} → ${g.beta.join('')}`)).toEqual(['/~{x}/$ → /$']);
  });
  it('fewer than minValues words at a position, a varying β word not carried, or a parameter name: nothing', () => {
    expect(generalise([c('/v1/$', '/latest/$'), c('/v2/$', '/latest/$')], 3)).toEqual([]);
    expect(
      generalise(
        [c('/2024/04/a-b/$', '/?p=1$'), c('/2024/05/c-d/$', '/?p=2$'), c('/2024/06/e-f/$', '/?p=3$')],
        3,
      ),
    ).toEqual([]);
    expect(generalise([c('?ref=1$', '$'), c('?print=1$', '$'), c('?sid=1$', '$')], 3)).toEqual([]);
  });
});

/** A blog: 300 posts on 75 dates (4 a date), each at /2024/MM/DD/ID/ and ?p=ID, 90 also at a slug. */
function blog(): { records: DustRecord[]; posts: { id: number; date: string; slug: string }[] } {
  const records: DustRecord[] = [];
  const posts: { id: number; date: string; slug: string }[] = [];
  const words = ['red', 'fox', 'jumps', 'over', 'lazy', 'dog', 'quick', 'brown', 'night', 'owl'];
  for (let k = 0; k < 300; k++) {
    const day = Math.floor(k / 4);
    const date = `2024/${String(1 + (day % 12)).padStart(2, '0')}/${String(1 + ((day * 5) % 28)).padStart(2, '0')}`;
    // Distinct ids in no order of the dates (37 is prime to 9000).
    const id = 1000 + ((k * 37) % 9000);
    const slug = `${words[k % 10]}-${words[(k * 3 + 1) % 10]}-${k}`;
    posts.push({ id, date, slug });
    records.push(doc(`http://blog.test/${date}/${id}/`, k + 1), doc(`http://blog.test/?p=${id}`, k + 1));
    if (k % 10 < 3) records.push(doc(`http://blog.test/2024/${date.slice(5)}/${slug}/`, k + 1));
    if (k % 10 < 3) records.push(doc(`http://blog.test/post/${slug}`, k + 1));
  }
  // Other pages: an archive per month and a few pages, so the site is not only aliases.
  for (let m = 1; m <= 12; m++)
    records.push(doc(`http://blog.test/2024/${String(m).padStart(2, '0')}/`, 5000 + m));
  return { records, posts };
}

describe('multi-token rules on a generated blog', () => {
  const { records, posts } = blog();
  const result = runDustBuster(records);
  const urls = [...result.canonical.keys()];
  const dates = /\/2024\/\d\d\/\d\d\//;

  it('finds ONE rule with wildcards for the date permalinks, its support over all 300 posts (brute force)', () => {
    const general = result.rules.find((r) => ruleSpelling(r) === '/2024/{m}/{d}/{n}/$ → /?p={n}$');
    expect(general, spelled(result.rules).join('\n')).toBeDefined();
    expect(general!.status).toBe('valid');
    const brute = bruteSupport(urls, (u) => {
      const m = /^(.*)\/2024\/\d+\/\d+\/(\d+)\/$/.exec(u);
      return m ? `${m[1]}/?p=${m[2]}` : null;
    });
    expect(brute).toBe(300);
    expect(general!.support).toBe(brute);
    expect(general!.likelySimilarSupport).toBe(brute);
  });

  it('lists no rule for one date: they are folded under the general rule', () => {
    const perDate = spelled(result.rules).filter((s) => dates.test(s));
    expect(perDate).toEqual([]);
    const general = result.rules.find((r) => ruleSpelling(r) === '/2024/{m}/{d}/{n}/$ → /?p={n}$')!;
    expect(general.absorbs?.count).toBeGreaterThanOrEqual(75);
    expect(general.absorbs!.spellings.every((s) => dates.test(s))).toBe(true);
  });

  it('finds the slug rule, and canonisation merges every post', () => {
    const slug = result.rules.find((r) => ruleSpelling(r) === '/2024/{m}/{d}/{s}/$ → /post/{s}$');
    expect(slug?.status).toBe('valid');
    const brute = bruteSupport(urls, (u) => {
      const m = /^(.*)\/2024\/\d+\/\d+\/([a-z0-9]+(?:-[a-z0-9]+)*)\/$/.exec(u);
      return m ? `${m[1]}/post/${m[2]}` : null;
    });
    expect(slug!.support).toBe(brute);
    expect(brute).toBe(90);
    const c = (u: string) => result.canonical.get(u) ?? u;
    for (const p of posts)
      expect(c(`http://blog.test/${p.date}/${p.id}/`)).toBe(c(`http://blog.test/?p=${p.id}`));
    expect(result.metrics.redundancy.after).toBe(300 + 90 + 12);
  });
});

/**
 * A Java shop: 200 items; 30% of URLs crawled again with ;jsessionid= from five crawler sessions, and
 * one item in eight under two sessions.
 */
function javaShop(): DustRecord[] {
  const sessions = Array.from(
    { length: 5 },
    (_, k) => `A${(0x9e3779b1 * (k + 1)).toString(16).toUpperCase()}F0`,
  );
  const out: DustRecord[] = [];
  for (let n = 0; n < 200; n++) {
    const url = n % 2 ? `http://shop.test/app/item/${n}` : `http://shop.test/app/item/${n}/reviews?sort=new`;
    out.push(doc(url, n + 1));
    if ((n * 7) % 10 < 3) {
      const s = sessions[(n * 3) % 5];
      out.push(doc(url.replace(/(\/\d+|\/reviews)(\?|$)/, `$1;jsessionid=${s}$2`), n + 1));
    }
    // Two crawler sessions met these items both: "this session → that session" has support here.
    if (n % 8 === 1) for (const s of sessions.slice(0, 2)) out.push(doc(`${url};jsessionid=${s}`, n + 1));
  }
  return out;
}

describe('path parameters on a generated Java site', () => {
  it('parses and drops ;name=value in the path only', () => {
    expect(pathParamNames('http://s.test/a;jsessionid=X1/b;v=2?q=;x=1')).toEqual(['jsessionid', 'v']);
    expect(dropPathParam('http://s.test/a;jsessionid=X1/b?q=1', 'jsessionid')).toBe('http://s.test/a/b?q=1');
    expect(dropPathParam('http://s.test/a/b?q=;jsessionid=1', 'jsessionid')).toBeNull();
  });

  const records = javaShop();
  const result = runDustBuster(records);
  const urls = [...result.canonical.keys()];

  it('finds "drop ;jsessionid", valid, with its support by brute force', () => {
    const drop = result.rules.find((r) => r.kind === 'path-param-drop' && r.param === 'jsessionid');
    expect(drop, spelled(result.rules).join('\n')).toBeDefined();
    expect(ruleSpelling(drop!)).toBe(';jsessionid=… → (dropped)');
    expect(drop!.status).toBe('valid');
    const brute = bruteSupport(urls, (u) => u.replace(/;jsessionid=[^;/?#]*/g, ''));
    expect(brute).toBeGreaterThan(40);
    expect(drop!.support).toBe(brute);
  });

  it('lists no "this session id → that session id" rule, and merges every session URL', () => {
    expect(spelled(result.rules).filter((s) => /jsessionid=A/.test(s))).toEqual([]);
    for (const u of urls.filter((x) => x.includes(';jsessionid=')))
      expect(result.canonical.get(u)).toBe(u.replace(/;jsessionid=[^;/?#]*/, ''));
  });
});

describe('a valid general rule absorbs its special cases', () => {
  // A news site: 40 stories, each also crawled with ?sessionid= from three sessions.
  const records: DustRecord[] = [];
  for (let n = 0; n < 40; n++) {
    records.push(doc(`http://news.test/story_${n}`, n + 1));
    for (const s of [4015, 4016, 4017])
      if ((n + s) % 3 !== 0) records.push(doc(`http://news.test/story_${n}?sessionid=${s}`, n + 1));
  }
  const result = runDustBuster(records);

  it('?sessionid=4015$ → $ is folded under "drop sessionid"', () => {
    const drop = result.rules.find((r) => r.kind === 'param-drop' && r.param === 'sessionid');
    expect(drop?.status).toBe('valid');
    const urls = [...result.canonical.keys()];
    expect(drop!.support).toBe(bruteSupport(urls, (u) => u.replace(/\?sessionid=\d+$/, '')));
    expect(spelled(result.rules).filter((s) => /sessionid=40/.test(s))).toEqual([]);
    expect(drop!.absorbs?.spellings).toEqual(expect.arrayContaining(['?sessionid=4015$ → $']));
    // Folded rules are gone from the list but not from the measures: they were judged (§6).
    expect(result.metrics.folded).toBe(drop!.absorbs!.count);
  });

  it('likely rules differing only in the session merge into one rule with its support by brute force', () => {
    const likely = [4015, 4016, 4017].map((s) => {
      const r = substringRule(`?sessionid=${s}$`, '$', 10, { site: 'news.test' });
      return r;
    });
    const urls = urlsOf(records);
    const merged = mergeLikelyRules(likely, urls, params());
    expect(merged.map(ruleSpelling)).toEqual(['?sessionid={n}$ → $']);
    const brute = bruteSupport(
      urls.map((u) => u.url),
      (u) => u.replace(/\?sessionid=\d+$/, ''),
    );
    expect(merged[0]).toMatchObject({ origin: 'merged', support: brute, likelySimilarSupport: brute });
  });
});

describe('index.html rules merge their instances on every site', () => {
  // Two sites: docs.a.test with 12 directories, b.test with two. Each directory's index.html is its /.
  const records: DustRecord[] = [];
  let d = 0;
  const dir = (base: string, files: number) => {
    const index = ++d;
    records.push(doc(`${base}/`, index), doc(`${base}/index.html`, index));
    for (let f = 0; f < files; f++) records.push(doc(`${base}/page${f}.html`, ++d));
  };
  for (let k = 0; k < 12; k++) dir(`http://docs.a.test/d${k}`, 9);
  dir('http://b.test/guide', 3);
  dir('http://b.test/manual', 3);

  it('the rule found on one site is validated on the other and canonisation merges all 14 (was 12)', () => {
    const result = runDustBuster(records);
    const index = result.rules.filter((r) => ruleSpelling(r) === '/index.html$ → /$');
    expect(index.map((r) => [r.site, r.status])).toEqual([
      ['a.test', 'valid'],
      ['b.test', 'valid'],
    ]);
    const urls = [...result.canonical.keys()];
    const instances = urls.filter((u) => u.endsWith('/index.html'));
    expect(instances).toHaveLength(14);
    for (const u of instances) expect(result.canonical.get(u)).toBe(u.slice(0, -'index.html'.length));
    expect(bruteSupport(urls, (u) => u.replace(/\/index\.html$/, '/'))).toBe(14);
    expect(index[0].support + index[1].support).toBe(14);
  });

  it('per host the same: each host validates the rule on its own pages', () => {
    const result = runDustBuster(records, { site: 'host' });
    for (const u of [...result.canonical.keys()].filter((x) => x.endsWith('/index.html')))
      expect(result.canonical.get(u)).toBe(u.slice(0, -'index.html'.length));
  });
});
