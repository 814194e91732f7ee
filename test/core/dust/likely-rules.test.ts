import { describe, expect, it } from 'vitest';
import { detectLikelyPairs, detectLikelyRules } from '../../../src/core/dust/likely-rules';
import { likelySimilar } from '../../../src/core/dust/similarity';
import type { DustUrl } from '../../../src/core/dust/types';
import { logged, page, params, urlsOf } from './fixtures';
import { seededRandom } from '../../../src/core/random';

const SEP = '\u0001';

/**
 * Fig. 1 done naively: every substring of ≤ S tokens materialised as a string with its envelope,
 * buckets in a Map, pairs counted per bucket. Returns pair key → [all, similar] at T_low and T_high.
 */
function bruteForce(urls: DustUrl[], S: number, Tlow: number, Thigh: number, jaccard: number) {
  const bySite = new Map<string, DustUrl[]>();
  for (const u of urls) bySite.set(u.host, [...(bySite.get(u.host) ?? []), u]);
  const counts = new Map<string, number[]>();
  for (const list of bySite.values()) {
    const buckets = new Map<string, { alpha: string; url: DustUrl }[]>();
    for (const url of list) {
      const t = url.tokens;
      for (let i = 0; i <= t.length; i++) {
        for (let j = i; j <= Math.min(i + S, t.length); j++) {
          const env = t.slice(0, i).join(SEP) + '\u0002' + t.slice(j).join(SEP);
          const b = buckets.get(env) ?? [];
          b.push({ alpha: t.slice(i, j).join(SEP), url });
          buckets.set(env, b);
        }
      }
    }
    for (const b of buckets.values()) {
      if (b.length < 2 || b.length > Math.max(Tlow, Thigh)) continue;
      for (let x = 0; x < b.length; x++) {
        for (let y = x + 1; y < b.length; y++) {
          const key = [b[x].alpha, b[y].alpha].sort().join('\u0003') + '\u0004' + list[0].host;
          const c = counts.get(key) ?? [0, 0, 0, 0];
          const sim = likelySimilar(b[x].url, b[y].url, jaccard) ? 1 : 0;
          if (b.length <= Tlow) {
            c[0]++;
            c[1] += sim;
          }
          if (b.length <= Thigh) {
            c[2]++;
            c[3] += sim;
          }
          counts.set(key, c);
        }
      }
    }
  }
  return counts;
}

function randomList(seed: number, n: number): DustUrl[] {
  const rnd = seededRandom(seed);
  const parts = ['a', 'b', 'id', '1', '2', '/', '.', '-', '?', '=', '_'];
  const records = Array.from({ length: n }, (_, k) => {
    const path = Array.from(
      { length: 1 + Math.floor(rnd() * 7) },
      () => parts[Math.floor(rnd() * parts.length)],
    );
    const host = rnd() < 0.7 ? 's.com' : 't.org';
    const lo = Math.floor(rnd() * 10);
    return k % 3 === 0
      ? page(`http://${host}/${path.join('')}`, lo % 4)
      : logged(`http://${host}/${path.join('')}`, lo, lo + 2);
  });
  return urlsOf(records);
}

describe('detectLikelyRules (Fig. 1) against a brute-force reference', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`same pairs and supports on random URL set #${seed}`, () => {
      const urls = randomList(seed, 70);
      const p = params({ MS: 1, S: seed === 5 ? 3 : 35 });
      const expected = bruteForce(urls, p.S, 4, 9, p.likelySimilarJaccard);
      const rules = detectLikelyPairs(urls, p, 4, 9);
      const got = new Map(
        rules.map((r) => [
          [r.alpha.join(SEP), r.beta.join(SEP)].sort().join('\u0003') + '\u0004' + r.site,
          [r.support, r.likelySimilarSupport, r.redundancySupport],
        ]),
      );
      const want = new Map(
        [...expected].filter(([, c]) => c[1] >= 1).map(([k, c]) => [k, [c[0], c[1], c[3]]]),
      );
      expect(got.size).toBeGreaterThan(20);
      expect(got).toEqual(want);
    });
  }

  it('keeps support ≥ MS only, sorted by likely-similar support, shrinking side first', () => {
    const urls = randomList(9, 300);
    const rules = detectLikelyRules(urls, params({ MS: 3 }), 6);
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.every((r) => r.likelySimilarSupport >= 3)).toBe(true);
    for (let k = 1; k < rules.length; k++) {
      expect(rules[k - 1].likelySimilarSupport).toBeGreaterThanOrEqual(rules[k].likelySimilarSupport);
    }
    for (const r of rules) expect(r.alpha.length).toBeGreaterThanOrEqual(r.beta.length);
  });
});

