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
  | { kind: 'rejected'; error: IngestErrorInfo }
  /** An unexpected failure after pages were written: they are kept, the dataset is partial. */
  | { kind: 'stopped'; datasetId: number; pages: number; error: IngestErrorInfo };

/** The bytes of a File as a stream (jsdom's File has no stream(): component tests read it whole). */
function chunks(file: File): AsyncIterable<Uint8Array> {
  if (typeof file.stream === 'function') return file.stream() as unknown as AsyncIterable<Uint8Array>;
  return (async function* () {
    yield new Uint8Array(await file.arrayBuffer());
  })();
}

/** One ingest job: core ingest → Dexie, in batches; the dataset is created once the format is known. */
export async function runIngest(
  req: IngestRequest,
  onProgress: (p: IngestProgress) => void,
  isCancelled: () => boolean,
): Promise<IngestResult> {
  const d = db();
  let datasetId: number | null = null;
  let pages = 0;
  try {
    const summary = await ingest(
      chunks(req.file),
      {
        fileName: req.file.name,
        totalBytes: req.file.size,
        baseUrl: req.baseUrl,
        wholeFileGzip: req.wholeFileGzip,
        onProgress,
        isCancelled,
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
        return { kind: 'stopped', datasetId, pages, error: info };
      }
      await deleteDataset(d, datasetId);
    }
    return { kind: 'rejected', error: info };
  }
}
