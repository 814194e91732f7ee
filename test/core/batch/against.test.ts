/**
 * A new crawl deduplicated against an earlier one (`--against DIR`): random crawls drawn from a seed,
 * the new one holding exact copies, near copies (a few words changed) and fresh pages, with duplicates
 * of its own. Checked against one join of both crawls' shards together: the same clusters; every page
 * of the new crawl whose cluster holds an earlier page is a revisit of that cluster's kept copy, which
 * is an earlier page; the remove list and the summary hold the new crawl's pages only. A shard name in
 * both crawls, or other signature parameters, are refused, naming why.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../scripts/lib/batch-results';
import { htmlPagesWarc } from '../../../scripts/lib/warc-writer';
import { runJoin } from '../../../src/cli/batch-join';
import { runMap } from '../../../src/cli/batch-map';
import { defaultProfile, parseProfile } from '../../../src/core/profile';
import { seededRandom, type Rng } from '../../../src/core/random';

const out = mkdtempSync(join(tmpdir(), 'batch-against-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const WORDS = (
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau ' +
  'upsilon phi chi psi omega'
).split(' ');

type Page = { url: string; title: string; text: string; at: number };

function text(rng: Rng): string {
  return Array.from({ length: 150 }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(' ');
}

/** The earlier crawl and the new one: copies of earlier pages (exact or near), fresh pages, repeats. */
function crawls(rng: Rng): { earlier: Page[]; fresh: Page[] } {
  const earlier: Page[] = Array.from({ length: 40 }, (_, i) => ({
    url: `https://old.example/p/${i}`,
    title: `p${i}`,
    text: text(rng),
    at: i,
  }));
  const fresh: Page[] = [];
  for (const [i, p] of earlier.entries()) {
    const r = rng();
    if (r < 0.3) fresh.push({ ...p, url: `https://new.example/p/${i}`, at: 1e6 + i });
    else if (r < 0.55) {
      const w = p.text.split(' ');
      for (let k = 0; k < 2; k++) w[Math.floor(rng() * w.length)] = 'changed';
      fresh.push({ ...p, url: `https://new.example/q/${i}`, text: w.join(' '), at: 1e6 + i });
    }
  }
  for (let i = 0; i < 15; i++) {
    const t = text(rng);
    fresh.push({ url: `https://new.example/f/${i}`, title: `f${i}`, text: t, at: 2e6 + i });
    if (rng() < 0.4)
      fresh.push({ url: `https://new.example/f/${i}/copy`, title: `f${i}`, text: t, at: 2e6 + i });
  }
  return { earlier, fresh };
}

async function map(dir: string, name: string, pages: Page[], profile = defaultProfile()) {
  const path = join(out, `${name}.warc`);
  writeFileSync(path, htmlPagesWarc(name, pages));
  await runMap({
    profile,
    outDir: dir,
    workers: 1,
    shards: [{ name, source: { kind: 'file', path } }],
    log: () => {},
  });
}

const rows = (dir: string, table: string) =>
  queryRows(`SELECT * FROM read_parquet('${join(dir, `${table}.parquet`)}')`);