describe('the heuristics of §4', () => {
  // §1: ""1" → "2", which emanates from instances like pic-1.jpg and pic-2.jpg, story_1 and story_2,
  // and lect1 and lect2, none of which are dust … in most instances of "1" → "2", one could also
  // replace the "1" by other digits. We therefore ignore rules that come in large groups."
  const numbered = urlsOf(
    ['pic-N.jpg', 'story_N', 'lectN.ps', 'img/N/x.gif'].flatMap((pattern, f) =>
      Array.from({ length: 9 }, (_, k) =>
        logged(`http://site.com/${pattern.replace('N', String(k + 1))}`, 5000, 5000 + f),
      ),
    ),
  );

  it('small buckets: "1" → "2" has support only while buckets of 9 numbers are not overflowing', () => {
    const pairOf = (rules: ReturnType<typeof detectLikelyRules>) =>
      rules.find((r) => r.alpha.join('') === '2' && r.beta.join('') === '1');
    // pic-N, story_N and img/N: lect1 is a single token, so lect1/lect2 supports (lect2, lect1) instead.
    expect(pairOf(detectLikelyRules(numbered, params(), Infinity))?.likelySimilarSupport).toBe(3);
    expect(pairOf(detectLikelyRules(numbered, params(), params().Tlow))).toBeUndefined();
    expect(detectLikelyRules(numbered, params(), params().Tlow)).toEqual([]);
  });

  // §1: "http://movie-forum.com/story_100 and http://politics-forum.com/story_100 which support the
  // invalid rule "movie-forum" → "politics-forum"" — §6: "such invalid rules are not detected,
  // since stories/lectures typically vary in size."
  const forums = (sameSizes: boolean) =>
    urlsOf(
      Array.from({ length: 8 }, (_, k) => [
        logged(`http://movie-forum.com/story_${100 + k}`, 3000 + 400 * k, 3100 + 400 * k),
        logged(`http://politics-forum.com/story_${100 + k}`, sameSizes ? 3050 + 400 * k : 9000 + 400 * k),
      ]).flat(),
    );

  it('similarity likeliness: "movie-forum" → "politics-forum" has support but no likely-similar support', () => {
    const p = params({ site: 'list' });
    const rule = (urls: DustUrl[]) =>
      detectLikelyPairs(urls, params({ site: 'list', MS: 0 }), p.Tlow, p.Thigh).find(
        (r) => r.alpha.join('') === 'politics' && r.beta.join('') === 'movie',
      );
    expect(rule(forums(false))).toMatchObject({ support: 8, likelySimilarSupport: 0 });
    const spelled = detectLikelyPairs(forums(false), params({ site: 'list', MS: 0 }), p.Tlow, p.Thigh).find(
      (r) => r.alpha.join('') === 'politics-forum' && r.beta.join('') === 'movie-forum',
    );
    expect(spelled).toMatchObject({ support: 8, likelySimilarSupport: 0 });
    expect(detectLikelyRules(forums(false), p, p.Tlow)).toEqual([]);
    // With overlapping size ranges the same URLs would make it a likely rule.
    expect(rule(forums(true))).toMatchObject({ support: 8, likelySimilarSupport: 8 });
    expect(detectLikelyRules(forums(true), p, p.Tlow).length).toBeGreaterThan(0);
  });

  it('rules are per site: the forum pair is not even an instance when each host is its own site', () => {
    const rules = detectLikelyPairs(forums(true), params({ MS: 0 }), 6, 11);
    const cross = (r: (typeof rules)[number]) => [r.alpha, r.beta].map((side) => side.join('')).join(' ');
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.some((r) => /politics.* .*movie|movie.* .*politics/.test(cross(r)))).toBe(false);
  });

  it('sketches decide likeliness when present: estimated Jaccard ≥ 0.8', () => {
    const urls = urlsOf(
      Array.from({ length: 5 }, (_, k) => [
        page(`http://s.com/a/${k}.html`, k),
        page(`http://s.com/b/${k}.html`, k < 3 ? k : 100 + k),
      ]).flat(),
    );
    const rule = detectLikelyRules(urls, params({ MS: 1 }), 6).find((r) => r.alpha.join('') === 'b');
    expect(rule).toMatchObject({ support: 5, likelySimilarSupport: 3 });
  });
});
