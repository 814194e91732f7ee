/**
 * `npm run analyze -- FILE [--json OUT] [--base URL] [--whole-file-gzip]`
 * Ingests a crawl file in Node with the same core as the browser and prints a summary.
 */
import { createReadStream, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { IngestError } from '../core/ingest/errors';
import { ingest } from '../core/ingest/pipeline';
import type { IngestSummary } from '../core/types';

interface Args {
  file: string;
  json: string | null;
  base: string;
  wholeFileGzip: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { file: '', json: null, base: '', wholeFileGzip: false };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--json') a.json = argv[++i] ?? '';
    else if (x === '--base') a.base = argv[++i] ?? '';
    else if (x === '--whole-file-gzip') a.wholeFileGzip = true;
    else if (x === '-h' || x === '--help') {
      console.log('usage: npm run analyze -- FILE [--json OUT] [--base URL] [--whole-file-gzip]');
      process.exit(0);
    } else if (!a.file) a.file = x;
    else throw new Error(`unexpected argument ${x}`);
  }
  if (!a.file)
    throw new Error('usage: npm run analyze -- FILE [--json OUT] [--base URL] [--whole-file-gzip]');
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
  lines.push(`time      ${(s.elapsedMs / 1000).toFixed(2)} s`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const size = statSync(args.file).size;
  try {
    const summary = await ingest(
      createReadStream(args.file, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>,
      {
        fileName: basename(args.file),
        totalBytes: size,
        baseUrl: args.base,
        wholeFileGzip: args.wholeFileGzip,
      },
      async () => {},
    );
    console.log(formatSummary(summary));
    if (args.json) writeFileSync(args.json, JSON.stringify({ summary }, null, 2));
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
