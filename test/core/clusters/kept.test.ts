import { describe, expect, it } from 'vitest';
import { parquetReadObjects } from 'hyparquet';
import { DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import { clustersParquet, removeRows, type DedupExportInput } from '../../../src/core/clusters/dedup-export';
import { keptOf, type Capture } from '../../../src/core/clusters/kept';
import { seededRandom } from '../../../src/core/random';

/** The documented order read literally (README "Decisions"), with strings compared as UTF-8 bytes. */
function literal(a: Capture, b: Capture): number {
  const utf8 = (s: string) => Buffer.from(s, 'utf8');
  const ok = (p: Capture) => (p.status >= 200 && p.status <= 299 ? 0 : 1);
  return (
    Number(b.isCanonical) - Number(a.isCanonical) ||
    ok(a) - ok(b) ||
    Number(a.fetchedAt === '') - Number(b.fetchedAt === '') ||
    Buffer.compare(utf8(a.fetchedAt), utf8(b.fetchedAt)) ||
    [...a.url].length - [...b.url].length ||
    Buffer.compare(utf8(a.url), utf8(b.url)) ||
    a.id - b.id
  );
}

describe('the kept copy', () => {
  const seed = Number(process.env.KEPT_SEED ?? Math.floor(Math.random() * 1e9));
  it(`is the first by the documented rule on random clusters (seed ${seed}; KEPT_SEED=… to replay)`, () => {
    const rnd = seededRandom(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    // Few values per field, so ties go down the order; URLs with astral and high-BMP characters, where
    // UTF-16 order and byte order differ.
    const urls = [
      'http://a.test/x',
      'http://a.test/xy',
      'http://a.test/\u{1f600}',
      'http://a.test/\uff41',
      'http://b.test/x',
    ];
    const times = ['', '2024-01-01T00:00:00Z', '2024-01-01T00:00:01Z', '2023-12-31T23:59:59Z'];
    for (let trial = 0; trial < 500; trial++) {
      const n = 1 + Math.floor(rnd() * 6);
      const caps: Capture[] = Array.from({ length: n }, (_, i) => ({
        id: 100 - i * 7 + Math.floor(rnd() * 3),
        url: pick(urls),
        status: pick([200, 204, 301, 404, 0]),
        fetchedAt: pick(times),
        isCanonical: rnd() < 0.5,
      }));
      const ids = caps.map((_, i) => i);
      const expected = [...ids].sort((i, j) => literal(caps[i], caps[j]))[0];
      expect(
        keptOf(ids, (i) => caps[i]),
        `seed ${seed} trial ${trial}: ${JSON.stringify(caps)}`,
      ).toBe(expected);
    }
  });
});

describe('clusters as Parquet and the remove list', () => {
  const pages: Capture[] = [
    {
      id: 0,
      url: 'http://a.test/p?utm=1',
      status: 200,
      fetchedAt: '2024-01-02T00:00:00Z',
      isCanonical: false,
    },
    { id: 1, url: 'http://a.test/p', status: 200, fetchedAt: '2024-01-03T00:00:00Z', isCanonical: true },
    { id: 2, url: 'http://a.test/q', status: 404, fetchedAt: '2024-01-01T00:00:00Z', isCanonical: true },
    { id: 3, url: 'http://a.test/r', status: 200, fetchedAt: '2024-01-05T00:00:00Z', isCanonical: true },
    { id: 4, url: 'http://a.test/s', status: 200, fetchedAt: '2024-01-04T00:00:00Z', isCanonical: true },
  ];
  const x: DedupExportInput = {
    clusters: [
      { members: [0, 1, 2], centre: 0 },
      { members: [3, 4], centre: -1 },
    ],
    url: (i) => pages[i].url,
    canonical: null,
    method: 'minhash',
    mode: 'star',
    thresholds: DEFAULT_THRESHOLDS,
    capture: (i) => pages[i],
  };

  it('writes one row per page with its cluster (smallest id) and the kept copy, read back by hyparquet', async () => {
    const buf = clustersParquet(x);
    const rows = await parquetReadObjects({ file: buf });
    expect(rows.map((r) => [Number(r.id), r.url, Number(r.cluster), r.kept])).toEqual([
      [0, 'http://a.test/p?utm=1', 0, false],
      [1, 'http://a.test/p', 0, true], // its own canonical form, 2xx
      [2, 'http://a.test/q', 0, false],
      [3, 'http://a.test/r', 3, false],
      [4, 'http://a.test/s', 3, true], // the earlier capture
    ]);
  });

  it('lists every other member with the copy it duplicates', () => {
    expect(removeRows(x).slice(1)).toEqual([
      ['http://a.test/p?utm=1', '0', '0', 'http://a.test/p', '1', 'minhash', '', 'test,a)/p?utm=1', ''],
      ['http://a.test/q', '2', '0', 'http://a.test/p', '1', 'minhash', '', 'test,a)/q', ''],
      ['http://a.test/r', '3', '3', 'http://a.test/s', '4', 'minhash', '', 'test,a)/r', ''],
    ]);
  });
});
