/**
 * `npm run analyze -- FILE… [options]` (`--help` lists them with their defaults).
 * Ingests a crawl (one file, many files, a folder or a WACZ, read as one dataset) in Node with the
 * same core as the browser and prints a summary.
 */
import { emptyReason } from '../core/ingest/outcome';
import { describeDigests } from '../core/ingest/digest-report';
import { dustRecordOf } from '../core/dust/from-page';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { argsOrExit } from './args';
import { ANALYZE } from './analyze-args';
import { fileSource, type FileSource } from './file-source';
import { crawlFiles, InputError, readTextInput } from './input-paths';
import { nodeNatives } from './natives';
import { partsReader } from './parts';
import { labelReport } from './labels';
import { IngestError } from '../core/ingest/errors';
import { ingestCrawl } from '../core/ingest/many-files';
import { prepareSample, type PreparedSample } from '../core/ingest/sample-read';
import { sampleEstimates } from '../core/ingest/sample-plan';
import { estimateText, sampleText } from './sample-report';
import { layerRecords } from '../core/dust/url-layer';
import { buildUrlList } from '../core/dust/url-list';
import type { FetchFn } from '../core/dust/types';
import type { ChosenColumns, IngestSummary } from '../core/types';
import { analysePages, ENGINE_DEFAULTS, type EnginePage, type EngineResult } from '../core/candidates/engine';
import { DEFAULT_METHOD, DEFAULT_THRESHOLDS, METHOD_LABELS, type MethodId } from '../core/candidates/methods';
import type { CdxjCapture } from '../core/clusters/cdxj';
import { methodThresholds } from '../core/clusters/export';
import { inspectCluster } from '../core/clusters/inspect';
import { CLUSTER_MODE_LABELS, clusterView, DEFAULT_CLUSTERING } from '../core/clusters/view';
import { dedupWarcText, writeCdxj, writeDedupWarc } from './dedup-warc';
import { enginePage } from '../core/candidates/comparable';
import {
  datasetFetch,
  DUST_DEFAULTS,
  ruleSpelling,
  runDustBuster,
  type DustRecord,
  type Rule,
} from '../core/dust';
import { buildProfile } from '../core/profile';

/** DustBuster over the file's URL list: rules with their fate, and the metrics. */
function dustReport(records: DustRecord[], fetch?: FetchFn): { text: string; json: unknown; rules: Rule[] } {
  const t = performance.now();
  const r = runDustBuster(records, {}, fetch);
  const m = r.metrics;
  const pct = (x: number | null) => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
  const lines = [
    `dust        ${r.list.urls} URLs (${r.list.split ? `${r.list.detection} detection, ${r.list.validation} held out for validation` : 'not split: detection and validation read the whole list'}; ${r.list.redirects} redirects read as their targets), ${((performance.now() - t) / 1000).toFixed(2)} s`,
    `            rules ${m.detected} detected → ${m.afterRedundancy} after redundancy elimination (+${m.paramRules} parameter, +${m.pairRules} from pairs) → ${m.valid} valid, ${m.refuted} refuted, ${m.likely} likely`,
    `            precision@10 ${m.precision.length >= 10 ? pct(m.precision[9]) : '–'}, discovered redundancy ${pct(m.redundancy.value)}, coverage ${pct(m.coverage.value)}`,
  ];
  for (const rule of r.rules.slice(0, 20)) {
    const desc = ruleSpelling(rule);
    lines.push(
      `  ${rule.status.padEnd(8)} ${String(rule.likelySimilarSupport).padStart(6)}  ${rule.site}  ${desc}${rule.kind === 'substring' && rule.origin && rule.origin !== 'envelopes' ? `  (${rule.origin === 'pairs' ? 'from pairs' : rule.origin})` : ''}${rule.absorbs ? `  absorbs ${rule.absorbs.count}` : ''}`,
    );
  }
  // The JSON spells each rule as the report and the UI do (core ruleSpelling), beside its token runs.
  const rules = r.rules.map((rule) => ({ rule: ruleSpelling(rule), ...rule }));
  return {
    text: lines.join('\n'),
    json: { metrics: m, list: r.list, rules, cycles: r.cycles },
    rules: r.rules,
  };
}

