/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { IngestCancelled, IngestError } from '../core/ingest/errors';
import { ingest } from '../core/ingest/pipeline';
import type { IngestErrorInfo, IngestProgress, IngestSummary } from '../core/types';
import { createDataset, deleteDataset, finishDataset, writeBatch } from '../db/queries';
import { db } from '../db/schema';

export interface IngestRequest {
  file: File;
  name?: string;
  baseUrl?: string;
  wholeFileGzip?: boolean;
}

export type IngestResult =
  | { kind: 'done'; datasetId: number; summary: IngestSummary }
  | { kind: 'cancelled'; datasetId: number | null; pages: number }
  | { kind: 'rejected'; error: IngestErrorInfo };

/** Thin adapter: core ingest → Dexie, progress back to the page. One worker per job. */
const api = {
  cancelled: false,

  cancel(): void {
    api.cancelled = true;
  },

  async run(req: IngestRequest, onProgress: (p: IngestProgress) => void): Promise<IngestResult> {
    const d = db();
    let datasetId: number | null = null;
    let pages = 0;
    try {
      const summary = await ingest(
        req.file.stream() as unknown as AsyncIterable<Uint8Array>,
        {
          fileName: req.file.name,
          totalBytes: req.file.size,
          baseUrl: req.baseUrl,
          wholeFileGzip: req.wholeFileGzip,
          onProgress,
          isCancelled: () => api.cancelled,
          onFormat: async (format, compressed) => {
            datasetId = await createDataset(d, {
              name: req.name ?? req.file.name,
              fileName: req.file.name,
              bytes: req.file.size,
              format,
              compressed,
            });
          },
        },
        async (batch) => {
          await writeBatch(d, datasetId!, batch);
          pages += batch.length;
        },
      );
      await finishDataset(d, datasetId!, summary.error ? 'partial' : 'ready', summary);
      return { kind: 'done', datasetId: datasetId!, summary };
    } catch (e) {
      if (e instanceof IngestCancelled) {
        if (datasetId !== null) await finishDataset(d, datasetId, 'cancelled', { pages });
        return { kind: 'cancelled', datasetId, pages };
      }
      const info: IngestErrorInfo =
        e instanceof IngestError
          ? e.toInfo()
          : {
              fileName: req.file.name,
              offset: -1,
              line: -1,
              reason: `internal error: ${(e as Error).message}`,
              message: `${req.file.name}: internal error: ${(e as Error).message}`,
            };
      // Nothing usable was read: roll the dataset back as a whole.
      if (datasetId !== null) {
        if (pages > 0) {
          await finishDataset(d, datasetId, 'partial', { pages, error: info });
          return { kind: 'done', datasetId, summary: partialSummary(req.file, pages, info) };
        }
        await deleteDataset(d, datasetId);
      }
      return { kind: 'rejected', error: info };
    }
  },
};

function partialSummary(file: File, pages: number, error: IngestErrorInfo): IngestSummary {
  return {
    fileName: file.name,
    format: 'warc',
    compressed: false,
    bytes: file.size,
    bytesDecoded: 0,
    recordsByType: {},
    pages,
    hosts: 0,
    skipped: {},
    error,
    warnings: [],
    warningCount: 0,
    elapsedMs: 0,
  };
}

export type IngestWorkerApi = typeof api;
Comlink.expose(api);