describe('a crawl joined --against an earlier one', () => {
  it('reports its copies of earlier pages as revisits, keeps the earlier copies, removes only its own', async () => {
    const seed = Number(process.env.AGAINST_SEED ?? 2026112702);
    const rng = seededRandom(seed);
    const why = `seed ${seed} (AGAINST_SEED=… to replay)`;
    for (let trial = 0; trial < 2; trial++) {
      const { earlier, fresh } = crawls(rng);
      const old = join(out, `old-${trial}`);
      const now = join(out, `new-${trial}`);
      const both = join(out, `both-${trial}`);
      await map(old, 'crawl-a.warc', earlier);
      await map(now, 'crawl-b.warc', fresh);
      await map(both, 'crawl-a.warc', earlier);
      await map(both, 'crawl-b.warc', fresh);
      const j = await runJoin({ profile: defaultProfile(), outDir: now, against: old, log: () => {} });
      await runJoin({ profile: defaultProfile(), outDir: both, log: () => {} });

      // The same clusters as one join of both crawls.
      const members = async (dir: string) => {
        const m = new Map<string, string[]>();
        for (const r of await rows(dir, 'clusters'))
          m.set(String(r.cluster), [...(m.get(String(r.cluster)) ?? []), String(r.page)]);
        return [...m.values()].map((c) => c.sort().join(' ')).sort();
      };
      expect(await members(now), why).toEqual(await members(both));

      const clusters = await rows(now, 'clusters');
      const crawlOf = new Map(clusters.map((r) => [String(r.page), String(r.crawl)]));
      const byCluster = new Map<string, typeof clusters>();
      for (const r of clusters)
        byCluster.set(String(r.cluster), [...(byCluster.get(String(r.cluster)) ?? []), r]);
      const expected = new Map<string, string>();
      for (const members of byCluster.values()) {
        const kept = members.find((r) => r.kept === true)!;
        if (members.some((r) => r.crawl === 'earlier')) expect(kept.crawl, why).toBe('earlier');
        if (kept.crawl === 'earlier')
          for (const r of members) if (r.crawl === 'new') expected.set(String(r.page), String(kept.page));
      }
      const revisits = await rows(now, 'revisits');
      expect(new Map(revisits.map((r) => [String(r.page), String(r.earlier_page)])), why).toEqual(expected);
      // Exact copies are revisits of identical content, edited ones near.
      const byUrl = new Map(revisits.map((r) => [String(r.url), String(r.kind)]));
      const exact = [...byUrl].filter(([u]) => u.includes('/p/'));
      const near = [...byUrl].filter(([u]) => u.includes('/q/'));
      expect(exact.length, why).toBeGreaterThan(5);
      expect(near.length, why).toBeGreaterThan(3);
      for (const [u, kind] of exact) expect(kind, u).toMatch(/^identical-/);
      for (const [u, kind] of near) expect(kind, u).toBe('near');
      expect(j.against?.pages).toBe(earlier.length);
      expect(Object.values(j.against!.revisits).reduce((a, b) => a + b, 0)).toBe(expected.size);

      // Only the new crawl's pages are removed, counted and summed.
      for (const r of await rows(now, 'remove')) expect(crawlOf.get(String(r.page)), why).toBe('new');
      const all = j.summary.find((s) => s.host === null)!;
      expect(all.pages).toBe(fresh.length);
      const inClusters = clusters.filter((r) => r.crawl === 'new');
      expect(all.pages_in_clusters).toBe(inClusters.length);
      expect(all.duplicates_removed).toBe(inClusters.filter((r) => r.kept !== true).length);
    }
  }, 180_000);

  it('refuses an earlier crawl with a shard of the same name, or mapped with other signatures', async () => {
    const rng = seededRandom(7);
    const { earlier, fresh } = crawls(rng);
    const old = join(out, 'old-same');
    const now = join(out, 'new-same');
    await map(old, 'crawl.warc', earlier);
    await map(now, 'crawl.warc', fresh);
    await expect(
      runJoin({ profile: defaultProfile(), outDir: now, against: old, log: () => {} }),
    ).rejects.toThrow(/shard crawl\.warc is in both crawls.*--name-prefix/);
    const seeded = parseProfile(
      JSON.stringify({ profile: 'dedup-workbench', version: 1, engine: { minhash: { seed: 9 } } }),
    );
    const other = join(out, 'new-other');
    await map(other, 'crawl-b.warc', fresh, seeded);
    await expect(runJoin({ profile: seeded, outDir: other, against: old, log: () => {} })).rejects.toThrow(
      /other signature parameters \(engine\.minhash\.seed: 1 there, 9 here\)/,
    );
  }, 120_000);

  it("honours the analyst's decisions as one join of both crawls does", async () => {
    const seed = Number(process.env.AGAINST_SEED ?? 2026120701);
    const why = `seed ${seed} (AGAINST_SEED=… to replay)`;
    const { earlier, fresh } = crawls(seededRandom(seed));
    // Decisions on the new crawl's pages: a page and its copy kept apart, two unrelated pages joined.
    const copies = fresh.filter((p) => p.url.endsWith('/copy'));
    const loners = fresh.filter(
      (p) => /\/f\/\d+$/.test(p.url) && !fresh.some((q) => q.url === `${p.url}/copy`),
    );
    expect(copies.length, why).toBeGreaterThan(0);
    expect(loners.length, why).toBeGreaterThan(1);
    const overrides = {
      cannotLink: copies.slice(0, 2).map((c) => [c.url.replace(/\/copy$/, ''), c.url] as [string, string]),
      mustLink: [[loners[0].url, loners[1].url] as [string, string]],
    };
    const profile = { ...defaultProfile(), overrides };
    const old = join(out, 'old-decided');
    const now = join(out, 'new-decided');
    const both = join(out, 'both-decided');
    await map(old, 'crawl-a.warc', earlier, profile);
    await map(now, 'crawl-b.warc', fresh, profile);
    await map(both, 'crawl-a.warc', earlier, profile);
    await map(both, 'crawl-b.warc', fresh, profile);
    await runJoin({ profile, outDir: now, against: old, log: () => {} });
    await runJoin({ profile, outDir: both, log: () => {} });
    const clustersOf = async (dir: string) => {
      const m = new Map<string, string[]>();
      for (const r of await rows(dir, 'clusters'))
        m.set(String(r.cluster), [...(m.get(String(r.cluster)) ?? []), String(r.url)]);
      return [...m.values()].map((c) => c.sort());
    };
    const against = await clustersOf(now);
    expect(against.map((c) => c.join(' ')).sort(), why).toEqual(
      (await clustersOf(both)).map((c) => c.join(' ')).sort(),
    );
    const together = (x: string, y: string) => against.some((c) => c.includes(x) && c.includes(y));
    for (const [x, y] of overrides.cannotLink) expect(together(x, y), `${why}: ${x} ${y}`).toBe(false);
    for (const [x, y] of overrides.mustLink) expect(together(x, y), `${why}: ${x} ${y}`).toBe(true);
  }, 180_000);
});
