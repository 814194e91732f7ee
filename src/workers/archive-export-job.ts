import { cdxjLines, type CdxjCapture } from '../core/clusters/cdxj';
import type { KeepKey } from '../core/clusters/kept';
import { dedupWarc, recordLengths, type DedupWarcStats, type Revisit } from '../core/clusters/dedup-warc';
import { checkCancelled, type JobOutcome } from '../core/jobs';
import { blobSource } from './blob-source';
import { jobFailure } from './job-failure';

/** What is written from the WARC a dataset was read from, chosen again by the analyst. */
export type ArchiveRequest =
  /** The deduplicated WARC (core/clusters/dedup-warc.ts). */
  | { kind: 'warc'; file: File; revisits: Revisit[]; stats: DedupWarcStats }
  /** Its CDXJ index with each capture's duplicate status (core/clusters/cdxj.ts). */
  | { kind: 'cdxj'; file: File; captures: CdxjCapture[]; clusters: number[][]; keep: KeepKey[] };

export interface ArchiveProgress {
  bytes: number;
  total: number;
}

/** A deduplicated WARC or a CDXJ index of one file, as a Blob to save. */
export async function runArchiveExport(
  req: ArchiveRequest,
  onProgress: (p: ArchiveProgress) => void,
  isCancelled: () => boolean,
): Promise<JobOutcome<{ blob: Blob; stats?: DedupWarcStats }>> {
  try {
    const source = blobSource(req.file);
    if (req.kind === 'cdxj') {
      const lengths = await recordLengths(
        source,
        req.captures.map((c) => c.offset),
      );
      checkCancelled(isCancelled);
      const lines = cdxjLines(req.captures, req.clusters, req.file.name, lengths, req.keep);
      return { kind: 'done', blob: new Blob([lines.join('\n') + '\n'], { type: 'text/plain' }) };
    }
    const parts: Uint8Array[] = [];
    const stats = { ...req.stats };
    let last = 0;
    for await (const chunk of dedupWarc(source, req.revisits, stats)) {
      checkCancelled(isCancelled);
      parts.push(chunk);
      const now = performance.now();
      if (now - last > 100) {
        last = now;
        onProgress({ bytes: stats.bytesOut, total: req.file.size });
      }
    }
    return { kind: 'done', blob: new Blob(parts as BlobPart[], { type: 'application/warc' }), stats };
  } catch (e) {
    return jobFailure(e, req.kind === 'cdxj' ? 'the CDXJ index' : 'the deduplicated WARC');
  }
}
