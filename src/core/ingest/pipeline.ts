import type { IngestedPage, IngestSummary } from '../types';
import { concatBytes } from '../bytes';
import { FormatFault, IngestCancelled, IngestError } from './errors';
import type { IngestOptions } from './ingest-options';
import { IngestRun } from './ingest-run';

/** Bytes of a source chunk decoded at once, between checks whether a batch is due. */
const PIECE_BYTES = 256 << 10;

/**
 * Stream a crawl file through sniffing, (gzip,) the format's parser and page extraction, handing
 * pages to `sink` in batches. Memory holds one batch and the parser's buffers, whatever the file size.
 *
 * - A file whose format is unknown throws IngestError before `onFormat`: no dataset is made.
 * - A fault later stops reading; pages read before it have been handed to the sink and the summary
 *   carries the error (the dataset is partial).
 * - Cancel throws IngestCancelled after the pages read so far were handed to the sink.
 */
export async function ingest(
  source: AsyncIterable<Uint8Array>,
  opts: IngestOptions,
  sink: (batch: IngestedPage[]) => Promise<void>,
): Promise<IngestSummary> {
  const run = new IngestRun(opts, sink);
  try {
    // Whether the file is gzip (3 bytes) or zstd (4) needs its first bytes, which may come in more than one chunk.
    let lead: Uint8Array | null = new Uint8Array(0);
    for await (let chunk of source) {
      if (opts.isCancelled?.()) throw new IngestCancelled();
      if (lead) {
        lead = lead.length ? concatBytes(lead, chunk) : chunk;
        if (lead.length < 4) continue;
        run.lead(lead);
        chunk = lead;
        lead = null;
      }
      // A chunk can be megabytes (Chromium's Blob stream handed docsite over in chunks of up to 2 MB):
      // read in pieces, so that a batch due by time is handed over between them, not after the chunk.
      for (let at = 0; at < chunk.length || at === 0; at += PIECE_BYTES) {
        await run.decode(chunk.subarray(at, at + PIECE_BYTES));
        await run.sniffFormat(false);
        if (run.due()) await run.flush();
        run.progress(false);
      }
    }
    if (lead) {
      // A file of 0–2 bytes: too short to be gzip.
      if (lead.length === 0) throw new IngestError(opts.fileName, 'the file is empty (0 bytes)');
      await run.decode(lead);
    }
    await run.end();
  } catch (e) {
    if (e instanceof FormatFault) await run.fault(e);
    else if (e instanceof IngestCancelled) {
      await run.flush(true);
      throw new IngestCancelled(run.summary());
    } else throw e;
  }
  await run.flush(true);
  run.progress(true);
  return run.summary();
}
