/**
 * Generalisation and folding against brute-force references on seeded random inputs (the seed is in
 * every failure message): wildcards must reproduce every spelling they stand for and nothing with
 * another fixed word; every rule left out of the table must be merged by the rules the table applies.
 */
import { describe, expect, it } from 'vitest';
import { applyRule, generalise, runDustBuster, tokenizeUrl } from '../../../src/core/dust';
import { fillWildcards, matchWildRun } from '../../../src/core/dust/wildcards';
import { seededRandom } from '../../../src/core/random';
import { generateWorld } from '../../../scripts/lib/dust-world';
import { scoreWorld } from '../../../scripts/lib/dust-world-score';

const side = (s: string) => tokenizeUrl(s).slice(1, -1);
const WORDS = 'oak pine fern reef dune sage iris kelp mesa opal'.split(' ');

/** A random permalink family: /Y/M/D/<key>/ ↔ /<noun>/<key>.<ext>, keys ids or slugs, dates over years. */
function family(seed: number, n: number) {
  const rng = seededRandom(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(rng() * a.length)];
  const noun = pick(['news', 'posts', 'items', 'docs']);
  const ext = pick(['html', 'htm', 'php']);
  const slugs = rng() < 0.5;
  const pairs: { alpha: string[]; beta: string[]; count: number }[] = [];
  const keys = new Set<string>();
  while (pairs.length < n) {
    const key = slugs
      ? `${pick(WORDS)}-${pick(WORDS)}-${Math.floor(rng() * 900 + 100)}`
      : String(Math.floor(rng() * 99_000 + 1000));
    if (keys.has(key)) continue;
    keys.add(key);
    const date = `${2005 + Math.floor(rng() * 20)}/${1 + Math.floor(rng() * 12)}/${1 + Math.floor(rng() * 28)}`;
    const a = side(`/${date}/${key}/$`);
    const b = side(`/${noun}/${key}.${ext}$`);
    // Either orientation, as pairs of identical pages come.
    pairs.push(rng() < 0.5 ? { alpha: a, beta: b, count: 1 } : { alpha: b, beta: a, count: 1 });
  }
  return { pairs, noun, ext };
}

/** Brute force: the rule maps every member's date side to its key side. */
function reproduces(rule: { alpha: string[]; beta: string[] }, alpha: string[], beta: string[]): boolean {
  const m = matchWildRun(['^', ...alpha], rule.alpha);
  if (!m || m.at !== 1 || m.end !== alpha.length + 1) return false;
  const out = fillWildcards(rule.beta, m.bind);
  return out !== null && out.join('') === beta.join('');
}

describe('generalisation over random permalink families', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`one rule with the date as α reproduces every member, seed ${seed}`, () => {
      const { pairs, ext } = family(seed, 6 + (seed % 20));
      // Noise: another family with another extension must not join it.
      const other = family(seed + 1000, 5).pairs.map((p) => ({
        ...p,
        alpha: p.alpha.map((t) => (t === 'html' || t === 'htm' || t === 'php' ? `${ext}x` : t)),
        beta: p.beta.map((t) => (t === 'html' || t === 'htm' || t === 'php' ? `${ext}x` : t)),
      }));
      const rules = generalise([...pairs, ...other], 3);
      const dated = pairs.map((p) => (p.alpha.includes('$') && p.alpha.length > p.beta.length ? p : p));
      const good = rules.filter((r) =>
        dated.every((p) => {
          const [d, k] = /^\/\d/.test(p.alpha.join('')) ? [p.alpha, p.beta] : [p.beta, p.alpha];
          return reproduces(r, d, k);
        }),
      );
      expect(
        good.length,
        `seed ${seed}: ${rules.map((r) => r.alpha.join('') + ' → ' + r.beta.join(''))}`,
      ).toBe(1);
      expect(good[0].alpha.join(''), `seed ${seed}`).toMatch(/^\/\{y\}\/\{m\}\/\{d\}\//);
      // Nothing of the other family is reproduced by it (its fixed word differs).
      for (const p of other) {
        const [d, k] = /^\/\d/.test(p.alpha.join('')) ? [p.alpha, p.beta] : [p.beta, p.alpha];
        expect(reproduces(good[0], d, k), `seed ${seed}`).toBe(false);
      }
    });
  }
});

