/**
 * `npm run analyze -- FILE… [options]` (`--help` lists them with their defaults).
 * Ingests a crawl (one file, many files, a folder or a WACZ, read as one dataset) in Node with the
 * same core as the browser and prints a summary.
 */
import { dustRecordOf } from '../core/dust/from-page';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { argsOrExit } from './args';
import { ANALYZE } from './analyze-args';
import {
  clustersExport,
  dustOutputs,
  dustReport,
  dustResultReport,
  formatSummary,
  signatureReport,
} from './analyze-reports';
import { InlinkCounter } from '../core/dust/inlinks';
import { fileSource, type FileSource } from './file-source';
import { crawlFiles, fromInvokingFolder, InputError, readTextInput } from './input-paths';
import { nodeNatives } from './natives';
import { partsReader } from './parts';
import { labelReport } from './labels';
import { IngestError } from '../core/ingest/errors';
import { ingestCrawl } from '../core/ingest/many-files';
import { prepareSample, type PreparedSample } from '../core/sample/sample-read';
import { sampleEstimates } from '../core/sample/sample-plan';
import { estimateText, sampleText } from './sample-report';
import { UrlLayer } from '../core/dust/url-layer';
import { dustOnSample } from '../core/dust/sample-dust';
import { layerPartners } from '../core/sample/partner-read';
import type { ChosenColumns } from '../core/types';
import { analysePages, type EnginePage } from '../core/candidates/analyse-pages';
import type { EngineResult } from '../core/candidates/engine-result';
import { ENGINE_DEFAULTS } from '../core/candidates/engine-params';
import { DEFAULT_METHOD, DEFAULT_THRESHOLDS } from '../core/candidates/methods';
import type { CdxjCapture } from '../core/clusters/cdxj';
import { parseKeepPolicy, type Capture } from '../core/clusters/kept';
import { clusterView, DEFAULT_CLUSTERING } from '../core/clusters/view';
import { dedupWarcText, writeCdxj, writeDedupWarc } from './dedup-warc';
import { enginePage } from '../core/candidates/comparable';
import { DUST_DEFAULTS, type DustRecord, type Rule } from '../core/dust';
import { buildProfile } from '../core/profile';
import { classNames } from '../core/dust/representatives';

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
  fromInvokingFolder('analyze');
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
  const warcNorm: string[] = [];
  // What the kept-copy policy reads of each engine page (kept.ts), its canonical URL filled in after DUST.
  const pageInfo: Capture[] = [];
  const pageNorm: string[] = [];
  const archival = args['dedup-warc'] !== null || args.cdxj !== null;
  const warcIndex: number[] = [];
  const dustRecords: DustRecord[] = [];
  const inlinks = new InlinkCounter();
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
          for (const { page, content } of batch) {
            dustRecords.push(dustRecordOf(page, content.text, content.headers));
            inlinks.add(page.normUrl, content.outlinks);
          }
        if (!args.signatures) return;
        for (const { page, content } of batch) {
          // What the kept-copy policy reads; the canonical URL filled in once the DUST rules are mined
          // (every URL its own canonical form without them).
          const capture: Capture = {
            id: page.seq,
            url: page.url,
            status: page.status,
            fetchedAt: page.fetchedAt,
            isCanonical: true,
            canonicalUrl: '',
            textLength: page.textLength,
          };
          if (archival)
            warcPages.push({
              ...capture,
              offset: page.offset,
              digest: page.digest,
              headers: content.headers,
              mime: page.mime,
              recordType: page.recordType,
            });
          if (archival) warcNorm.push(page.normUrl);
          const p = enginePage(page, content);
          if (!p) continue;
          pages.push(p);
          pageNorm.push(page.normUrl);
          pageInfo.push({ ...capture });
          urls.push(page.url);
          pageSeqs.push(page.seq);
          warcIndex.push(warcPages.length - 1);
        }
      },
    );
    console.log(formatSummary(summary));
    const report: Record<string, unknown> = { summary };
    let analysed: { result: EngineResult; keptUrls: string[]; kept: number[]; texts: string[] } | null = null;
    if (args.signatures && pages.length > 1) {
      // Captures of one URL are one page (its first), as in the workbench: indexes follow `kept`.
      const { result, kept, texts } = analysePages(pages);
      const keptUrls = kept.map((k) => urls[k]);
      analysed = { result, keptUrls, kept, texts };
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
      if (args.labels) {
        const out = args.labels.replace(/\.(json|csv)$/i, '') + '.curves.csv';
        const ev = labelReport(result, keptUrls, labels ?? '', args.labels, out);
        console.log(ev.text);
        report.labels = ev.json;
      }
    }
    let rules: Rule[] | null = null;
    let canonical: ReadonlyMap<string, string> | null = null;
    let ruleForm: ReadonlyMap<string, string> | null = null;
    if (args.dust) {
      for (const r of dustRecords) r.inlinks = inlinks.of(r.url);
      // A sample's rules are mined on its URL layer (every HTML capture of the index) and validated on
      // its pages, as in the workbench.
      // The partners of sampled URLs are read by byte range from the same files (dust/sample-dust.ts).
      let dust: ReturnType<typeof dustReport>;
      if (sample) {
        const t = performance.now();
        const urlLayer = new UrlLayer();
        for (const chunk of layer) urlLayer.add(chunk);
        const layerFiles = sample.info.layerFiles;
        const on = await dustOnSample(
          urlLayer.records,
          dustRecords,
          { ...DUST_DEFAULTS },
          layerFiles && urlLayer.hasPlaces
            ? layerPartners(urlLayer, layerFiles, sources, { natives: nodeNatives })
            : { missing: 'no-places' },
        );
        dust = dustResultReport(on.result, performance.now() - t, on.partners);
      } else dust = dustReport(dustRecords);
      console.log(dust.text);
      report.dust = dust.json;
      rules = dust.result.rules;
      canonical = dust.result.canonical;
      ruleForm = dust.result.ruleForm;
      for (const [file, text] of dustOutputs(dust.result, {
        rules: args['dust-rules'],
        canonical: args.canonical,
      })) {
        writeFileSync(file, text);
        console.log(`dust        written to ${file}`);
      }
    } else if (args['dust-rules'] || args.canonical) {
      throw new Error('--dust-rules and --canonical need the DUST rules (no --no-dust)');
    }
    // The kept-copy policy given (the default: the workbench's).
    const policy = {
      keep: parseKeepPolicy(args.keep.split(','), '--keep'),
      losesText: args['loses-text'],
      removeLosing: args['remove-losing'],
    };
    // The copy kept reads each page's DUST canonical URL (every URL its own without rules), as in the
    // workbench.
    const canonicalOf = (norm: string) => canonical?.get(norm) ?? norm;
    pageInfo.forEach((c, i) => {
      c.canonicalUrl = canonicalOf(pageNorm[i]);
      c.isCanonical = !canonical || c.canonicalUrl === pageNorm[i];
    });
    warcPages.forEach((c, i) => {
      c.canonicalUrl = canonicalOf(warcNorm[i]);
      c.isCanonical = !canonical || c.canonicalUrl === warcNorm[i];
    });
    if (analysed && archival) {
      const { result, kept } = analysed;
      const view = clusterView(result, DEFAULT_METHOD, DEFAULT_THRESHOLDS, DEFAULT_CLUSTERING);
      const clusters = view.clusters.map((c) => c.members.map((m) => warcIndex[kept[m]]));
      if (args.cdxj) {
        const n = await writeCdxj(sources[0], warcPages, clusters, args.cdxj, policy.keep);
        console.log(`cdxj        ${n.toLocaleString('en-US')} captures written to ${args.cdxj}`);
      }
      if (args['dedup-warc']) {
        const stats = await writeDedupWarc(sources[0], warcPages, clusters, args['dedup-warc'], policy.keep);
        console.log(dedupWarcText(args['dedup-warc'], stats));
        report.dedupWarc = stats;
      }
    }
    if (args.clusters || args['remove-list']) {
      if (!analysed)
        throw new Error(
          '--clusters and --remove-list need the signatures (two pages or more, no --no-signatures)',
        );
      const dataset = sources.map((x) => x.name).join(', ');
      const info = analysed.kept.map((k) => pageInfo[k]);
      for (const [out, what] of [
        [args.clusters, 'clusters'],
        [args['remove-list'], 'remove list'],
      ] as const) {
        if (!out) continue;
        writeFileSync(
          out,
          clustersExport(
            analysed.result,
            analysed.keptUrls,
            canonical,
            dataset,
            out,
            (i) => info[i],
            what,
            analysed.texts,
            policy,
          ),
        );
        console.log(`${what.padEnd(11)} written to ${out}`);
      }
    }
    if (args['profile-out']) {
      const profile = buildProfile({
        dataset: sources.map((x) => x.name).join(', '),
        pages: summary.pages,
        method: DEFAULT_METHOD,
        thresholds: DEFAULT_THRESHOLDS,
        clustering: DEFAULT_CLUSTERING,
        ...policy,
        engine: ENGINE_DEFAULTS,
        dust: rules && {
          site: DUST_DEFAULTS.site,
          maxIterations: DUST_DEFAULTS.maxIterations,
          rules,
          names: classNames(canonical ?? [], ruleForm ?? new Map()),
        },
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

// Run only as a script, not when imported.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
