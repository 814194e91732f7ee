import { describe, expect, it } from 'vitest';
import { siteGroups, siteOf } from '../../../src/core/eval/design-columns';
import { designSample } from '../../../src/core/eval/sample-design';
import {
  duplicateEstimate,
  exactDuplicates,
  ratioEstimate,
  t975,
  unitMerges,
} from '../../../src/core/eval/whole-crawl';
import { seededRandom } from '../../../src/core/random';
import { generateWorld, trueDuplicates, type WorldPage } from './sample-world';

/** The design's whole-crawl estimate on a world, the engine's clusters standing in by the truth. */
function estimate(world: WorldPage[], budget: number, seed: number) {
  const d = designSample(world, budget, seed);
  const byUnit = new Map<number, WorldPage[]>();
  world.forEach((p, i) => {
    const u = d.unitOfPage[i];
    if (!d.chosen.includes(u)) return;
    let list = byUnit.get(u);
    if (!list) byUnit.set(u, (list = []));
    list.push(p);
  });
  let certain = 0;
  const drawn: { x: number; y: number }[] = [];
  for (const [u, ps] of byUnit) {
    const y = unitMerges(ps.map((p) => ({ digest: p.digest, cluster: p.group })));
    if (d.certain.includes(u)) certain += y;
    else drawn.push({ x: ps.length, y });
  }
  // A chosen unit always has pages (units are made from pages).
  expect(byUnit.size).toBe(d.chosen.length);
  return { d, est: duplicateEstimate(exactDuplicates(world), certain, drawn, d.rest, world.length) };
}

