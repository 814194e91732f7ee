/**
 * `npm run analyze -- FILE [--json OUT] [--base URL]`
 * Ingests a crawl file in Node with the same core as the browser and prints a summary.
 */
import { emptyReason } from '../core/ingest/outcome';
import { dustRecordOf } from '../core/dust/from-page';
import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { labelReport } from './labels';
import { basename } from 'node:path';
import { IngestError } from '../core/ingest/errors';
import { ingest } from '../core/ingest/pipeline';
import type { IngestSummary } from '../core/types';
import { SignatureEngine, type EngineResult } from '../core/candidates/engine';
import { DEFAULT_METHOD, DEFAULT_THRESHOLDS, METHOD_LABELS, type MethodId } from '../core/candidates/methods';
import { methodThresholds } from '../core/clusters/export';
import { inspectCluster } from '../core/clusters/inspect';
import { CLUSTER_MODE_LABELS, clusterView, DEFAULT_CLUSTERING } from '../core/clusters/view';
import { comparable } from '../core/candidates/comparable';
import { ruleSpelling, runDustBuster, type DustRecord } from '../core/dust';

/** DustBuster over the file's URL list: rules with their fate, and the metrics. */
function dustReport(records: DustRecord[]): { text: string; json: unknown } {
  const t = performance.now();
  const r = runDustBuster(records);
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
      `  ${rule.status.padEnd(8)} ${String(rule.likelySimilarSupport).padStart(6)}  ${rule.site}  ${desc}${rule.kind === 'substring' && rule.origin === 'pairs' ? '  (from pairs)' : ''}`,
    );
  }
  return { text: lines.join('\n'), json: { metrics: m, list: r.list, rules: r.rules, cycles: r.cycles } };
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

interface Args {
  file: string;
  json: string | null;
  base: string;
  signatures: boolean;
  dust: boolean;
  labels: string | null;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    file: '',
    json: null,
    base: '',
    signatures: true,
    dust: true,
    labels: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--json') a.json = argv[++i] ?? '';
    else if (x === '--base') a.base = argv[++i] ?? '';
    // Whole-file gzip is read by default now; the old flag is accepted so existing scripts still run.
    else if (x === '--whole-file-gzip') continue;
    else if (x === '--no-signatures') a.signatures = false;
    else if (x === '--no-dust') a.dust = false;
    else if (x === '--labels') a.labels = argv[++i] ?? '';
    else if (x === '-h' || x === '--help') {
      console.log(
        'usage: npm run analyze -- FILE [--json OUT] [--base URL] [--no-signatures] [--no-dust] [--labels FILE]',
      );
      process.exit(0);
    } else if (!a.file) a.file = x;
    else throw new Error(`unexpected argument ${x}`);
  }
  if (!a.file)
    throw new Error(
      'usage: npm run analyze -- FILE [--json OUT] [--base URL] [--no-signatures] [--no-dust] [--labels FILE]',
    );
  return a;
}

export function formatSummary(s: IngestSummary): string {
  const lines = [
    `file      ${s.fileName}`,
    `format    ${s.format}${s.compressed ? ' (gzip)' : ''}`,
    `bytes     ${s.bytes.toLocaleString('en-US')}${s.compressed ? ` (${s.bytesDecoded.toLocaleString('en-US')} uncompressed)` : ''}`,
    `records   ${Object.entries(s.recordsByType)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `pages     ${s.pages.toLocaleString('en-US')}`,
    `hosts     ${s.hosts.toLocaleString('en-US')}`,
  ];
  const skipped = Object.entries(s.skipped);
  if (skipped.length) {
    lines.push('skipped');
    for (const [reason, n] of skipped) lines.push(`  ${String(n).padStart(8)}  ${reason}`);
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

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const st = statSync(args.file);
  if (st.isDirectory()) {
    console.error(
      `error: ${args.file} is a directory: give a crawl file (WARC, ARC, log, JSONL, CSV or URL list)`,
    );
    return 1;
  }
  const size = st.size;
  const engine = new SignatureEngine();
  const urls: string[] = [];
  const dustRecords: DustRecord[] = [];
  try {
    const summary = await ingest(
      createReadStream(args.file, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>,
      {
        fileName: basename(args.file),
        totalBytes: size,
        baseUrl: args.base,
      },
      async (batch) => {
        for (const { page, content } of batch)
          dustRecords.push(dustRecordOf(page, content.text, content.headers));
        if (!args.signatures) return;
        for (const { page, content } of batch) {
          if (!comparable(page) || !content.text) continue;
          engine.add({
            text: content.text,
            normUrl: page.normUrl,
            outlinks: content.outlinks,
            fingerprint: page.fingerprint,
          });
          urls.push(page.url);
        }
      },
    );
    console.log(formatSummary(summary));
    const report: Record<string, unknown> = { summary };
    if (args.signatures && engine.count > 1) {
      const result = engine.finish();
      const sig = signatureReport(result, urls);
      console.log(sig.text);
      report.signatures = sig.json;
      if (args.labels) {
        const out = args.labels.replace(/\.(json|csv)$/i, '') + '.curves.csv';
        const ev = labelReport(result, urls, readFileSync(args.labels, 'utf8'), args.labels, out);
        console.log(ev.text);
        report.labels = ev.json;
      }
    }
    if (args.dust) {
      const dust = dustReport(dustRecords);
      console.log(dust.text);
      report.dust = dust.json;
    }
    if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2));
    return summary.error ? 2 : 0;
  } catch (e) {
    if (e instanceof IngestError) {
      console.error(`error: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
