import { dedupWarc, type DedupWarcStats, type Revisit } from '../core/clusters/dedup-warc';
import { checkCancelled, type JobOutcome } from '../core/jobs';
import { blobSource } from './ingest-job';
import { jobFailure } from './job-failure';

export interface DedupWarcRequest {
  /** The WARC the dataset was read from, chosen again by the analyst. */
  file: File;
  revisits: Revisit[];
  stats: DedupWarcStats;
}

export interface DedupWarcProgress {
  bytes: number;
  total: number;
}

/** The deduplicated WARC of one file (core/clusters/dedup-warc.ts), as a Blob to save. */
export async function runDedupWarc(
  req: DedupWarcRequest,
  onProgress: (p: DedupWarcProgress) => void,
  isCancelled: () => boolean,
): Promise<JobOutcome<{ blob: Blob; stats: DedupWarcStats }>> {
  try {
    const parts: Uint8Array[] = [];
    const stats = { ...req.stats };
    let last = 0;
    for await (const chunk of dedupWarc(blobSource(req.file), req.revisits, stats)) {
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
    return jobFailure(e, 'the deduplicated WARC');
  }
}