/**
 * Per method: timings, candidates and clusters at the default thresholds and the default clustering
 * (the same defaults as the workbench, from core); the default method is marked with *.
 */
function signatureReport(r: EngineResult, urls: string[]): { text: string; json: unknown } {
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

/** The Parquet columns chosen on the command line (--url-column with --text-column or --html-column). */
function chosenColumns(a: {
  'url-column': string | null;
  'text-column': string | null;
  'html-column': string | null;
}): ChosenColumns | undefined {
  const body = a['text-column'] ?? a['html-column'];
  if (a['url-column'] === null || body === null) return undefined;
  return { url: a['url-column'], body, kind: a['text-column'] !== null ? 'text' : 'html' };
}

async function main(): Promise<number> {
  const { values, positionals } = argsOrExit(ANALYZE, process.argv.slice(2));
  const args = { ...values, files: positionals };
  // Paths are checked before the (possibly long) ingest, so a mistyped labels path fails at once; each
  // input is stat()ed before it is opened, so a FIFO or a device is refused, never waited on.
  const sources: FileSource[] = [];
  let labels: string | null;
  try {
    labels = args.labels === null ? null : readTextInput(args.labels);
    const walk = crawlFiles(args.files);
    for (const s of walk.skipped) console.error(`note: ${s.path}: ${s.reason}; skipped`);
    if (walk.files.length === 0) {
      console.error(`error: ${args.files.join(', ')}: no files in it`);
      return 1;
    }
    for (const p of walk.files) sources.push(await fileSource(p));
    if ((args['dedup-warc'] || args.cdxj) && (sources.length !== 1 || !args.signatures)) {
      await Promise.all(sources.map((x) => x.close()));
      console.error(
        `error: --dedup-warc and --cdxj read one WARC again: give one WARC file (here ${sources.length})${args.signatures ? '' : ', with signatures'}`,
      );
      return 1;
    }
  } catch (e) {
    await Promise.all(sources.map((x) => x.close()));
    if (e instanceof InputError) {
      console.error(`error: ${e.message}`);
      return 1;
    }
    throw e;
  }
  // A designed sample (--sample): the index read (or built), the design drawn, only its records read.
  let sample: (PreparedSample & { kind: 'ready' }) | null = null;
  const layer: string[] = [];
  if (args.sample > 0) {
    const prepared = await prepareSample(
      sources,
      { budget: args.sample, seed: args.seed },
      { inflate: nodeNatives.inflate, onLayer: async (_k, lines) => void layer.push(lines) },
    );
    if (prepared.kind === 'rejected') {
      await Promise.all(sources.map((x) => x.close()));
      console.error(`error: ${prepared.error.message}`);
      return 1;
    }
    sample = prepared;
    console.log(sampleText(prepared.info));
  }
  // A large WARC is read in parts, one thread each (src/cli/parts.ts); the pages come out as read in order.
  // A sample's ranges are read in order.
  const readUnit = sample
    ? undefined
    : partsReader((unit) => sources.find((x) => x === unit.file)?.path ?? null);
  const samplePages: { seq: number; digest: string; sampleUnit?: number }[] = [];
  // Pages are held until the end: the template model needs every page of a site before any signature.
  const pages: EnginePage[] = [];
  const urls: string[] = [];
  const pageSeqs: number[] = [];
  // For --dedup-warc: every page of the WARC as the plan reads it, and each engine page's index there.
  const warcPages: CdxjCapture[] = [];
  const archival = args['dedup-warc'] !== null || args.cdxj !== null;
  const warcIndex: number[] = [];
  const dustRecords: DustRecord[] = [];
  try {
    const summary = await ingestCrawl(
      sample ? sample.sources : sources,
      { baseUrl: args.base, natives: nodeNatives, readUnit, parquetColumns: chosenColumns(args) },
      async (batch) => {
        if (sample) {
          sample.place(batch);
          for (const { page } of batch)
            samplePages.push({ seq: page.seq, digest: page.digest, sampleUnit: page.sampleUnit });
        }
        // DUST records (with a MinHash sketch of each page's text) only when DUST runs: building them
        // was half the CPU of `analyze --no-signatures --no-dust`.
        if (args.dust)
          for (const { page, content } of batch)
            dustRecords.push(dustRecordOf(page, content.text, content.headers));
        if (!args.signatures) return;
        for (const { page, content } of batch) {
          if (archival)
            warcPages.push({
              id: page.seq,
              url: page.url,
              status: page.status,
              fetchedAt: page.fetchedAt,
              isCanonical: true,
              offset: page.offset,
              digest: page.digest,
              headers: content.headers,
              mime: page.mime,
              recordType: page.recordType,
            });
          const p = enginePage(page, content);
          if (!p) continue;
          pages.push(p);
          urls.push(page.url);
          pageSeqs.push(page.seq);
          warcIndex.push(warcPages.length - 1);
        }
      },
    );
    console.log(formatSummary(summary));
    const report: Record<string, unknown> = { summary };
    if (args.signatures && pages.length > 1) {
      // Captures of one URL are one page (its first), as in the workbench: indexes follow `kept`.
      const { result, kept } = analysePages(pages);
      const keptUrls = kept.map((k) => urls[k]);
      const sig = signatureReport(result, keptUrls);
      console.log(sig.text);
      report.signatures = sig.json;
      if (sample) {
        // The whole crawl from the sample, at the default method's clusters (kept index → page seq).
        const view = clusterView(result, DEFAULT_METHOD, DEFAULT_THRESHOLDS, DEFAULT_CLUSTERING);
        const clusterOf = new Map<number, number>();
        view.clusters.forEach((c, k) => {
          for (const m of c.members) clusterOf.set(pageSeqs[kept[m]], k);
        });
        const est = sampleEstimates(sample.info, samplePages, (seq) => clusterOf.get(seq) ?? null);
        console.log(estimateText(est));
        report.sample = { design: sample.info, estimates: est };
      }
      if (archival) {
        const view = clusterView(result, DEFAULT_METHOD, DEFAULT_THRESHOLDS, DEFAULT_CLUSTERING);
        const clusters = view.clusters.map((c) => c.members.map((m) => warcIndex[kept[m]]));
        if (args.cdxj) {
          const n = await writeCdxj(sources[0], warcPages, clusters, args.cdxj);
          console.log(`cdxj        ${n.toLocaleString('en-US')} captures written to ${args.cdxj}`);
        }
        if (args['dedup-warc']) {
          const stats = await writeDedupWarc(sources[0], warcPages, clusters, args['dedup-warc']);
          console.log(dedupWarcText(args['dedup-warc'], stats));
          report.dedupWarc = stats;
        }
      }
      if (args.labels) {
        const out = args.labels.replace(/\.(json|csv)$/i, '') + '.curves.csv';
        const ev = labelReport(result, keptUrls, labels ?? '', args.labels, out);
        console.log(ev.text);
        report.labels = ev.json;
      }
    }
    let rules: Rule[] | null = null;
    if (args.dust) {
      // A sample's rules are mined on its URL layer (every HTML capture of the index) and validated on
      // its pages, as in the workbench.
      const dust = sample
        ? dustReport(layerRecords(layer.join('\n')), datasetFetch(buildUrlList(dustRecords).urls))
        : dustReport(dustRecords);
      console.log(dust.text);
      report.dust = dust.json;
      rules = dust.rules;
    }
    if (args['profile-out']) {
      const profile = buildProfile({
        dataset: sources.map((x) => x.name).join(', '),
        pages: summary.pages,
        method: DEFAULT_METHOD,
        thresholds: DEFAULT_THRESHOLDS,
        clustering: DEFAULT_CLUSTERING,
        engine: ENGINE_DEFAULTS,
        dust: rules && { site: DUST_DEFAULTS.site, maxIterations: DUST_DEFAULTS.maxIterations, rules },
      });
      writeFileSync(args['profile-out'], JSON.stringify(profile, null, 2));
      console.log(`profile   written to ${args['profile-out']}`);
    }
    if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2));
    return summary.error ? 2 : 0;
  } catch (e) {
    if (e instanceof IngestError) {
      const hint = e.columns
        ? ' (choose them: --url-column NAME with --text-column NAME or --html-column NAME)'
        : '';
      console.error(`error: ${e.message}${hint}`);
      return 1;
    }
    throw e;
  } finally {
    await Promise.all(sources.map((x) => x.close()));
  }
}

// Run only as a script: tests import the formatters.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
