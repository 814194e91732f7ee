/// <reference lib="webworker" />
import type { AsyncBuffer } from 'hyparquet';
import { pickResult, readBatchResult, type BatchResultView, type ResultFile } from '../core/batch/result';
import { exposeJob, type JobApiOf } from './expose-job';
import { jobFailure } from './job-failure';
import type { JobOutcome } from '../core/jobs';
import { readPagesAt } from '../core/sample/partner-read';
import { normaliseUrl } from '../core/url/normalize';
import { browserNatives } from './natives';
import { blobRanges } from './sample-read';

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

/** A member of the batch's clusters to read from the crawl: its URL, shard (file name) and offset. */
export interface MemberPlace {
  url: string;
  shard: string;
  offset: number;
}

/** A member's text as read from the crawl files ('' when its record was not found there). */
export interface MemberText {
  url: string;
  title: string;
  text: string;
}

/**
 * The members' texts, each record read by byte range from the crawl files the analyst opened with the
 * result (shard and offset are in clusters.parquet): the workbench's own ingest, stopped once every one
 * has come out.
 */
async function readTexts(crawl: File[], members: readonly MemberPlace[]): Promise<MemberText[]> {
  const { sources, rangesOf } = blobRanges(crawl);
  const norm = (u: string) => {
    try {
      return normaliseUrl(u).href;
    } catch {
      return u;
    }
  };
  const read = await readPagesAt(
    sources,
    members.map((m) => ({ url: norm(m.url), filename: m.shard, offset: m.offset, length: -1 })),
    (page, content) => ({ title: page.title, text: content.text }),
    { natives: await browserNatives(), rangesOf },
  );
  return members.map((m) => ({ url: m.url, ...(read.pages.get(norm(m.url)) ?? { title: '', text: '' }) }));
}

exposeJob(readResult, () => ({ readTexts }));

export type BatchResultWorkerApi = JobApiOf<typeof readResult> & { readTexts: typeof readTexts };
