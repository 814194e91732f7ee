/**
 * DUST rules on the docsite crawl against its truth.json: are the rules it lists found and validated?
 * Used by `npm run bench:quality` and runnable alone: `npx tsx test/bench/dust-docsite.ts [DIR]`.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dustRecordOf } from '../../src/core/dust/from-page';
import { ingest } from '../../src/core/ingest/pipeline';
import {
  applyRule,
  ruleSpelling,
  runDustBuster,
  type DustParams,
  type DustRecord,
} from '../../src/core/dust';
import { normaliseUrl } from '../../src/core/url/normalize';

export interface DustTruth {
  dust_rules: { id: string; kind: string; instances: number }[];
  urls: { url: string; variants: string[]; group?: number; canonical: string }[];
}

const norm = (u: string) => normaliseUrl(u).href;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export async function readDustRecords(file: string): Promise<DustRecord[]> {
  const records: DustRecord[] = [];
  await ingest(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    { fileName: 'crawl.warc.gz', totalBytes: statSync(file).size },
    async (batch) => {
      for (const { page, content } of batch) records.push(dustRecordOf(page, content.text, content.headers));
    },
  );
  return records;
}

/** Prints the metrics and, per truth rule, the share of its instances a valid rule explains. */
export function reportDustTruth(
  records: DustRecord[],
  truth: DustTruth,
  label: string,
  options: Partial<DustParams> = {},
): { allFound: boolean } {
  const truthGroup = new Map(
    truth.urls.filter((u) => u.group !== undefined).map((u) => [norm(u.url), u.group]),
  );
  const byGroup = new Map<number, string[]>();
  for (const u of truth.urls)
    if (u.group !== undefined) byGroup.set(u.group, [...(byGroup.get(u.group) ?? []), norm(u.url)]);
  const crawled = new Set(records.map((r) => norm(r.url)));
  const t0 = performance.now();
  const dust = runDustBuster(records, options);
  const m = dust.metrics;
  const pctN = (x: number | null) => (x === null ? '–' : pct(x));
  console.log(`\nDUST rules, ${label} — ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  console.log(
    `  ${m.detected} detected → ${m.afterRedundancy} after redundancy elimination (+${m.paramRules} parameter rules, +${m.pairRules} from pairs, +${m.mergedRules} merged) → ${m.valid} valid (+${m.transferred} on other sites), ${m.refuted} refuted, ${m.likely} likely; ${m.folded} special cases folded, ${dust.rules.length} rules listed`,
  );
  console.log(
    `  precision@10 ${m.precision.length >= 10 ? pct(m.precision[9]) : '–'} · discovered redundancy ${pctN(m.redundancy.value)} (${m.redundancy.before} → ${m.redundancy.after} URLs) · coverage ${pctN(m.coverage.value)} (${m.coverage.before} → ${m.coverage.after} duplicate URLs)`,
  );
  const valid = dust.rules.filter((r) => r.status === 'valid');
  let allFound = true;
  for (const tr of truth.dust_rules) {
    const entries = truth.urls.filter((u) => u.variants.includes(tr.id) && u.group !== undefined);
    const inst = entries.map((u) => norm(u.url));
    // Found directly: one valid rule relates the instance to another crawled URL of its duplicate group,
    // in either direction (DustBuster picks its own: /a/N → story_N or story_N → /a/N). Found: the
    // valid rules together (canonisation) send it and a crawled URL of its group to one URL.
    const c = (x: string) => dust.canonical.get(x) ?? x;
    let explained = 0;
    let direct = 0;
    const used = new Map<string, number>();
    for (const u of inst) {
      const group = (byGroup.get(truthGroup.get(u)!) ?? []).filter((x) => x !== u && crawled.has(x));
      const r = valid.find((v) => {
        const w = applyRule(v, u);
        if (w !== null && w !== u && truthGroup.get(norm(w)) === truthGroup.get(u)) return true;
        return group.some((x) => applyRule(v, x) === u);
      });
      if (r) direct++;
      if (r || group.some((x) => c(x) === c(u))) explained++;
      if (r) {
        const name = ruleSpelling(r);
        used.set(name, (used.get(name) ?? 0) + 1);
      }
    }
    if (explained < 0.9 * inst.length) allFound = false;
    // Merged: canonisation sends the instance and its truth canonical URL to the same URL.
    const targets = entries.filter(
      (e) => crawled.has(norm(e.canonical)) && norm(e.canonical) !== norm(e.url),
    );
    const canon = targets.filter((e) => c(norm(e.url)) === c(norm(e.canonical))).length;
    const top = [...used].sort((a, b) => b[1] - a[1]).slice(0, 2);
    console.log(
      `  ${tr.id.padEnd(14)} found for ${inst.length ? pct(explained / inst.length).padStart(6) : '     –'} of ${String(inst.length).padStart(3)} instances (one rule: ${pct(direct / Math.max(1, inst.length))}); canonisation merges ${pct(canon / Math.max(1, targets.length))} of the ${targets.length} whose canonical URL was crawled${top.length ? `  by ${top.map(([n, k]) => `${n} (${k})`).join(', ')}` : ''}`,
    );
  }
  return { allFound };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = resolve(process.argv[2] ?? join(import.meta.dirname, '../../../shared/datasets/docsite'));
  if (!existsSync(join(dir, 'truth.json'))) {
    console.error(`no truth.json in ${dir}`);
    process.exit(1);
  }
  const truth = JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')) as DustTruth;
  const records = await readDustRecords(join(dir, 'crawl.warc.gz'));
  reportDustTruth(records, truth, 'sites by registrable domain (the default)');
  reportDustTruth(records, truth, 'sites by host (name and port)', { site: 'host' });
}
