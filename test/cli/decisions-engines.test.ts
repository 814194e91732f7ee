/**
 * One decision per cluster at every scale (issue "One decision per cluster"): a generated crawl with
 * re-fetches, a mirror whose missing pages redirect to the original, tracking aliases and links to the
 * originals, through the workbench's engine (the core calls the signatures and DUST jobs make), `npm run
 * analyze` (--clusters, --remove-list, --profile-out), the batch's DuckDB join and the PySpark driver on
 * the profile the CLI wrote: the same cluster names, kept copies, reasons and remove lists.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../scripts/lib/batch-results';
import { ensureSparkEnv, runSparkJoin, sparkPrerequisites } from '../../scripts/lib/spark-env';
import { decisionCrawl } from '../../scripts/lib/decision-crawl';
import { runJoin } from '../../src/cli/batch-join';
import { runMap } from '../../src/cli/batch-map';
import { analysePages, type EnginePage } from '../../src/core/candidates/analyse-pages';
import { enginePage } from '../../src/core/candidates/comparable';
import { DEFAULT_METHOD, DEFAULT_THRESHOLDS } from '../../src/core/candidates/methods';
import { removeRows } from '../../src/core/clusters/dedup-export';
import { clusterRows } from '../../src/core/clusters/export';
import type { Capture } from '../../src/core/clusters/kept';
import { lostByShingles, shareText } from '../../src/core/clusters/loses-text';
import { ENGINE_DEFAULTS } from '../../src/core/candidates/engine-params';
import { clusterView, DEFAULT_CLUSTERING } from '../../src/core/clusters/view';
import { parseDelimited } from '../../src/core/csv';
import { runDustBuster, type DustRecord } from '../../src/core/dust';
import { dustRecordOf } from '../../src/core/dust/from-page';
import { InlinkCounter } from '../../src/core/dust/inlinks';
import { ingest } from '../../src/core/ingest/pipeline';
import { parseProfile } from '../../src/core/profile';
import { placeOverrides, type UrlOverrides } from '../../src/core/clusters/override-urls';
import { seededRandom } from '../../src/core/random';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DRIVER = join(ROOT, 'spark', 'dedup_join.py');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The workbench's engine: ingest, DUST with the pages' links, signatures, default clusters, decisions. */
async function workbench(file: string, overrides?: UrlOverrides) {
  const records: DustRecord[] = [];
  const inlinks = new InlinkCounter();
  const pages: EnginePage[] = [];
  const info: { capture: Capture; norm: string }[] = [];
  await ingest(
    (async function* () {
      yield new Uint8Array(readFileSync(file));
    })(),
    { fileName: 'crawl.warc', totalBytes: 0 },
    async (batch) => {
      for (const { page, content } of batch) {
        records.push(dustRecordOf(page, content.text, content.headers));
        inlinks.add(page.normUrl, content.outlinks);
        const p = enginePage(page, content);
        if (!p) continue;
        pages.push(p);
        info.push({
          norm: page.normUrl,
          capture: {
            id: page.seq,
            url: page.url,
            status: page.status,
            fetchedAt: page.fetchedAt,
            isCanonical: true,
            canonicalUrl: page.normUrl,
            textLength: page.textLength,
          },
        });
      }
    },
  );
  for (const r of records) r.inlinks = inlinks.of(r.url);
  const dust = runDustBuster(records);
  const { result, kept, texts } = analysePages(pages);
  // The analyst's decisions by URL, placed as the workbench places an imported file (normalised URL,
  // else the DUST-canonical one).
  const links = overrides
    ? placeOverrides(
        overrides,
        kept.map((k) => info[k].norm),
        (u) => dust.canonical.get(u) ?? u,
      ).links
    : undefined;
  const view = clusterView(result, DEFAULT_METHOD, DEFAULT_THRESHOLDS, DEFAULT_CLUSTERING, undefined, links);
  const capture = (i: number): Capture => {
    const { capture: c, norm } = info[kept[i]];
    const canonicalUrl = dust.canonical.get(norm) ?? norm;
    return { ...c, canonicalUrl, isCanonical: canonicalUrl === norm };
  };
  const x = {
    clusters: view.clusters,
    url: (i: number) => info[kept[i]].capture.url,
    canonical: (i: number) => capture(i).canonicalUrl,
    method: DEFAULT_METHOD,
    mode: DEFAULT_CLUSTERING,
    thresholds: DEFAULT_THRESHOLDS,
    capture,
    lost: lostByShingles(texts, ENGINE_DEFAULTS.shingles),
  };
  return { clusters: clusterRows(x), remove: removeRows(x) };
}

