/**
 * Two steps that make a rule say what a person writes, against brute-force references on seeded
 * random sites (a fresh seed each run, printed; WIDEN_SEED=… repeats one):
 * - anyDirectory: a rule found in one directory, said for every directory at its depth;
 * - redirectsAgainst: an alias family points at the URL the site redirects to.
 */
import { describe, expect, it } from 'vitest';
import { runDustBuster } from '../../../src/core/dust';
import { anyDirectory } from '../../../src/core/dust/origins';
import { applyRule } from '../../../src/core/dust/rules';
import { seededRandom } from '../../../src/core/random';
import type { DustRecord } from '../../../src/core/dust/types';
import { side, sketchOf, substringRule } from './fixtures';

const seed = Number(process.env.WIDEN_SEED ?? Math.floor(Math.random() * 1e9));
const WORDS = ['news', 'kb', 'docs', 'guide', 'cable', 'reef', 'comet', 'alpha', 'pine', 'umber', 'slate'];

/** A rule side from its spelling, wildcards as single tokens, ^ and $ as frames. */
function spell(s: string): string[] {
  const out: string[] = [];
  let rest = s;
  if (rest.startsWith('^')) {
    out.push('^');
    rest = rest.slice(1);
  }
  const end = rest.endsWith('$');
  if (end) rest = rest.slice(0, -1);
  for (const part of rest.split(/(\{[a-z]\d*\})/)) {
    if (part === '') continue;
    if (/^\{[a-z]\d*\}$/.test(part)) out.push(part);
    else out.push(...side(part));
  }
  if (end) out.push('$');
  return out;
}

const pick = <T>(rng: () => number, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];

describe(`anyDirectory (seed ${seed}; WIDEN_SEED=${seed} repeats it)`, () => {
  // Rules a crawl yields inside one directory, d1/…/dk literal, the leaf a word or a carried {x}.
  const templates: [(dirs: string, leaf: string) => string, (dirs: string, leaf: string) => string][] = [
    [(d, x) => `^{o}/${d}/${x}/$`, (d, x) => `^{o}/${d}/${x}$`],
    [(d, x) => `^{o}/${d}/${x}/print$`, (d, x) => `^{o}/${d}/${x}$`],
    [(d, x) => `^{o}/${d}/${x}.html$`, (d, x) => `^{o}/${d}/${x}/$`],
    [(d, x) => `^{o}/${d}/${x}/index.html$`, (d, x) => `^{o}/${d}/${x}/$`],
  ];
  for (let k = 0; k < 40; k++) {
    const s = seed + k;
    it(`is the rule in every directory at its depth, and only there (case ${s})`, () => {
      const rng = seededRandom(s);
      const depth = 1 + Math.floor(rng() * 3);
      const dirs = Array.from({ length: depth }, () => pick(rng, WORDS));
      const t = Math.floor(rng() * templates.length);
      const [a, b] = templates[t];
      // The leaf is a whole path segment in every template but {x}.html.
      const segmentLeaf = t !== 2;
      const leaf = rng() < 0.5 ? '{x}' : pick(rng, WORDS);
      const rule = {
        ...substringRule('x', 'y', 10),
        alpha: spell(a(dirs.join('/'), leaf)),
        beta: spell(b(dirs.join('/'), leaf)),
      };
      const wide = anyDirectory(rule);
      expect(wide, `case ${s}: ${a(dirs.join('/'), leaf)}`).not.toBeNull();
      const widened = { ...rule, ...wide! };
      // URLs of the site at depths 1–4, each directory any word, the leaf a word or a slug.
      for (let n = 0; n < 200; n++) {
        const d = Array.from({ length: 1 + Math.floor(rng() * 4) }, () => pick(rng, WORDS));
        const word = pick(rng, WORDS);
        const slug = rng() < 0.3 ? `${word}-${pick(rng, WORDS)}` : word;
        const tail = pick(rng, ['/', '/print', '.html', '/index.html', '']);
        const url = `https://s.com/${d.join('/')}/${slug}${tail}`;
        // Reference, segment by segment: the directories (every literal word the rule keeps as a
        // whole path segment) put back to the rule's own words, a slug where the rule carries a
        // word read as one word; the rule as found applied; the URL's own segments put back.
        const segs = url.slice('https://s.com/'.length).split('/');
        const own = [...dirs, ...(segmentLeaf && leaf !== '{x}' ? [leaf] : [])];
        const isWord = (x: string | undefined) => x !== undefined && /^[a-z0-9]+$/.test(x);
        const slugAt = segmentLeaf && leaf === '{x}' ? depth : -1;
        let expected: string | null = null;
        const fits =
          own.every((_, i) => isWord(segs[i]) && i < segs.length - (segmentLeaf ? 0 : 1)) &&
          (slugAt < 0 || (segs[slugAt] !== undefined && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(segs[slugAt])));
        if (fits) {
          const swapped = segs.map((x, i) =>
            i < own.length ? own[i] : i === slugAt ? `q${x.replace(/-/g, 'q')}q` : x,
          );
          const v = applyRule(rule, `https://s.com/${swapped.join('/')}`);
          if (v !== null) {
            const back = v.slice('https://s.com/'.length).split('/');
            expected = `https://s.com/${back.map((x, i) => (i < own.length ? segs[i] : i === slugAt ? x.replace(swapped[slugAt], segs[slugAt]) : x)).join('/')}`;
          }
        }
        expect(applyRule(widened, url), `case ${s}: ${widened.alpha.join('')} on ${url}`).toBe(expected);
        // The rule as found still applies wherever it did, with the same result.
        const before = applyRule(rule, url);
        if (before !== null) expect(applyRule(widened, url), `case ${s}: ${url}`).toBe(before);
      }
    });
  }

  it('leaves a rule with nothing to widen alone', () => {
    const rule = (a: string, b: string) => ({
      ...substringRule('x', 'y', 10),
      alpha: spell(a),
      beta: spell(b),
    });
    expect(anyDirectory(rule('^{o}/old/', '^{o}/'))).toBeNull();
    expect(anyDirectory(rule('.html$', '$'))).toBeNull();
    expect(anyDirectory(rule('/news/{x}/$', '/news/{x}$'))).toBeNull();
    expect(anyDirectory(rule('^{o}/a.php?sid=', '^{o}/a.php?'))).toBeNull();
  });
});

