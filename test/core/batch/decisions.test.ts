/**
 * The batch's decisions against a brute-force reading of the default kept-copy policy (clusters/kept.ts):
 * in every cluster the kept copy is the first page by (own DUST canonical URL, leads, 2xx, longest text,
 * earliest capture, shortest URL, URL), the cluster named by its capture key; the remove list is every other member, with its kept URL and best similarity; the
 * summary's duplicate URLs, unique payloads and bytes conserved add up from the pages.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../scripts/lib/batch-results';
import { surt } from '../../../src/core/url/surt';
import { captureKey } from '../../../src/core/clusters/kept';
import { runJoin } from '../../../src/cli/batch-join';
import { runMap } from '../../../src/cli/batch-map';
import { defaultProfile } from '../../../src/core/profile';
import { seededRandom } from '../../../src/core/random';
import { htmlPagesWarc } from '../../../scripts/lib/warc-writer';

const SAMPLE = fileURLToPath(new URL('../../../sample/sample.warc.gz', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'batch-decisions-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const query = queryRows;

interface Page {
  id: bigint;
  url: string;
  canonical_url: string;
  text_length: number;
  capture_key: string;
  status: number;
  fetched_at: string;
  bytes: bigint;
  digest: string;
  is_canonical: number;
  host: string;
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');
/**
 * The default policy read literally (clusters/kept.ts): own canonical URL, most other members leading to
 * it, 2xx, longest text, earliest capture (unknown last), then shortest URL, URL, capture time.
 */