/** Rows of a table as sorted "a | b | …" lines of the columns named. */
function linesOf(rows: string[][], cols: string[]): string[] {
  const at = cols.map((c) => rows[0].indexOf(c));
  expect(
    at.every((k) => k >= 0),
    `${cols.join(',')} in ${rows[0].join(',')}`,
  ).toBe(true);
  return rows
    .slice(1)
    .map((r) => at.map((k) => r[k]).join(' | '))
    .sort();
}

const CLUSTER_COLS = ['cluster', 'url', 'kept', 'kept_reason', 'lost_share', 'loses_text'];
const REMOVE_COLS = ['url', 'cluster', 'kept_url', 'kept_reason', 'lost_share', 'loses_text'];

/** A batch table's columns as rows of strings, header first (kept: a Boolean as the CSV's 1/0). */
async function batchRows(parquet: string, cols: string[]): Promise<string[][]> {
  // The clusters table gives every member a reason column: the CSV writes it on the kept row only.
  const expr = (c: string) =>
    c === 'kept_reason' && parquet.includes('clusters')
      ? "CASE WHEN kept THEN kept_reason ELSE '' END AS kept_reason"
      : c;
  const rows = await queryRows(`SELECT ${cols.map(expr).join(', ')} FROM read_parquet('${parquet}')`);
  const cell = (v: unknown) =>
    typeof v === 'boolean'
      ? v
        ? '1'
        : '0'
      : typeof v === 'number'
        ? shareText(v)
        : v === null
          ? ''
          : String(v);
  return [cols, ...rows.map((r) => cols.map((c) => cell(r[c])))];
}

