/** What `npm run analyze` prints: the ingest summary, the signatures per method and DustBuster's rules. */
import { lostByShingles } from '../core/clusters/loses-text';
import { removeCsv } from '../core/clusters/dedup-export';
import type { Capture, KeepKey } from '../core/clusters/kept';
import { emptyReason } from '../core/ingest/outcome';
import { describeDigests } from '../core/ingest/digest-report';
import type { FetchFn } from '../core/dust/types';
import type { IngestSummary } from '../core/types';
import type { EngineResult } from '../core/candidates/engine-result';
import { DEFAULT_METHOD, DEFAULT_THRESHOLDS, METHOD_LABELS, type MethodId } from '../core/candidates/methods';
import {
  clusterParameters,
  clustersCsv,
  clustersJson,
  methodThresholds,
  type ClusterExportInput,
} from '../core/clusters/export';
import { ENGINE_DEFAULTS } from '../core/candidates/engine-params';
import { normaliseUrl } from '../core/url/normalize';
import { inspectCluster } from '../core/clusters/inspect';
import { CLUSTER_MODE_LABELS, clusterView, DEFAULT_CLUSTERING } from '../core/clusters/view';
import { DUST_DEFAULTS, ruleSpelling, runDustBuster, type DustRecord, type DustResult } from '../core/dust';
import { canonicalTable, crawlerRegexFile, rulesJson } from '../core/dust/outputs';
import { urlsOnlyBy, urlsSaved } from '../core/dust/saved';
import { formatDelimited } from '../core/csv';
import type { PartnerReport } from '../core/dust/sample-dust';

/** DustBuster over the file's URL list: rules with their fate, and the metrics. */
export function dustReport(
  records: DustRecord[],
  fetch?: FetchFn,
): { text: string; json: unknown; result: DustResult } {
  const t = performance.now();
  const r = runDustBuster(records, {}, fetch);
  return dustResultReport(r, performance.now() - t);
}

/**
 * A run's report; on a sample (`partners`, dust/sample-dust.ts) with the partners read and the likely
 * rules said for what they are: not validated, k of n instances in the sample.
 */
export function dustResultReport(
  r: DustResult,
  ms: number,
  partners?: PartnerReport,
): { text: string; json: unknown; result: DustResult } {
  const m = r.metrics;
  const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
  const lines = [
    `dust        ${r.list.urls} URLs (${r.list.split ? `${r.list.detection} detection, ${r.list.validation} held out for validation` : 'not split: detection and validation read the whole list'}; ${r.list.redirects} redirects read as their targets), ${(ms / 1000).toFixed(2)} s`,
    `            rules ${m.detected} detected → ${m.afterRedundancy} after redundancy elimination (+${m.paramRules} parameter, +${m.pairRules} from pairs) → ${m.valid} valid, ${m.refuted} refuted, ${m.likely} likely`,
    `            precision@10 ${m.precision.length >= 10 ? pct(m.precision[9]) : '–'}, discovered redundancy ${pct(m.redundancy.value)}, coverage ${pct(m.coverage.value)}`,
  ];
  if (partners) lines.push(`            ${partnersText(partners)}`);
  // On a sample, rules not validated are listed after the others (the workbench hides them by default).
  const listed = partners
    ? [...r.rules.filter((x) => !x.sample), ...r.rules.filter((x) => x.sample)]
    : r.rules;
  for (const rule of listed.slice(0, 20)) {
    const desc = ruleSpelling(rule);
    const status = rule.sample ? 'not validated' : rule.status;
    lines.push(
      `  ${status.padEnd(8)} ${String(rule.likelySimilarSupport).padStart(6)}  ${rule.site}  ${desc}${rule.kind === 'substring' && rule.origin && rule.origin !== 'envelopes' ? `  (${rule.origin === 'pairs' ? 'from pairs' : rule.origin})` : ''}${rule.absorbs ? `  absorbs ${rule.absorbs.count}` : ''}${rule.sample ? `  (${rule.sample.instances ? `${rule.sample.inSample} of ${rule.sample.instances} instances in the sample` : 'no instance in the crawl’s URLs'})` : ''}`,
    );
  }
  // The JSON spells each rule as the report and the UI do (core ruleSpelling), beside its token runs.
  const rules = r.rules.map((rule) => ({ rule: ruleSpelling(rule), ...rule }));
  const fetched = r.canonical.size - [...r.canonical.values()].filter((c) => r.unfetched.includes(c)).length;
  lines.splice(
    3,
    0,
    `            canonical URLs fetched for ${pct(r.canonical.size === 0 ? null : fetched / r.canonical.size)} of the URLs; ${r.renamedClasses} classes named by a fetched URL other than their rule form`,
  );
  return {
    text: lines.join('\n'),
    json: { metrics: m, list: r.list, rules, cycles: r.cycles, ...(partners ? { partners } : {}) },
    result: r,
  };
}