function before(a: Page, b: Page, leads: (p: Page) => number): number {
  const ok = (p: Page) => (p.status >= 200 && p.status <= 299 ? 0 : 1);
  const unknown = (p: Page) => (p.fetched_at === '' ? 1 : 0);
  return (
    b.is_canonical - a.is_canonical ||
    leads(b) - leads(a) ||
    ok(a) - ok(b) ||
    b.text_length - a.text_length ||
    unknown(a) - unknown(b) ||
    Buffer.compare(utf8(a.fetched_at), utf8(b.fetched_at)) ||
    [...a.url].length - [...b.url].length ||
    Buffer.compare(utf8(a.url), utf8(b.url)) ||
    Buffer.compare(utf8(a.fetched_at), utf8(b.fetched_at)) ||
    // One capture read twice (two shards of one file): the same capture key, the smaller page id.
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Checks DIR's join output against the rule read literally; returns the clusters checked. */
async function check(dir: string, summary: Awaited<ReturnType<typeof runJoin>>['summary']): Promise<number> {
  const pages = new Map<bigint, Page>();
  for (const r of await query(`SELECT * FROM read_parquet('${dir}/shards/*/pages.parquet')`))
    pages.set(r.id as bigint, {
      id: r.id as bigint,
      url: r.url as string,
      canonical_url: r.canonical_url as string,
      text_length: r.text_length as number,
      capture_key: r.capture_key as string,
      status: r.status as number,
      fetched_at: r.fetched_at as string,
      bytes: r.bytes as bigint,
      digest: r.digest as string,
      is_canonical: r.is_canonical as number,
      host: r.host as string,
    });
  const members = new Map<string, { page: bigint; kept: boolean }[]>();
  for (const r of await query(`SELECT cluster, page, kept FROM read_parquet('${dir}/clusters.parquet')`)) {
    const c = r.cluster as string;
    members.set(c, [...(members.get(c) ?? []), { page: r.page as bigint, kept: r.kept as boolean }]);
  }
  const expectedRemove = new Map<bigint, string>();
  let conserved = 0n;
  for (const [cluster, list] of members) {
    const mine = list.map((m) => pages.get(m.page)!);
    const leads = (p: Page) =>
      p.is_canonical ? mine.filter((q) => q.canonical_url === p.canonical_url).length - 1 : 0;
    const sorted = [...mine].sort((a, b) => before(a, b, leads));
    const kept = list.filter((m) => m.kept).map((m) => m.page);
    expect(kept, `cluster ${cluster}: ${sorted.map((p) => `${p.fetched_at} ${p.url}`).join(', ')}`).toEqual([
      sorted[0].id,
    ]);
    // The cluster is named by its kept copy's capture key (its URL and capture time hashed).
    expect(cluster).toBe(captureKey(sorted[0].url, sorted[0].fetched_at));
    for (const p of sorted.slice(1)) {
      expectedRemove.set(p.id, sorted[0].url);
      conserved += p.bytes;
    }
  }
  const remove = await query(`SELECT * FROM read_parquet('${dir}/remove.parquet')`);
  expect(remove.length).toBe(expectedRemove.size);
  const pairs = await query(`SELECT a, b, similarity FROM read_parquet('${dir}/pairs.parquet')`);
  // SURT keys beside the URL and its canonical form, in the remove list and the clusters (IA's conventions).
  const clusterRows = await query(
    `SELECT url, canonical_url, surt, canonical_surt FROM read_parquet('${dir}/clusters.parquet')`,
  );
  for (const r of [...remove, ...clusterRows]) {
    expect(r.surt, String(r.url)).toBe(surt(r.url as string));
    expect(r.canonical_surt, String(r.canonical_url)).toBe(surt(r.canonical_url as string));
  }
  for (const r of remove) {
    const page = r.page as bigint;
    expect(r.kept_url, `page ${page}`).toBe(expectedRemove.get(page));
    expect(r.method).toBe('minhash');
    const best = Math.max(
      ...pairs.filter((p) => p.a === page || p.b === page).map((p) => p.similarity as number),
    );
    expect(r.similarity).toBe(best);
  }
  // The candidates verified and rejected: under the threshold, none of them accepted.
  const rejected = await query(
    `SELECT a, b, similarity, url_a, url_b FROM read_parquet('${dir}/rejected.parquet')`,
  );
  const accepted = new Set(pairs.map((p) => `${p.a} ${p.b}`));
  for (const r of rejected) {
    expect(Math.fround(r.similarity as number)).toBeLessThan(Math.fround(0.8));
    expect(accepted.has(`${r.a} ${r.b}`)).toBe(false);
    expect(r.url_a).toBe(pages.get(r.a as bigint)!.url);
  }
  const all = summary.find((s) => s.host === null)!;
  expect(all.duplicates_removed).toBe(expectedRemove.size);
  expect(BigInt(all.bytes_conserved)).toBe(conserved);
  expect(BigInt(all.bytes)).toBe([...pages.values()].reduce((s, p) => s + p.bytes, 0n));
  const payloads = new Set([...pages.values()].map((p) => (p.digest === '' ? `page:${p.id}` : p.digest)));
  expect(all.unique_payloads).toBe(payloads.size);
  return members.size;
}

describe('the copy kept, the remove list and the summary', () => {
  it('follow the documented rule on the sample in two shards', async () => {
    const profile = defaultProfile();
    const dir = join(out, 'sample');
    await runMap({
      profile,
      outDir: dir,
      workers: 1,
      shards: ['a', 'b'].map((n) => ({ name: `sample-${n}`, source: { kind: 'file', path: SAMPLE } })),
      log: () => {},
    });
    const j = await runJoin({ profile, outDir: dir, log: () => {} });
    expect(await check(dir, j.summary)).toBeGreaterThan(50);
    expect(j.summary.find((s) => s.host === null)!.bytes_conserved).toBeGreaterThan(0);
  }, 120_000);

  it('follow it on random crawls whose copies were captured in any order under URLs of any length', async () => {
    const seed = 6120261126;
    const rng = seededRandom(seed);
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi'.split(
      ' ',
    );
    for (let trial = 0; trial < 3; trial++) {
      const files: { url: string; title: string; text: string; at: number }[][] = [[], []];
      for (let g = 0; g < 25; g++) {
        const text = Array.from({ length: 120 }, () => words[Math.floor(rng() * words.length)]).join(' ');
        for (let c = 0; c < 2 + Math.floor(rng() * 4); c++) {
          const path = Array.from(
            { length: 1 + Math.floor(rng() * 4) },
            () => words[Math.floor(rng() * words.length)],
          );
          files[Math.floor(rng() * 2)].push({
            url: `https://s${Math.floor(rng() * 3)}.example/${path.join('/')}/${g}-${c}`,
            title: `t${g}`,
            text,
            // Few capture times, so that ties fall to the URL's length, then the URL, then the id.
            at: Math.floor(rng() * 3) * 1000,
          });
        }
      }
      const dir = join(out, `random-${trial}`);
      const shards = files.map((pages, k) => {
        const path = join(out, `random-${trial}-${k}.warc`);
        writeFileSync(path, htmlPagesWarc(`random-${trial}-${k}`, pages));
        return { name: `random-${k}.warc`, source: { kind: 'file' as const, path } };
      });
      const profile = defaultProfile();
      await runMap({ profile, outDir: dir, workers: 1, shards, log: () => {} });
      const j = await runJoin({ profile, outDir: dir, log: () => {} });
      expect(await check(dir, j.summary), `seed ${seed} trial ${trial}`).toBeGreaterThan(15);
    }
  }, 120_000);
});
