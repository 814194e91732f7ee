import type { CommandSpec } from './args';
import { DEFAULT_KEEP, KEEP_KEYS, parseKeepPolicy } from '../core/clusters/kept';
import { LOSES_TEXT_DEFAULT } from '../core/clusters/loses-text';

/**
 * The options table: parser, defaults and `--help` come from it (src/cli/args.ts). A new option is one
 * entry here, then read as `args.NAME` in main (analyze.ts).
 */
export const ANALYZE = {
  name: 'analyze',
  summary:
    'Ingests a crawl in Node with the same core as the browser and prints a summary: format, records\n' +
    'by type, pages, hosts, what was skipped and why; then signatures and clusters per method at the\n' +
    "workbench's defaults, and DustBuster's rules and metrics. Several files, a folder (read recursively)\n" +
    'or a WACZ are ONE crawl: read in turn into one dataset, each file with its own problems.',
  positionals: {
    name: 'FILE',
    help: 'crawl files or folders: WARC or ARC (gzipped or not), WACZ, access log, crawl log, JSONL, CSV or URL list',
    min: 1,
    max: Infinity,
  },
  options: {
    json: {
      type: 'string',
      arg: 'OUT',
      default: null,
      help: "write the whole report (with the clusters' URLs) as JSON to OUT",
    },
    'url-column': {
      type: 'string',
      arg: 'NAME',
      default: null,
      help: "a Parquet table's URL (or id) column, when its name is not one the reader knows",
    },
    'text-column': {
      type: 'string',
      arg: 'NAME',
      default: null,
      help: "a Parquet table's text column (with --url-column)",
    },
    'html-column': {
      type: 'string',
      arg: 'NAME',
      default: null,
      help: "a Parquet table's HTML column (with --url-column), its text extracted",
    },
    cdxj: {
      type: 'string',
      arg: 'OUT.cdxj',
      default: null,
      help:
        "write a CDXJ index of the crawl's WARC (pywb's fields, each record's offset and length) with\n" +
        "each capture's duplicate status in the default method's clusters; one WARC input",
    },
    'dedup-warc': {
      type: 'string',
      arg: 'OUT.warc.gz',
      default: null,
      help:
        "write the crawl's WARC again with each duplicate capture (the default method's clusters, the\n" +
        'payload digest of the copy kept) as a WARC/1.1 revisit of that copy; one WARC input',
    },
    clusters: {
      type: 'string',
      arg: 'OUT.json|OUT.csv',
      default: null,
      help:
        'write the default method\'s clusters as the workbench\'s "Export clusters" writes them (every\n' +
        'member with its SURT, and its canonical URL when DUST rules were mined), JSON or CSV by the name',
    },
    keep: {
      type: 'string',
      arg: 'KEYS',
      default: DEFAULT_KEEP.join(','),
      check: (v) => {
        try {
          parseKeepPolicy(v.split(','), '--keep');
          return null;
        } catch {
          return `the kept-copy policy's keys in order, comma-separated, from ${KEEP_KEYS.join(', ')}`;
        }
      },
      help:
        'the kept-copy policy of --clusters, --remove-list, --dedup-warc, --cdxj and --profile-out, its keys\n' +
        'in the order they apply (the workbench\'s "Copy kept in each cluster, by")',
    },
    'loses-text': {
      type: 'number',
      arg: 'SHARE',
      default: LOSES_TEXT_DEFAULT,
      min: 0,
      max: 1,
      help: 'a removed copy whose shingles its kept copy lacks beyond this share is flagged loses_text',
    },
    'remove-losing': {
      type: 'boolean',
      default: false,
      help: 'list copies flagged loses_text in the remove list all the same (by default they stay)',
    },
    'remove-list': {
      type: 'string',
      arg: 'OUT.csv',
      default: null,
      help:
        "write the default method's remove list as the workbench writes it: every clustered page but the\n" +
        'copy kept, with the cluster (named as in --clusters), the kept copy and the reason it is kept',
    },
    'dust-rules': {
      type: 'string',
      arg: 'OUT.json|OUT.xml',
      default: null,
      help:
        'write the DUST rules as the workbench exports them: JSON, or by a name ending in .xml the\n' +
        "crawler regex file (Nutch's / StormCrawler's regex-normalize.xml)",
    },
    canonical: {
      type: 'string',
      arg: 'OUT.csv',
      default: null,
      help:
        'write every URL a rule rewrites with its canonical URL (a URL the crawl fetched, or flagged),\n' +
        'the rules\' form and both SURTs, as the workbench\'s "Export canonical URLs"',
    },
    'profile-out': {
      type: 'string',
      arg: 'P.json',
      default: null,
      help:
        'write the dedup profile of what ran (the defaults, and the valid DUST rules when mined): what\n' +
        '`npm run batch -- --profile P.json` applies to a whole crawl',
    },
    sample: {
      type: 'number',
      arg: 'PAGES',
      default: 0,
      min: 0,
      integer: true,
      help:
        'read a designed sample of about PAGES pages, by byte ranges, from the index given among the\n' +
        "files (CDX/CDXJ, a WACZ's) or built from the WARCs; print the whole crawl's estimates",
      defaultText: 'no sample: every record',
    },
    seed: {
      type: 'number',
      arg: 'N',
      default: 1,
      min: 0,
      integer: true,
      help: "the sample's seed (with --sample)",
    },
    base: {
      type: 'string',
      arg: 'URL',
      default: '',
      help: 'site for access logs, whose lines carry paths only',
      defaultText: 'none: inferred from the referers',
    },
    signatures: {
      type: 'boolean',
      default: true,
      help: 'signatures, candidate pairs and clusters per method',
    },
    dust: { type: 'boolean', default: true, help: "DustBuster's rules and metrics over the file's URLs" },
    labels: {
      type: 'string',
      arg: 'FILE',
      default: null,
      help:
        'hand labels (JSON or CSV as the workbench exports them): precision and recall per method,\n' +
        'and the RP curve written as CSV next to FILE (needs the signatures)',
    },
    // Whole-file gzip is read by default now; the old flag is accepted so existing scripts still run.
    'whole-file-gzip': {
      type: 'boolean',
      default: false,
      help: 'ignored: kept for old scripts (whole-file gzip is always read)',
    },
  },
  epilog:
    'exit status: 0 read whole, 2 partial read (stopped by an error) or bad arguments, 1 rejected or missing file',
} satisfies CommandSpec;
