/**
 * What an analyst carries out of DustBuster, written alike by the workbench and the CLI: the crawler
 * regex file (regex-normalize.xml), the URL → canonical URL table, and the rules as JSON.
 */
import { surt } from '../url/surt';
import { nutchRegexXml, passesNeeded, renamedAsRegex, rulesAsRegex } from './regex-export';
import { ruleSpelling } from './rules';
import type { DustParams, Rule } from './types';
import type { DustMetrics } from './metrics';

/** The parts of a run the outputs read (DustResult and the stored run both carry them). */
export interface DustOutputSource {
  params: DustParams;
  rules: readonly Rule[];
  /** URL → canonical URL where they differ (or every URL). */
  canonical: Iterable<readonly [string, string]>;
  /** URL → the rules' form where they differ (§5.4); absent in runs stored before it was kept. */
  ruleForm?: Iterable<readonly [string, string]>;
  /** The file's last part (regex-export.ts fileFixes): the rules' answer → the canonical URL. */
  renamed?: readonly (readonly [string, string])[];
  /** Canonical URLs no member of whose class the crawl fetched with a 2xx. */
  unfetched?: readonly string[];
}

/**
 * Nutch / StormCrawler regex-normalize.xml: the applied rules, each guarded by its site and scope,
 * repeated as many passes as the crawl's URLs need, then, by name, where the rules alone leave a
 * crawled URL elsewhere (fileFixes). One pass gives every crawled URL the workbench's canonical URL.
 */
export function crawlerRegexFile(run: DustOutputSource): string {
  const list = rulesAsRegex(run.rules, run.params.site);
  const forms = [...(run.ruleForm ?? run.canonical)] as [string, string][];
  return nutchRegexXml(
    list,
    passesNeeded(list, forms),
    renamedAsRegex((run.renamed ?? []) as [string, string][]),
  );
}

/**
 * The URL → canonical URL table: each URL, its canonical URL (a URL the crawl fetched, or flagged
 * when no URL of its class was), the form the rules alone give (§5.4), and both as SURTs.
 */
export function canonicalTable(run: DustOutputSource): string[][] {
  const forms = new Map(run.ruleForm ?? []);
  const unfetched = new Set(run.unfetched ?? []);
  const rows: string[][] = [['url', 'surt', 'canonical', 'canonical_surt', 'canonical_fetched', 'rule_form']];
  for (const [u, c] of run.canonical)
    rows.push([u, surt(u), c, surt(c), unfetched.has(c) ? 'no' : 'yes', forms.get(u) ?? c]);
  return rows;
}

/** The rules as JSON: one spelling (the table's), the run's parameters, metrics and per-rule counts. */
export function rulesJson(
  run: DustOutputSource & { metrics: DustMetrics; list: unknown },
  saved: Readonly<Record<number, number>>,
  only: Readonly<Record<number, number>> = {},
  source: unknown = null,
): unknown {
  return {
    ...(source ? { source } : {}),
    params: run.params,
    metrics: run.metrics,
    list: run.list,
    rules: run.rules.map((r) => ({
      rule: ruleSpelling(r),
      ...r,
      saved: saved[r.id] ?? null,
      adds: only[r.id] ?? null,
    })),
  };
}