describe('sample design', () => {
  it('names a site by its host without www.', () => {
    expect(siteOf('https://WWW.Example.org:8080/a?b')).toBe('example.org:8080');
    expect(siteOf('https://www.example.org:443/a')).toBe('example.org');
    expect(siteOf('http://127.0.0.1:18081/')).not.toBe(siteOf('http://127.0.0.1:18082/'));
    expect(siteOf('http://user@docs.example.org/')).toBe('docs.example.org');
    expect(siteOf('urn:x')).toBe('');
  });

  it('joins a site with its mirror by shared digests, not by a shared error page', () => {
    const pages = [
      ...['a', 'b', 'c', 'd'].map((k) => ({ url: `https://one.example/${k}`, digest: k, bytes: 1 })),
      ...['a', 'b', 'c'].map((k) => ({ url: `https://copy.example/${k}`, digest: k, bytes: 1 })),
      { url: 'https://other.example/x', digest: 'x', bytes: 1 },
      // 30 sites sharing one error page: no evidence of mirroring.
      ...Array.from({ length: 30 }, (_, i) => ({
        url: `https://s${i}.example/404`,
        digest: 'err',
        bytes: 1,
      })),
    ];
    const { unitOfSite: bySite, mirrored, columns } = siteGroups(pages);
    const unitOfSite = { get: (name: string) => bySite[columns.sites.indexOf(name)] };
    expect(unitOfSite.get('one.example')).toBe(unitOfSite.get('copy.example'));
    expect(unitOfSite.get('other.example')).not.toBe(unitOfSite.get('one.example'));
    expect(unitOfSite.get('s1.example')).not.toBe(unitOfSite.get('s2.example'));
    expect(mirrored).toBe(2);
  });

  it('counts near-duplicate merges in a unit: digests joined by clusters', () => {
    expect(
      unitMerges([
        { digest: 'a', cluster: 1 },
        { digest: 'b', cluster: 1 },
        { digest: 'a', cluster: null },
        { digest: 'c', cluster: null },
        { digest: '', cluster: 1 },
      ]),
    ).toBe(2);
  });

  it('Student t: the table values', () => {
    expect(t975(1)).toBeGreaterThan(6);
    expect(t975(10)).toBeCloseTo(2.228, 2);
    expect(t975(30)).toBeCloseTo(2.042, 3);
    expect(t975(1000)).toBeCloseTo(1.962, 3);
  });

  it('draws n of N units with π = n / N, the same for a seed', () => {
    const world = generateWorld(5);
    const a = designSample(world, 2000, 11);
    const b = designSample(world, 2000, 11);
    expect(a.chosen).toEqual(b.chosen);
    const drawn = a.chosen.length - a.certain.length;
    expect(a.pi).toBeCloseTo(drawn / a.rest.units, 12);
    const certainPages = a.certain.reduce((t, u) => t + a.units[u].pages, 0);
    expect(certainPages).toBeLessThanOrEqual(1000);
    expect(drawn).toBe(Math.round((a.rest.units * (2000 - certainPages)) / a.rest.pages));
    // The certain units are the largest: no drawn-from unit is larger than the smallest certain one.
    const smallest = Math.min(...a.certain.map((u) => a.units[u].pages));
    for (const u of a.units) if (!a.certain.includes(u.id)) expect(u.pages).toBeLessThanOrEqual(smallest);
    expect(new Set(a.chosen).size).toBe(a.chosen.length);
  });

  it('draws the same pages whatever order the index lists them in (random shuffles, seeded)', () => {
    const seed = Number(process.env.SAMPLE_SEED ?? 8);
    const world = generateWorld(seed);
    const chosenUrls = (pages: WorldPage[]) => {
      const d = designSample(pages, 1500, seed);
      const chosen = new Set(d.chosen);
      return pages
        .filter((_, i) => chosen.has(d.unitOfPage[i]))
        .map((p) => p.url)
        .sort();
    };
    const want = chosenUrls(world);
    const rnd = seededRandom(seed);
    const shuffled = [...world];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    expect(chosenUrls(shuffled), `seed ${seed}`).toEqual(want);
    expect(want.length).toBeGreaterThan(0);
  });

  it('the whole crawl as its own sample gives the truth with no interval', () => {
    for (const seed of [1, 2, 3]) {
      const world = generateWorld(seed);
      const { est } = estimate(world, world.length, seed);
      const truth = trueDuplicates(world);
      expect(est.removed.value, `seed ${seed}`).toBe(truth);
      expect(est.removed.hi - est.removed.lo, `seed ${seed}`).toBe(0);
    }
  });

  it('covers the whole-crawl duplicate rate in ≥ 90% of 20 seeded repetitions', () => {
    const base = Number(process.env.SAMPLE_SEED ?? 2026);
    let covered = 0;
    const misses: string[] = [];
    for (let k = 0; k < 20; k++) {
      const seed = base + k;
      const world = generateWorld(seed);
      const truth = trueDuplicates(world) / world.length;
      const { est } = estimate(world, Math.round(world.length * 0.2), seed * 7 + 1);
      if (truth >= est.rate.lo && truth <= est.rate.hi) covered++;
      else
        misses.push(
          `seed ${seed}: truth ${truth.toFixed(4)} not in [${est.rate.lo.toFixed(4)}, ${est.rate.hi.toFixed(4)}]`,
        );
    }
    expect(
      covered,
      `world seeds ${base}…${base + 19} (SAMPLE_SEED): ${misses.join('; ')}`,
    ).toBeGreaterThanOrEqual(18);
  });

  it('ratio estimate: drawn units without spread give the whole range, not a point', () => {
    const { rate, total } = ratioEstimate(
      [
        { x: 10, y: 0 },
        { x: 30, y: 0 },
      ],
      20,
      500,
    );
    expect(rate).toMatchObject({ value: 0, lo: 0, hi: 1 });
    expect(total).toMatchObject({ lo: 0, hi: 500 });
    // The whole population drawn: the value itself, exactly.
    expect(ratioEstimate([{ x: 10, y: 2 }], 1, 10).rate).toMatchObject({ value: 0.2, lo: 0.2, hi: 0.2 });
  });

  it('ratio estimate: random unit counts against the formula computed by hand', () => {
    const seed = Number(process.env.SAMPLE_SEED ?? 99);
    const rnd = seededRandom(seed);
    const counts = Array.from({ length: 12 }, () => {
      const x = 1 + Math.floor(rnd() * 50);
      return { x, y: Math.floor(rnd() * (x + 1)) };
    });
    const N = 40;
    const X = 1000;
    const { rate, total } = ratioEstimate(counts, N, X);
    const r = counts.reduce((a, c) => a + c.y, 0) / counts.reduce((a, c) => a + c.x, 0);
    // Jackknife by hand: the ratio without each unit in turn.
    const rs = counts.map((_, i) => {
      const rest = counts.filter((__, j) => j !== i);
      return rest.reduce((a, c) => a + c.y, 0) / rest.reduce((a, c) => a + c.x, 0);
    });
    const mean = rs.reduce((a, b) => a + b, 0) / 12;
    const se = Math.sqrt(((1 - 12 / 40) * 11 * rs.reduce((a, x) => a + (x - mean) ** 2, 0)) / 12);
    expect(rate.value, `seed ${seed}`).toBeCloseTo(r, 12);
    expect(rate.hi - rate.value, `seed ${seed}`).toBeCloseTo(Math.min(1 - r, t975(11) * se), 9);
    expect(total.value).toBeCloseTo(r * X, 9);
  });
});
