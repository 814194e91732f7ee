/**
 * A designed sample read in the browser (core/ingest/sample-read.ts): the files as the core's sources,
 * and the sampled ranges of each WARC as Blob slices of it (a File of them: nothing is copied).
 */
import {
  prepareSample as prepareFromSources,
  type PreparedSample,
  type PrepareOptions,
  type SampleRequest,
} from '../core/ingest/sample-read';
import type { ByteSource } from '../core/ingest/wacz';
import { blobSource } from './blob-source';

export type { PreparedSample, SampleRequest } from '../core/ingest/sample-read';

export function prepareSample(
  files: File[],
  req: SampleRequest,
  o: PrepareOptions = {},
): Promise<PreparedSample> {
  const sources = files.map(blobSource);
  const fileOf = new Map<ByteSource, File>(sources.map((s, i) => [s, files[i]]));
  return prepareFromSources(sources, req, {
    ...o,
    rangesOf: (src, start, ranges, name) => {
      const file = fileOf.get(src)!;
      return blobSource(
        new File(
          ranges.map(([s, e]) => file.slice(start + s, start + e)),
          name,
        ),
      );
    },
  });
}
