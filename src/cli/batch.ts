/**
 * `npm run batch -- [--profile P.json] --out DIR [--step map|join|all] [--shards LIST.txt] FILE…` (`--help`)
 *
 * Applies a dedup profile exported by the workbench to a whole crawl. The map step reads each shard
 * (a WARC or any format the workbench reads) in a worker_thread, one per core, and writes Parquet
 * (src/core/batch/tables.ts); the join step runs sql/dedup.sql on embedded DuckDB and writes the
 * clusters, the verified pairs and a summary. The same SQL runs on Spark (README, "Beyond one machine").
 */
import { fromInvokingFolder } from './input-paths';
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultProfile, parseProfile, type DedupProfile } from '../core/profile';
import { argsOrExit, usageExit, type CommandSpec } from './args';
import { runJoin } from './batch-join';
import { runMap } from './batch-map';
import { batchClustering, batchMethod } from './batch-profile';
import { checkRegularFile, InputError, readTextInput } from './input-paths';

interface Cli {
  profile: string | null;
  out: string;
  step: 'map' | 'join' | 'all';
  workers: number;
  memory: string;
  against: string | null;
  'name-prefix': string;
  files: string[];
}

/**
 * A size DuckDB's memory_limit takes, checked here so that a bad one is a usage error naming the option
 * (DuckDB says only "Failed to set config"): a positive number and a unit. DuckDB reads `3GB` as
 * 3·1000³ bytes and `3GiB` as 3·1024³, and a negative size as no limit (refused here).
 */
export function memorySize(value: string): string | null {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([KMGT]i?B|[KMGT])\s*$/i.exec(value);
  return m && Number(m[1]) > 0 ? null : 'a size above 0 with a unit, such as 3GB or 512MiB';
}

/**
 * A local folder, not a URL: the map and join steps write local files (an `s3a://bucket/x` would become
 * a folder named `s3a:`). A Windows drive (`C:\\out`) is a folder.
 */
export function localFolder(value: string): string | null {
  const m = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value);
  return m ? `a local folder (${m[1]}:// URLs are not written to: write locally, then copy)` : null;
}

/** The options table: parser, defaults and `--help` come from it (src/cli/args.ts). */
export const BATCH = {
  name: 'batch',
  summary:
    'Applies a dedup profile exported by the workbench to a whole crawl: the map step reads each shard in a\n' +
    'worker thread and writes Parquet, the join step runs sql/dedup.sql on DuckDB and writes the clusters,\n' +
    'the verified pairs and a summary.',
  positionals: {
    name: 'FILE',
    help: 'shard files: WARC or any format the workbench reads (none needed for --step join)',
    min: 0,
    max: Infinity,
  },
  options: {
    profile: {
      type: 'string',
      arg: 'P.json',
      default: null,
      help: 'the dedup profile (exported by the workbench; fields left out take the defaults); without it, the workbench’s defaults',
    },
    out: {
      type: 'string',
      arg: 'DIR',
      default: null,
      required: true,
      check: localFolder,
      help: 'output folder (shards, Parquet, results)',
    },
    step: {
      type: 'choice',
      choices: ['map', 'join', 'all'] as const,
      default: 'all',
      help: 'run the map step, the join step, or both',
    },
    shards: {
      type: 'string',
      arg: 'LIST.txt',
      default: null,
      help: 'more shard files, one path a line (# comments)',
    },
    workers: {
      type: 'number',
      arg: 'N',
      default: availableParallelism(),
      defaultText: 'one per core',
      min: 1,
      integer: true,
      help: 'worker threads of the map step',
    },
    against: {
      type: 'string',
      arg: 'DIR',
      default: null,
      check: localFolder,
      help: 'an earlier crawl’s output folder: its pages are kept first, and the crawl’s copies of them are written to revisits.parquet',
    },
    'name-prefix': {
      type: 'string',
      arg: 'P',
      default: '',
      help: 'prefix of the shards’ names (ids come from them): name a crawl’s files apart from an earlier crawl’s of the same names',
    },
    memory: {
      type: 'string',
      arg: 'SIZE',
      default: '3GB',
      check: memorySize,
      help: "DuckDB's memory limit for the join (KB, MB, GB, TB or KiB, MiB, GiB, TiB)",
    },
  },
  epilog:
    'relative paths are read from the folder you ran npm in (npm run starts in the project root and\n' +
    'names that folder INIT_CWD), so a command runs as printed from the folder holding its files.\n' +
    'exit status: 0 done, 1 failed or missing file, 2 bad arguments',
} satisfies CommandSpec;

function cli(argv: string[]): Cli {
  const { values, positionals } = argsOrExit(BATCH, argv);
  const files = [...positionals];
  if (values.shards)
    files.push(
      ...readTextInput(values.shards)
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#')),
    );
  if (values.step !== 'join' && files.length === 0) usageExit(BATCH, 'no shard files given');
  return { ...values, files };
}

async function main(): Promise<number> {
  fromInvokingFolder('batch');
  let args: Cli;
  let profile: DedupProfile;
  try {
    args = cli(process.argv.slice(2));
    profile = args.profile === null ? defaultProfile() : parseProfile(readTextInput(args.profile));
    // Shards are read by path in worker threads: each is checked here, so a FIFO is never opened there.
    if (args.step !== 'join') for (const f of args.files) checkRegularFile(f);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    console.error(`error: ${e.message}`);
    return 1;
  }
  batchMethod(profile);
  batchClustering(profile);
  const outDir = resolve(args.out);
  let names: string[] | undefined;
  if (args.step !== 'join') {
    const map = await runMap({
      profile,
      outDir,
      workers: args.workers,
      shards: args.files.map((f) => ({
        name: `${args['name-prefix']}${basename(f)}`,
        source: { kind: 'file', path: resolve(f) },
      })),
    });
    const pages = map.shards.reduce((s, x) => s + x.pages, 0);
    process.stderr.write(
      `map: done, ${map.shards.length} shards, ${pages.toLocaleString('en-US')} pages, ${(map.elapsedMs / 1000).toFixed(1)} s\n`,
    );
    names = map.shards.map((s) => s.name);
  }
  if (args.step === 'map') return 0;
  // --step all joins this run's files; --step join every shard mapped into DIR, by any run.
  const r = await runJoin({
    profile,
    outDir,
    shards: names,
    memory: args.memory,
    ...(args.against ? { against: resolve(args.against) } : {}),
  });
  const all = r.summary.find((s) => s.host === null);
  console.log(
    `pages ${all?.pages ?? 0} (${all?.captures_folded ?? 0} more captures of a URL folded into its earliest), clusters ${all?.clusters ?? 0}, duplicates removed ${all?.duplicates_removed ?? 0} (${r.iterations} ${r.clustering === 'star' ? 'star rounds' : 'label iterations'}, ${(r.elapsedMs / 1000).toFixed(1)} s); results in ${outDir}`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}
