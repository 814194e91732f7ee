/// <reference lib="webworker" />
import type { AsyncBuffer } from 'hyparquet';
import { pickResult, readBatchResult, type BatchResultView, type ResultFile } from '../core/batch/result';
import { exposeJob, type JobApiOf } from './expose-job';
import { jobFailure } from './job-failure';
import type { JobOutcome } from '../core/jobs';

export type BatchResultOutcome = JobOutcome<{ view: BatchResultView; files: string[] }>;

/** A File read in slices: hyparquet reads the footer and the columns it needs, not the whole file. */
function fileBuffer(f: File): AsyncBuffer {
  return { byteLength: f.size, slice: (start, end) => f.slice(start, end).arrayBuffer() };
}

/** Thin adapter: the batch result's Parquet files (picked by the analyst) read in this worker. */
async function readResult(
  { files }: { files: File[] },
  onProgress: (p: { phase: string }) => void,
): Promise<BatchResultOutcome> {
  try {
    // Picking the whole folder brings the shards' tables too: only the join step's files are read.
    const { tables } = pickResult(files.map((f) => ({ path: f.webkitRelativePath || f.name })));
    const byName: Partial<Record<ResultFile, AsyncBuffer[]>> = {};
    const names: string[] = [];
    for (const [name, list] of Object.entries(tables) as [ResultFile, number[]][]) {
      byName[name] = list.map((k) => fileBuffer(files[k]));
      names.push(list.length === 1 ? name : `${name} (${list.length} parts)`);
    }
    onProgress({ phase: 'reading' });
    const view = await readBatchResult(byName);
    return { kind: 'done', view, files: names.sort() };
  } catch (e) {
    return jobFailure(e, 'the batch result');
  }
}

exposeJob(readResult);

export type BatchResultWorkerApi = JobApiOf<typeof readResult>;