/**
 * The DUST outputs the workbench exports, written by the CLI: the rules (JSON), or the crawler regex
 * file when the name ends in .xml; the URL → canonical URL table (CSV).
 */
export function dustOutputs(
  r: DustResult,
  out: { rules: string | null; canonical: string | null },
): Map<string, string> {
  const files = new Map<string, string>();
  const run = { ...r, params: DUST_DEFAULTS, canonical: [...r.canonical].filter(([u, c]) => u !== c) };
  if (out.rules) {
    const urls = [...r.canonical.keys()];
    files.set(
      out.rules,
      /\.xml$/i.test(out.rules)
        ? crawlerRegexFile(run)
        : JSON.stringify(
            rulesJson(
              { ...run, metrics: r.metrics, list: r.list },
              urlsSaved(r.rules, urls, r.canonical, DUST_DEFAULTS),
              urlsOnlyBy(r.rules, urls, r.canonical, DUST_DEFAULTS),
            ),
            null,
            2,
          ),
    );
  }
  if (out.canonical) files.set(out.canonical, formatDelimited(canonicalTable(run)));
  return files;
}

/**
 * Per method: timings, candidates and clusters at the default thresholds and the default clustering
 * (the same defaults as the workbench, from core); the default method is marked with *.
 */
export function signatureReport(r: EngineResult, urls: string[]): { text: string; json: unknown } {
  const lines = [`signatures  ${r.n} pages, ${r.pairs.count} candidate pairs`];
  lines.push(
    `timings     ${Object.entries(r.timings)
      .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
      .join(', ')}`,
  );
  lines.push(
    `candidates  ${Object.entries(r.candidates)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  lines.push(`clusters    ${CLUSTER_MODE_LABELS[DEFAULT_CLUSTERING]}; * the workbench's default method`);
  const methods: Record<string, unknown> = {};
  for (const m of Object.keys(METHOD_LABELS) as MethodId[]) {
    const view = clusterView(r, m, DEFAULT_THRESHOLDS, DEFAULT_CLUSTERING);
    const chained = view.clusters.filter((c) => inspectCluster(r.pairs, c, view.mask).chained).length;
    lines.push(
      `${m === DEFAULT_METHOD ? '* ' : '  '}${METHOD_LABELS[m].padEnd(34)} ${String(view.accepted).padStart(7)} pairs  ${String(view.clusters.length).padStart(6)} clusters  ${String(view.pages).padStart(7)} pages  ${String(chained).padStart(5)} chained`,
    );
    methods[m] = {
      default: m === DEFAULT_METHOD,
      thresholds: methodThresholds(m, DEFAULT_THRESHOLDS),
      clustering: DEFAULT_CLUSTERING,
      pairs: view.accepted,
      chained,
      clusters: view.clusters.map((c) => c.members.map((i) => urls[i])),
    };
  }
  return {
    text: lines.join('\n'),
    json: {
      pages: r.n,
      pairs: r.pairs.count,
      timings: r.timings,
      candidates: r.candidates,
      bands: r.bands,
      methods,
    },
  };
}

/**
 * The default method's clusters as the workbench's "Export clusters" writes them (core/clusters/export.ts:
 * one shape for both), JSON or CSV by the file's name; canonical URLs from the DUST rules when mined.
 */
export function clustersExport(
  r: EngineResult,
  urls: string[],
  canonical: ReadonlyMap<string, string> | null,
  dataset: string,
  out: string,
  capture: (i: number) => Capture,
  what: 'clusters' | 'remove list' = 'clusters',
  /** The texts the signatures read, by page index: a removed member's text the kept copy lacks. */
  texts?: readonly string[],
  policy: { keep?: readonly KeepKey[]; losesText?: number; removeLosing?: boolean } = {},
): string {
  const view = clusterView(r, DEFAULT_METHOD, DEFAULT_THRESHOLDS, DEFAULT_CLUSTERING);
  const canonicalOf = (i: number) => {
    const u = normaliseUrl(urls[i]).href;
    return canonical?.get(u) ?? u;
  };
  const input: ClusterExportInput = {
    clusters: view.clusters,
    url: (i) => urls[i],
    canonical: canonical ? canonicalOf : null,
    method: DEFAULT_METHOD,
    mode: DEFAULT_CLUSTERING,
    thresholds: DEFAULT_THRESHOLDS,
    capture,
    ...policy,
    ...(texts ? { lost: lostByShingles(texts, ENGINE_DEFAULTS.shingles) } : {}),
    source: {
      app: 'dedup-workbench analyze',
      dataset,
      pages: urls.length,
      exported: new Date().toISOString(),
      parameters: clusterParameters(DEFAULT_METHOD, DEFAULT_THRESHOLDS, DEFAULT_CLUSTERING, ENGINE_DEFAULTS),
    },
  };
  if (what === 'remove list') return removeCsv(input);
  return /\.csv$/i.test(out) ? clustersCsv(input) : clustersJson(input);
}

export function formatSummary(s: IngestSummary): string {
  const lines = [
    `file      ${s.fileName}`,
    `format    ${s.format}${s.compressed ? ` (${s.compression ?? 'gzip'})` : ''}`,
    `bytes     ${s.bytes.toLocaleString('en-US')}${s.compressed ? ` (${s.bytesDecoded.toLocaleString('en-US')} uncompressed)` : ''}`,
    `records   ${Object.entries(s.recordsByType)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `pages     ${s.pages.toLocaleString('en-US')}`,
    `hosts     ${s.hosts.toLocaleString('en-US')}`,
  ];
  const statuses = Object.entries(s.statusCounts ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  if (statuses.length) lines.push(`status    ${statuses.map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (s.pageList)
    lines.push(`page list ${s.pageList.listed} listed in pages.jsonl, ${s.pageList.found} read as pages`);
  if (s.sources && (s.sources.length > 1 || s.sources.some((x) => x.format === null))) {
    lines.push(`files     ${s.sources.length}`);
    for (const x of s.sources) {
      const what =
        x.format === null
          ? 'skipped'
          : `${x.format}${x.compressed ? ` (${x.compression ?? 'gzip'})` : ''}, ${x.pages} pages`;
      lines.push(`  ${x.name}: ${what}${x.warningCount ? `, ${x.warningCount} problems` : ''}`);
      if (x.error) lines.push(`    ${x.error.message}`);
    }
  }
  const skipped = Object.entries(s.skipped);
  if (skipped.length) {
    lines.push('skipped');
    for (const [reason, n] of skipped) lines.push(`  ${String(n).padStart(8)}  ${reason}`);
  }
  if (s.digests) {
    lines.push(`digests   ${describeDigests(s.digests)}`);
    for (const m of s.digests.mismatches.slice(0, 10))
      lines.push(
        `  ${m.field.padEnd(7)} at byte ${m.offset.toLocaleString('en-US')}${m.fileName !== s.fileName ? ` of ${m.fileName}` : ''}  ${m.url || `(${m.recordType})`}: ${m.stated} stated, ${m.computed} computed`,
      );
  }
  if (s.warningCount) {
    lines.push(`warnings  ${s.warningCount}`);
    for (const w of s.warnings.slice(0, 10)) lines.push(`  ${w.message}`);
  }
  if (s.error) lines.push(`PARTIAL   ${s.error.message}`);
  const empty = emptyReason(s);
  if (empty) lines.push(`EMPTY     ${empty}`);
  lines.push(`time      ${(s.elapsedMs / 1000).toFixed(2)} s`);
  return lines.join('\n');
}

/** The partner read in a line (the workbench says the same in the DUST pane). */
export function partnersText(p: PartnerReport): string {
  const not = `${p.likelyBefore} rules not validated on the sampled pages alone`;
  if (p.state === 'none')
    return `partners    none to read: ${not}, and none has an instance with one URL in the sample`;
  if (p.state !== 'read')
    return `partners    ${p.asked} to read for ${p.rules} rules, not read: ${p.state === 'no-files' ? 'the crawl’s files are not at hand' : 'the URL layer gives no places (read the sample again)'}`;
  return `partners    ${p.read} of ${p.asked} read by byte range for ${p.rules} of the ${not} (${(p.bytes / 1e6).toFixed(1)} MB in ${p.ranges} ranges, ${(p.ms / 1000).toFixed(2)} s; at most ${p.caps.perRule} a rule, ${p.caps.records} in all${p.capped ? `: capped, ${p.wanted} asked for` : ''}); validation samples judged ${p.judgedBefore} → ${p.judgedAfter}`;
}
