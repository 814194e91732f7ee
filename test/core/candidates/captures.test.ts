import { describe, expect, it } from 'vitest';
import { CaptureIndex, capturesByPage } from '../../../src/core/candidates/captures';
import { analysePages, type EnginePage } from '../../../src/core/candidates/analyse-pages';
import { seededRandom } from '../../../src/core/random';

const seed = Number(process.env.CAPTURES_SEED ?? Date.now() % 1e9);

/** A random crawl order of URLs, most fetched once, some again and again. */
function crawlOrder(rng: () => number, n: number): string[] {
  const urls = Array.from(
    { length: Math.max(1, Math.floor(n / 3)) },
    (_, i) => `http://s${i % 4}.test/p${i}`,
  );
  return Array.from({ length: n }, () => urls[Math.floor(rng() ** 2 * urls.length)]);
}

describe(`captures of one URL (seed ${seed}, CAPTURES_SEED=… repeats)`, () => {
  it('the first capture of each URL stands for it, every other is listed with it (against a brute force)', () => {
    const rng = seededRandom(seed);
    for (let t = 0; t < 50; t++) {
      const order = crawlOrder(rng, 1 + Math.floor(rng() * 200));
      const seqs = order.map((_, i) => 10 * i + Math.floor(rng() * 10)); // gaps, as parallel parts leave
      const index = new CaptureIndex('url');
      const kept: number[] = [];
      order.forEach((u, i) => {
        if (index.standsFor(u, seqs[i], kept.length) < 0) kept.push(i);
      });
      // Brute force: a page is kept iff no earlier page has its URL; its captures are every page with it.
      const expectKept = order.flatMap((u, i) => (order.indexOf(u) === i ? [i] : []));
      expect(kept, `seed ${seed}, trial ${t}`).toEqual(expectKept);
      const lists = capturesByPage(
        kept.map((i) => seqs[i]),
        index.result(),
      );
      kept.forEach((i, k) => {
        const all = order.flatMap((u, j) => (u === order[i] ? [seqs[j]] : []));
        if (all.length === 1) expect(lists.has(k)).toBe(false);
        else expect(lists.get(k), `seed ${seed}, trial ${t}, ${order[i]}`).toEqual(all);
      });
      expect(index.count).toBe(order.length - kept.length);
    }
  });

  it("'each' keeps every capture as a page of its own", () => {
    const index = new CaptureIndex('each');
    expect(['a', 'a', 'b', 'a'].map((u, i) => index.standsFor(u, i, i))).toEqual([-1, -1, -1, -1]);
    expect(index.count).toBe(0);
  });

  it('analysePages: four fetches of one page are one page, not a cluster of four replicas', () => {
    const text = (k: number) =>
      Array.from({ length: 80 }, (_, i) => `word${(i * 7 + k * 13) % 97} term${i}`).join(' ');
    const page = (url: string, k: number): EnginePage => ({
      text: text(k),
      normUrl: url,
      outlinks: [],
      fingerprint: `f${k}`,
    });
    const pages = [
      page('http://a.test/bugs.html', 1),
      page('http://a.test/other.html', 2),
      page('http://a.test/bugs.html', 1),
      page('http://a.test/bugs.html', 1),
      page('http://a.test/bugs.html', 1),
    ];
    const one = analysePages(pages);
    expect(one.kept).toEqual([0, 1]);
    expect(one.result.n).toBe(2);
    expect(Array.from(one.captures.of)).toEqual([0, 0, 0]);
    expect(Array.from(one.captures.seqs)).toEqual([2, 3, 4]);
    // Compared, the four captures are four pages, the six pairs among them all exact (fingerprint).
    const each = analysePages(pages, { captures: 'each' });
    expect(each.result.n).toBe(5);
    expect(each.kept).toEqual([0, 1, 2, 3, 4]);
  });
});