describe('an origin is a name: sites by port on one address are never one family', () => {
  for (let seed = 1; seed <= 20; seed++) {
    it(`a family per origin, no wildcard in the origin, seed ${seed}`, () => {
      const rng = seededRandom(seed * 7919);
      const ip = `${10 + Math.floor(rng() * 200)}.${Math.floor(rng() * 255)}.0.${1 + Math.floor(rng() * 250)}`;
      const ports = [
        ...new Set(Array.from({ length: 2 + Math.floor(rng() * 3) }, () => 1024 + Math.floor(rng() * 60000))),
      ];
      const candidates = [];
      for (const port of ports) {
        const o = `^http://${ip}:${port}/`;
        // Per origin: ids that each show once (sparse), so only a family across ids can form.
        for (let k = 0; k < 3 + Math.floor(rng() * 5); k++) {
          const id = String(100 + Math.floor(rng() * 90000));
          candidates.push({ alpha: side(`${o}node/${id}`), beta: side(`${o}amp/${id}`), count: 1 });
        }
      }
      const rules = generalise(candidates, 3);
      const spelled = rules.map((r) => r.alpha.join('') + ' → ' + r.beta.join(''));
      for (const r of rules) {
        const origin = r.alpha.join('').match(/^\^http:\/\/[^/]*/)?.[0] ?? '';
        expect(origin, `seed ${seed}: ${spelled}`).not.toMatch(/\{/);
      }
      // Each origin with three ids or more is one rule reproducing its members.
      for (const port of ports) {
        const mine = candidates.filter((c) => c.alpha.join('').includes(`:${port}/`));
        const maps = (r: { alpha: string[]; beta: string[] }, a: string[], b: string[]) => {
          const url = [...a, '$'];
          const m = matchWildRun(url, r.alpha);
          return (
            m !== null &&
            m.at === 0 &&
            fillWildcards(r.beta, m.bind)?.join('') ===
              b.join('') + url.slice(m.end).join('').replace(/\$$/, '')
          );
        };
        const good = rules.filter((r) =>
          mine.every((c) => maps(r, c.alpha, c.beta) || maps(r, c.beta, c.alpha)),
        );
        expect(good.length, `seed ${seed} port ${port}: ${spelled}`).toBe(1);
      }
    });
  }
});

describe('folding on generated worlds: a rule left out is merged by the rules the table applies', () => {
  // Rows listed and true rules over the worlds, for the table's size below.
  let rows = 0;
  let expected = 0;
  const seeds = [41, 42, 43, 44, 45, 46, 47, 48];
  for (const seed of seeds) {
    // A world with a daily blog runs DustBuster on a few thousand URLs: 5–25 s on a loaded machine.
    it(`world ${seed}`, () => {
      const world = generateWorld(seed, 0.25);
      const dust = runDustBuster(world.records);
      const score = scoreWorld(world, dust);
      rows += score.rows;
      expected += score.expected;
      const urls = [...dust.canonical.keys()];
      const inList = new Set(urls);
      const c = (u: string) => dust.canonical.get(u) ?? u;
      let checked = 0;
      for (const r of dust.folded) {
        if (!r.coveredBy) continue;
        for (const u of urls) {
          const v = applyRule(r, u);
          if (v === null || !inList.has(v)) continue;
          checked++;
          expect(c(u), `seed ${seed}: #${r.id} on ${u} → ${v}`).toBe(c(v));
        }
      }
      expect(checked, `seed ${seed}`).toBeGreaterThan(0);
      // The listed valid rules are the ones applied: none of them is covered.
      expect(dust.rules.filter((r) => r.status === 'valid' && r.coveredBy)).toEqual([]);
    }, 120_000);
  }
  it('lists about one row per true rule over the worlds (a table a person would write)', () => {
    expect(expected, `seeds ${seeds.join(', ')}`).toBeGreaterThan(0);
    expect(
      rows / expected,
      `seeds ${seeds.join(', ')}: ${rows} rows for ${expected} true rules`,
    ).toBeLessThanOrEqual(1.5);
  });
});
