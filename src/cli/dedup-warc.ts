import { DEFAULT_KEEP, type KeepKey } from '../core/clusters/kept';
import { createWriteStream, writeFileSync } from 'node:fs';
import { cdxjLines, type CdxjCapture } from '../core/clusters/cdxj';
import {
  dedupWarc,
  planRevisits,
  recordLengths,
  type DedupWarcStats,
  type WarcPage,
} from '../core/clusters/dedup-warc';
import type { ByteSource } from '../core/ingest/wacz';

/**
 * `analyze --dedup-warc OUT` (and `--cdxj OUT`): the crawl's one WARC written again with each duplicate capture as a
 * revisit of the copy kept in its cluster (core/clusters/dedup-warc.ts), streamed to OUT.
 */
export async function writeDedupWarc(
  source: ByteSource,
  pages: readonly WarcPage[],
  clusters: readonly (readonly number[])[],
  out: string,
  keep: readonly KeepKey[] = DEFAULT_KEEP,
): Promise<DedupWarcStats> {
  const { revisits, stats } = planRevisits(pages, clusters, keep);
  const file = createWriteStream(out);
  try {
    for await (const chunk of dedupWarc(source, revisits, stats))
      if (!file.write(chunk)) await new Promise<void>((ok) => file.once('drain', () => ok()));
  } finally {
    await new Promise<void>((ok, fail) => file.end((e?: Error | null) => (e ? fail(e) : ok())));
  }
  return stats;
}

/** The statistics in the words archivists use. */
export function dedupWarcText(out: string, s: DedupWarcStats): string {
  const pct = s.bytesIn > 0 ? ((100 * s.bytesConserved) / s.bytesIn).toFixed(1) : '0.0';
  return [
    `dedup warc  written to ${out}`,
    `            total URLs ${s.totalUrls.toLocaleString('en-US')}, unique payloads ${s.uniquePayloads.toLocaleString('en-US')}, duplicate URLs ${s.duplicateUrls.toLocaleString('en-US')} (revisits), near duplicates kept whole ${s.nearDuplicatesKept.toLocaleString('en-US')}`,
    `            bytes ${s.bytesIn.toLocaleString('en-US')} → ${s.bytesOut.toLocaleString('en-US')}, conserved ${s.bytesConserved.toLocaleString('en-US')} (${pct}%)`,
  ].join('\n');
}

/** `analyze --cdxj OUT`: the WARC's CDXJ index with each capture's duplicate status; returns its lines. */
export async function writeCdxj(
  source: ByteSource,
  captures: readonly CdxjCapture[],
  clusters: readonly (readonly number[])[],
  out: string,
  keep: readonly KeepKey[] = DEFAULT_KEEP,
): Promise<number> {
  const lengths = await recordLengths(
    source,
    captures.map((c) => c.offset),
  );
  const lines = cdxjLines(captures, clusters, source.name.split('/').pop() ?? source.name, lengths, keep);
  writeFileSync(out, lines.join('\n') + '\n');
  return lines.length;
}
