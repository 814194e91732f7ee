import { describe, expect, it } from 'vitest';
import { parquetReadObjects } from 'hyparquet';
import { DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import { clustersParquet, removeRows, type DedupExportInput } from '../../../src/core/clusters/dedup-export';
import {
  captureKey,
  decide,
  KEEP_KEYS,
  KEEP_REASONS,
  parseKeepPolicy,
  type Capture,
  type KeepKey,
} from '../../../src/core/clusters/kept';
import { seededRandom } from '../../../src/core/random';
import { lostShare } from '../../../src/core/clusters/loses-text';

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** One key of the policy read literally, strings compared as UTF-8 bytes; leads counted by brute force. */
function literalKey(k: KeepKey, a: Capture, b: Capture, all: readonly Capture[]): number {
  const leads = (p: Capture) =>
    p.isCanonical ? all.filter((q) => q.canonicalUrl === p.canonicalUrl).length - 1 : 0;
  const ok = (p: Capture) => (p.status >= 200 && p.status <= 299 ? 0 : 1);
  switch (k) {
    case 'canonical':
      return Number(b.isCanonical) - Number(a.isCanonical);
    case 'original':
      return leads(b) - leads(a);
    case 'ok':
      return ok(a) - ok(b);
    case 'longest-text':
      return b.textLength - a.textLength;
    case 'earliest':
      return (
        Number(a.fetchedAt === '') - Number(b.fetchedAt === '') ||
        Buffer.compare(utf8(a.fetchedAt), utf8(b.fetchedAt))
      );
  }
}

function literal(policy: readonly KeepKey[], a: Capture, b: Capture, all: readonly Capture[]): number {
  for (const k of policy) {
    const d = literalKey(k, a, b, all);
    if (d !== 0) return d;
  }
  return (
    [...a.url].length - [...b.url].length ||
    Buffer.compare(utf8(a.url), utf8(b.url)) ||
    Buffer.compare(utf8(a.fetchedAt), utf8(b.fetchedAt))
  );
}

describe('the kept copy', () => {
  const seed = Number(process.env.KEPT_SEED ?? Math.floor(Math.random() * 1e9));
  it(`is the first by the policy on random clusters and policies, with the reason that decided (seed ${seed}; KEPT_SEED=… to replay)`, () => {
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
    for (let trial = 0; trial < 1000; trial++) {
      const policy = [...KEEP_KEYS].sort(() => rnd() - 0.5).slice(0, Math.floor(rnd() * 6));
      const n = 1 + Math.floor(rnd() * 6);
      const caps: Capture[] = Array.from({ length: n }, () => {
        const url = pick(urls);
        const canonicalUrl = rnd() < 0.5 ? url : pick(urls);
        return {
          id: Math.floor(rnd() * 100),
          url,
          status: pick([200, 204, 301, 404, 0]),
          fetchedAt: pick(times),
          isCanonical: canonicalUrl === url,
          canonicalUrl,
          textLength: pick([10, 20, 30]),
        };
      });
      const ids = caps.map((_, i) => i);
      const sorted = [...ids].sort((i, j) => literal(policy, caps[i], caps[j], caps));
      const d = decide(ids, (i) => caps[i], policy);
      const why = `seed ${seed} trial ${trial}: policy ${policy.join(',')} ${JSON.stringify(caps)}`;
      // The kept copy is a first one (captures equal in every key and tie are interchangeable).
      expect(literal(policy, caps[d.kept], caps[sorted[0]], caps), why).toBe(0);
      expect(d.cluster, why).toBe(captureKey(caps[d.kept].url, caps[d.kept].fetchedAt));
      const decidedBy =
        n === 1 ? undefined : policy.find((k) => literalKey(k, caps[sorted[0]], caps[sorted[1]], caps) !== 0);
      expect(d.reason, why).toBe(`kept: ${KEEP_REASONS[decidedBy ?? 'tie']}`);
    }
  });

  it('reads a policy from a profile and names what is wrong in it', () => {
    expect(parseKeepPolicy(['ok', 'earliest'], 'keep')).toEqual(['ok', 'earliest']);
    expect(() => parseKeepPolicy(['newest'], 'keep')).toThrow(/unknown key "newest"/);
    expect(() => parseKeepPolicy(['ok', 'ok'], 'keep')).toThrow(/listed twice/);
    expect(() => parseKeepPolicy('ok', 'keep')).toThrow(/expected a list/);
  });

  it('keeps the original over its mirror when the mirror canonicalises to it', () => {
    const caps: Capture[] = [
      // The mirror: longer text (a banner), earlier, but its canonical URL is the original's.
      {
        id: 0,
        url: 'http://m.a.test/p',
        status: 200,
        fetchedAt: '2024-01-01T00:00:00Z',
        isCanonical: false,
        canonicalUrl: 'http://a.test/p',
        textLength: 900,
      },
      {
        id: 1,
        url: 'http://a.test/p',
        status: 200,
        fetchedAt: '2024-01-02T00:00:00Z',
        isCanonical: true,
        canonicalUrl: 'http://a.test/p',
        textLength: 800,
      },
    ];
    const d = decide([0, 1], (i) => caps[i]);
    expect([d.kept, d.reason]).toEqual([1, 'kept: canonical URL']);
    // Without DUST evidence in the policy, the longest text wins.
    expect(decide([0, 1], (i) => caps[i], ['longest-text', 'earliest']).reason).toBe('kept: longest text');
  });
});

describe('clusters as Parquet and the remove list', () => {
  const at = (id: number, url: string, status: number, fetchedAt: string, canonicalUrl: string): Capture => ({
    id,
    url,
    status,
    fetchedAt,
    isCanonical: canonicalUrl === url,
    canonicalUrl,
    textLength: 100,
  });
  const pages: Capture[] = [
    at(0, 'http://a.test/p?utm=1', 200, '2024-01-02T00:00:00Z', 'http://a.test/p'),
    at(1, 'http://a.test/p', 200, '2024-01-03T00:00:00Z', 'http://a.test/p'),
    at(2, 'http://a.test/q', 404, '2024-01-01T00:00:00Z', 'http://a.test/q'),
    at(3, 'http://a.test/r', 200, '2024-01-05T00:00:00Z', 'http://a.test/r'),
    at(4, 'http://a.test/s', 200, '2024-01-04T00:00:00Z', 'http://a.test/s'),
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
  const c1 = captureKey('http://a.test/p', '2024-01-03T00:00:00Z');
  const c2 = captureKey('http://a.test/s', '2024-01-04T00:00:00Z');

  it('writes one row per page with its cluster (the kept copy capture key), the kept copy and why', async () => {
    const buf = clustersParquet(x);
    const rows = await parquetReadObjects({ file: buf });
    expect(rows.map((r) => [Number(r.id), r.url, r.cluster, r.kept, r.kept_reason])).toEqual([
      [0, 'http://a.test/p?utm=1', c1, false, 'kept: original'],
      // Its own canonical form, and the ?utm=1 alias leads to it (p and q are both canonical).
      [1, 'http://a.test/p', c1, true, 'kept: original'],
      [2, 'http://a.test/q', c1, false, 'kept: original'],
      [3, 'http://a.test/r', c2, false, 'kept: earliest capture'],
      [4, 'http://a.test/s', c2, true, 'kept: earliest capture'],
    ]);
  });

  it('lists every other member with the copy it duplicates and why that one is kept', () => {
    expect(removeRows(x).slice(1)).toEqual([
      [
        'http://a.test/p?utm=1',
        '0',
        c1,
        'http://a.test/p',
        '1',
        'kept: original',
        '',
        '0',
        'minhash',
        '',
        'test,a)/p?utm=1',
        '',
      ],
      [
        'http://a.test/q',
        '2',
        c1,
        'http://a.test/p',
        '1',
        'kept: original',
        '',
        '0',
        'minhash',
        '',
        'test,a)/q',
        '',
      ],
      [
        'http://a.test/r',
        '3',
        c2,
        'http://a.test/s',
        '4',
        'kept: earliest capture',
        '',
        '0',
        'minhash',
        '',
        'test,a)/r',
        '',
      ],
    ]);
  });
});

describe('never lose text silently', () => {
  const seed = Number(process.env.LOST_SEED ?? Math.floor(Math.random() * 1e9));
  it(`lostShare is the share of a's shingles b lacks, against a brute force (seed ${seed}; LOST_SEED=… to replay)`, () => {
    const rnd = seededRandom(seed);
    for (let t = 0; t < 300; t++) {
      const set = () =>
        Uint32Array.from(
          new Set(Array.from({ length: Math.floor(rnd() * 30) }, () => Math.floor(rnd() * 40))),
        ).sort();
      const a = set();
      const b = set();
      const inB = new Set(b);
      const expected = a.length === 0 ? 0 : [...a].filter((x) => !inB.has(x)).length / a.length;
      expect(lostShare(a, b), `seed ${seed} trial ${t}`).toBe(expected);
    }
  });

  it('flags a member the kept copy lacks more than the share of, keeps it out of the remove list unless the policy removes it', () => {
    const caps: Capture[] = [0, 1, 2].map((i) => ({
      id: i,
      url: `http://a.test/${'x'.repeat(i + 1)}`,
      status: 200,
      fetchedAt: '',
      isCanonical: true,
      canonicalUrl: `http://a.test/${'x'.repeat(i + 1)}`,
      textLength: 100,
    }));
    // Member 1 loses 10% against the kept copy 0, member 2 35%.
    const shares = [0, 0.1, 0.35];
    const x: DedupExportInput = {
      clusters: [{ members: [0, 1, 2], centre: 1 }],
      url: (i) => caps[i].url,
      canonical: null,
      method: 'minhash',
      mode: 'star',
      thresholds: DEFAULT_THRESHOLDS,
      capture: (i) => caps[i],
      lost: (m) => shares[m],
    };
    const removedUrls = (y: DedupExportInput) =>
      removeRows(y)
        .slice(1)
        .map((r) => [r[0], r[6], r[7]]);
    expect(removedUrls(x)).toEqual([['http://a.test/xx', '0.1000', '0']]);
    expect(removedUrls({ ...x, removeLosing: true })).toEqual([
      ['http://a.test/xx', '0.1000', '0'],
      ['http://a.test/xxx', '0.3500', '1'],
    ]);
    expect(removedUrls({ ...x, losesText: 0.05 })).toEqual([]);
  });
});
