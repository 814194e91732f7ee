import { describe, expect, it } from 'vitest';
import type { IndexEntry } from '../../../src/core/sample/crawl-index';
import { IndexPagesBuilder, indexPages } from '../../../src/core/sample/index-pages';
import { pairPi, planSample, rangeOffsets, samplePi } from '../../../src/core/sample/sample-plan';
import { seededRandom } from '../../../src/core/random';

/** A generated index: sites of random sizes, records laid out one after the other in two files. */
function index(seed: number): IndexEntry[] {
  const rnd = seededRandom(seed);
  const out: IndexEntry[] = [];
  const offsets = [0, 0];
  for (let s = 0; s < 60; s++) {
    const n = 1 + Math.floor(rnd() * 40);
    for (let p = 0; p < n; p++) {
      const f = rnd() < 0.5 ? 0 : 1;
      const length = 100 + Math.floor(rnd() * 900);
      out.push({
        url: `https://s${s}.example/d${p % 3}/p${p}.html`,
        timestamp: '',
        mime: 'text/html',
        status: 200,
        digest: `D${s}-${Math.floor(rnd() * n)}`,
        length,
        offset: offsets[f],
        filename: `f${f}.warc.gz`,
      });
      offsets[f] += length;
    }
  }
  return out;
}

describe('sample plan', () => {
  it('reads exactly the chosen units’ records, adjacent ones joined, offsets mapped back (random indexes)', () => {
    for (const seed of [1, 2, 3, Number(process.env.PLAN_SEED ?? 4)]) {
      const entries = index(seed);
      const plan = planSample(entries, 200, seed, ['f0.warc.gz', 'dir/f1.warc.gz'], {
        index: 'i',
        lines: entries.length,
        badLines: 0,
      });
      const chosen = new Set(plan.info.chosen);
      const want = entries.filter((_, i) => chosen.has(plan.design.unitOfPage[i]));
      expect(want.length, `seed ${seed}`).toBe(
        plan.info.chosen.reduce((a, u) => a + plan.info.unitPages[u], 0),
      );
      for (const f of plan.files) {
        const mine = want.filter((e) => e.filename === f.filename).sort((a, b) => a.offset - b.offset);
        // Ranges ascend, do not touch, and cover exactly the records.
        for (let k = 1; k < f.ranges.length; k++) expect(f.ranges[k][0]).toBeGreaterThan(f.ranges[k - 1][1]);
        expect(f.ranges.reduce((a, [s, e]) => a + e - s, 0)).toBe(mine.reduce((a, e) => a + e.length, 0));
        // Each record's position in the slices read one after the other maps back to its offset.
        const map = rangeOffsets(f.ranges);
        let at = 0;
        for (const e of mine) {
          expect(map(at), `seed ${seed}`).toBe(e.offset);
          expect(plan.unitOf(f.filename, e.offset)).toBe(plan.design.unitOfPage[entries.indexOf(e)]);
          at += e.length;
        }
      }
      expect(plan.info.missingFiles).toEqual([]);
    }
  });

  it('names the files the index needs that were not chosen', () => {
    const entries = index(5);
    const plan = planSample(entries, 10_000, 5, ['f0.warc.gz'], { index: 'i', lines: 0, badLines: 0 });
    expect(plan.info.missingFiles).toEqual(['f1.warc.gz']);
    expect(plan.files.map((f) => f.filename)).toEqual(['f0.warc.gz']);
  });

  it('pair probabilities: the unit’s within a unit, a draw without replacement across two', () => {
    const entries = index(6);
    const { info } = planSample(entries, 200, 6, ['f0.warc.gz', 'f1.warc.gz'], {
      index: 'i',
      lines: 0,
      badLines: 0,
    });
    const drawn = info.chosen.filter((u) => !info.certain.includes(u));
    expect(drawn.length).toBeGreaterThan(1);
    const [a, b] = drawn;
    expect(pairPi(info, a, a)).toBe(info.pi);
    const n = drawn.length;
    const N = info.rest.units;
    expect(pairPi(info, a, b)).toBeCloseTo((n * (n - 1)) / (N * (N - 1)), 12);
    if (info.certain.length > 0) expect(pairPi(info, info.certain[0], a)).toBe(info.pi);
    expect(pairPi(info, -1, a)).toBe(1);
    expect(samplePi(info, a)).toBe(info.pi);
  });

  it('rangeOffsets: random ranges and positions against a walk', () => {
    const rnd = seededRandom(Number(process.env.PLAN_SEED ?? 11));
    const ranges: [number, number][] = [];
    let at = 0;
    for (let k = 0; k < 50; k++) {
      at += 1 + Math.floor(rnd() * 100);
      const len = 1 + Math.floor(rnd() * 100);
      ranges.push([at, at + len]);
      at += len;
    }
    const map = rangeOffsets(ranges);
    let pos = 0;
    for (const [s, e] of ranges) for (let x = s; x < e; x++) expect(map(pos++)).toBe(x);
  });
});

describe('an index without record lengths (wget --warc-cdx writes offsets only)', () => {
  it('ends a record where the file’s next indexed record begins, the last at the file’s end', () => {
    const seed = Number(process.env.PLAN_SEED ?? 9);
    const entries = index(seed);
    const sizes = new Map<string, number>();
    for (const e of entries) sizes.set(e.filename, Math.max(sizes.get(e.filename) ?? 0, e.offset + e.length));
    // Non-HTML records stay in the index (they mark where a page's record ends); lengths dropped.
    const b = new IndexPagesBuilder();
    for (const e of entries) b.add({ ...e, length: -1 });
    const got = b.finish(sizes);
    const want = indexPages(entries);
    expect(Array.from(got.length), `seed ${seed}`).toEqual(Array.from(want.length));
    expect(Array.from(got.offset)).toEqual(Array.from(want.offset));
    // Without the files' sizes, each file's last page cannot be placed and is left out.
    const b2 = new IndexPagesBuilder();
    for (const e of entries) b2.add({ ...e, length: -1 });
    const files = new Set(entries.filter((e) => e.mime === 'text/html').map((e) => e.filename));
    const lastIsPage = [...files].filter((f) => {
      const inFile = entries.filter((e) => e.filename === f);
      return inFile[inFile.length - 1].mime === 'text/html';
    }).length;
    expect(b2.finish().design.length).toBe(want.design.length - lastIsPage);
  });
});