describe(`an alias family points at the URL the site redirects to (seed ${seed})`, () => {
  const SHAPES = [
    (n: number) => `/nodes/${n}.html`,
    (n: number) => `/node/${n}/`,
    (n: number) => `/?p=${n}`,
    (n: number) => `/a/${n}`,
    (n: number) => `/item.php?id=${n}`,
    (n: number) => `/story_${n}`,
    (n: number) => `/permalink/${n}`,
  ];
  for (let k = 0; k < 12; k++) {
    const s = seed + 1000 + k;
    it(`every alias's canonical URL is the redirect target (case ${s})`, () => {
      const rng = seededRandom(s);
      const order = SHAPES.map((f, i) => ({ f, i, r: rng() })).sort((x, y) => x.r - y.r);
      const [target, redirecting, ...rest] = order;
      const aliases = rest.slice(0, 1 + Math.floor(rng() * 3));
      const host = 'http://s.com';
      const records: DustRecord[] = [];
      const pageOf = new Map<string, number>();
      const ids = Array.from({ length: 25 + Math.floor(rng() * 20) }, () => 1 + Math.floor(rng() * 1e6));
      const pages = [...new Set(ids)];
      for (const n of pages) {
        const doc = { sketch: sketchOf(n), digest: `d${n}`, sizeMin: 1000, sizeMax: 1000, status: 200 };
        records.push({ url: host + target.f(n), ...doc });
        pageOf.set(host + target.f(n), n);
        // The site answers 301 from one alias to the canonical URL; the others serve the page.
        records.push({
          url: host + redirecting.f(n),
          status: 301,
          sizeMin: 180,
          sizeMax: 180,
          redirectTo: host + target.f(n),
        });
        for (const a of aliases) {
          if (rng() >= 0.8) continue;
          records.push({ url: host + a.f(n), ...doc });
          pageOf.set(host + a.f(n), n);
        }
      }
      const dust = runDustBuster(records);
      const where = `case ${s}: target ${target.f(1)}, aliases ${aliases.map((a) => a.f(1)).join(' ')}`;
      expect(pageOf.size).toBeGreaterThan(pages.length);
      for (const [url, n] of pageOf)
        expect(dust.canonical.get(url), `${where}: ${url}`).toBe(host + target.f(n));
    });
  }
});
