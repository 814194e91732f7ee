import { describe, expect, it } from 'vitest';
import { CaptureIndex, capturesByPage } from '../../../src/core/candidates/captures';
import { ENGINE_DEFAULTS } from '../../../src/core/candidates/engine-params';
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

  it('the earliest capture of each URL stands for it when times are known (an unknown time last, then the first read), against a brute force', () => {
    const rng = seededRandom(seed + 1);
    const times = ['', '2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z', '2023-06-01T12:00:00Z'];
    for (let t = 0; t < 50; t++) {
      const order = crawlOrder(rng, 1 + Math.floor(rng() * 40));
      const at = order.map(() => times[Math.floor(rng() * times.length)]);
      const pages: EnginePage[] = order.map((u, i) => ({
        text: `page ${u} ${i}`,
        normUrl: u,
        fetchedAt: at[i],
        outlinks: [],
        fingerprint: '',
      }));
      // Brute force: per URL, the capture with the smallest (unknown?, time, read position).
      const expected: number[] = [];
      for (const u of new Set(order)) {
        const mine = order.map((x, i) => i).filter((i) => order[i] === u);
        mine.sort(
          (a, b) =>
            Number(at[a] === '') - Number(at[b] === '') ||
            (at[a] < at[b] ? -1 : at[a] > at[b] ? 1 : 0) ||
            a - b,
        );
        expected.push(mine[0]);
      }
      expected.sort((a, b) => a - b);
      const { kept, captures } = analysePages(pages, {
        captures: 'url',
        template: { ...ENGINE_DEFAULTS.template, strip: false },
      });
      expect(kept, `seed ${seed + 1} trial ${t}: ${JSON.stringify(order.map((u, i) => [u, at[i]]))}`).toEqual(
        expected,
      );
      // Every other capture is listed with the page standing for its URL.
      expect(captures.seqs.length).toBe(order.length - expected.length);
      captures.of.forEach((i, k) => expect(order[kept[i]]).toBe(order[captures.seqs[k]]));
    }
  });
});
