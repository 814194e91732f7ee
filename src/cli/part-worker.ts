import { createReadStream } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { ingest } from '../core/ingest/pipeline';
import type { Unresolved } from '../core/ingest/parts';
import type { IngestedPage, IngestSummary } from '../core/types';
import { nodeNatives } from './natives';

/**
 * One part of a file, or of a stored WACZ member (bytes [start, end) of the unit, which begins at
 * `fileOffset` in the file), read in a thread of its own (src/cli/parts.ts).
 */
export interface PartTask {
  path: string;
  /** Where the unit's bytes begin in the file: 0 for a whole file, a stored WACZ member's data offset. */
  fileOffset: number;
  /** Its share of the read's cache of page bodies (characters; the parts split one budget). */
  bodyCacheChars: number;
  fileName: string;
  start: number;
  end: number;
  /** The source's first seq: the part numbers its pages by segment (core/ingest/parts.ts). */
  seqBase: number;
  segmentBytes?: number;
  baseUrl: string;
}

export type PartMessage =
  | { type: 'batch'; batch: IngestedPage[]; revisits: Unresolved[] }
  | {
      type: 'progress';
      progress: { bytesRead: number; bytesDecoded: number; records: number; pages: number };
    }
  | { type: 'done'; summary: IngestSummary }
  | { type: 'failed'; message: string };

/**
 * Read one part, telling `post` its batches, progress and end: in a part's own thread (below, `post` is
 * its parentPort), or in the calling thread for the first part (parts.ts), whose reading then overlaps
 * the other threads' start-up.
 */
export function readPart(task: PartTask, post: (m: PartMessage) => void): Promise<void> {
  let revisits: Unresolved[] = [];
  return ingest(
    createReadStream(task.path, {
      start: task.fileOffset + task.start,
      end: task.fileOffset + task.end - 1,
      highWaterMark: 1 << 20,
    }) as AsyncIterable<Uint8Array>,
    {
      fileName: task.fileName,
      totalBytes: task.end - task.start,
      offsetBase: task.start,
      bodyCacheChars: task.bodyCacheChars,
      seqBase: task.seqBase,
      segmentBytes: task.segmentBytes,
      baseUrl: task.baseUrl,
      natives: nodeNatives,
      onUnresolvedRevisit: (seq, uri, digest) => revisits.push({ seq, uri, digest }),
      onProgress: (p) => post({ type: 'progress', progress: p }),
    },
    async (batch) => {
      post({ type: 'batch', batch, revisits });
      revisits = [];
    },
  ).then(
    (summary) => post({ type: 'done', summary }),
    (e: unknown) => post({ type: 'failed', message: (e as Error)?.message ?? String(e) }),
  );
}

const task = (workerData as { partTask?: PartTask } | null)?.partTask;
if (!isMainThread && parentPort && task) {
  const port = parentPort;
  void readPart(task, (m) => port.postMessage(m));
}