describe('one decision per cluster in the workbench engine, the CLI, DuckDB and Spark', () => {
  const seed = Number(process.env.ENGINES_SEED ?? Math.floor(Math.random() * 1e9));
  it(`gives the same cluster names, kept copies, reasons and remove lists (seed ${seed}; ENGINES_SEED=… to replay)`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engines-'));
    dirs.push(dir);
    const file = join(dir, 'crawl.warc');
    writeFileSync(file, decisionCrawl(seed));
    const wb = await workbench(file);
    const wbClusters = linesOf(wb.clusters, CLUSTER_COLS);
    const wbRemove = linesOf(wb.remove, REMOVE_COLS);
    expect(wbRemove.length, `seed ${seed}`).toBeGreaterThan(5);
    // The grown copy loses text: flagged in the clusters, kept out of the remove list (the default policy).
    const flagged = wbClusters.filter((l) => l.endsWith(' | 1'));
    expect(flagged.map((l) => l.split(' | ')[1])).toEqual([
      'https://m.docs.example.test/guide/grown.html?utm_source=news',
    ]);
    expect(wbRemove.some((l) => l.includes('utm_source=news'))).toBe(false);
    expect(wbRemove.some((l) => l.startsWith('https://m.docs.example.test/guide/grown.html |'))).toBe(true);
    // The mirror's copies (captured earlier, with more text: a banner) go, by the canonical URL.
    expect(
      wbRemove.filter((l) => l.startsWith('https://m.') && l.includes(' | kept: canonical URL | ')).length,
    ).toBeGreaterThan(0);
    // The mirror's copies and the tracking aliases are removed in favour of the original, by its
    // canonical URL; the re-fetches are folded into their URL's earliest capture, never removed.
    for (const line of wbRemove) {
      const [url, , keptUrl, reason] = line.split(' | ');
      expect(keptUrl, line).toMatch(/^https:\/\/docs\.example\.test\/guide\/(p\d+|grown)\.html$/);
      expect(url, line).not.toBe(keptUrl);
      expect(reason, line).toMatch(/^kept: /);
    }

    const cli = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'src', 'cli', 'analyze.ts'),
        file,
        '--clusters',
        join(dir, 'C.csv'),
        '--remove-list',
        join(dir, 'R.csv'),
        '--profile-out',
        join(dir, 'P.json'),
      ],
      { encoding: 'utf8', cwd: ROOT },
    );
    expect(cli.status, cli.stderr).toBe(0);
    const cliClusters = parseDelimited(readFileSync(join(dir, 'C.csv'), 'utf8'));
    const cliRemove = parseDelimited(readFileSync(join(dir, 'R.csv'), 'utf8'));
    expect(linesOf(cliClusters, CLUSTER_COLS), `seed ${seed}`).toEqual(wbClusters);
    expect(linesOf(cliRemove, REMOVE_COLS), `seed ${seed}`).toEqual(wbRemove);
    // Every cluster of the remove list is one of the clusters file, its kept page that cluster's kept member.
    const keptIn = new Map(
      cliClusters
        .slice(1)
        .filter((r) => r[cliClusters[0].indexOf('kept')] === '1')
        .map((r) => [r[0], r[1]]),
    );
    for (const r of cliRemove.slice(1)) expect(keptIn.get(r[2]), r.join(',')).toBe(r[3]);

    const profile = parseProfile(readFileSync(join(dir, 'P.json'), 'utf8'));
    const out = join(dir, 'batch');
    await runMap({
      profile,
      outDir: out,
      workers: 1,
      shards: [{ name: 'crawl.warc', source: { kind: 'file', path: file } }],
      log: () => {},
    });
    const duck = await runJoin({ profile, outDir: out, log: () => {} });
    const duckClusters = await batchRows(join(out, 'clusters.parquet'), CLUSTER_COLS);
    expect(linesOf(duckClusters, CLUSTER_COLS), `seed ${seed}`).toEqual(wbClusters);
    expect(linesOf(await batchRows(join(out, 'remove.parquet'), REMOVE_COLS), REMOVE_COLS)).toEqual(wbRemove);
    const all = duck.summary.find((s) => s.host === null)!;
    expect(all.captures_folded, `seed ${seed}`).toBe(8);
    expect(all.loses_text, `seed ${seed}`).toBe(1);

    // The analyst's decisions (issue "The analyst's decisions persist"): in two clusters a member pair
    // marked not duplicates, two clusters merged; the same clusters, kept copies and remove lists in the
    // engine, DuckDB and Spark (one Spark run, with the decisions: a Spark session costs ~25 s here, and
    // test/cli/spark.test.ts compares Spark with DuckDB without decisions).
    const rnd = seededRandom(seed);
    const byCluster = new Map<string, string[]>();
    for (const r of wb.clusters.slice(1)) byCluster.set(r[0], [...(byCluster.get(r[0]) ?? []), r[1]]);
    const groups = [...byCluster.values()]
      .filter((g) => g.length >= 2)
      .sort((x, y) => (x[0] < y[0] ? -1 : 1));
    const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)];
    const overrides: UrlOverrides = { mustLink: [], cannotLink: [] };
    for (let k = 0; k < 2; k++) {
      const g = pick(groups);
      overrides.cannotLink.push([g[0], g[g.length - 1]]);
    }
    const [g1, g2] = [pick(groups), pick(groups)];
    if (g1 !== g2) overrides.mustLink.push([pick(g1), pick(g2)]);
    const decided = await workbench(file, overrides);
    const decidedLines = linesOf(decided.clusters, CLUSTER_COLS);
    expect(decidedLines, `seed ${seed}: the decisions change the clusters`).not.toEqual(wbClusters);
    const withOverrides = { ...profile, overrides };
    const out2 = join(dir, 'batch-decided');
    await runMap({
      profile: withOverrides,
      outDir: out2,
      workers: 1,
      shards: [{ name: 'crawl.warc', source: { kind: 'file', path: file } }],
      log: () => {},
    });
    await runJoin({ profile: withOverrides, outDir: out2, log: () => {} });
    expect(
      linesOf(await batchRows(join(out2, 'clusters.parquet'), CLUSTER_COLS), CLUSTER_COLS),
      `seed ${seed}: DuckDB with ${JSON.stringify(overrides)}`,
    ).toEqual(decidedLines);
    const decidedRemove = linesOf(decided.remove, REMOVE_COLS);
    expect(
      linesOf(await batchRows(join(out2, 'remove.parquet'), REMOVE_COLS), REMOVE_COLS),
      `seed ${seed}: DuckDB remove list`,
    ).toEqual(decidedRemove);
    const missing = sparkPrerequisites();
    if (missing) throw new Error(`cannot run Spark here: ${missing} (.ci/run installs it)`);
    runSparkJoin(ensureSparkEnv(), DRIVER, out2);
    expect(
      linesOf(
        await batchRows(join(out2, 'spark', 'clusters.parquet', '*.parquet'), CLUSTER_COLS),
        CLUSTER_COLS,
      ),
      `seed ${seed}: Spark`,
    ).toEqual(decidedLines);
    expect(
      linesOf(await batchRows(join(out2, 'spark', 'remove.parquet', '*.parquet'), REMOVE_COLS), REMOVE_COLS),
      `seed ${seed}: Spark remove list`,
    ).toEqual(decidedRemove);
  }, 300_000);
});
