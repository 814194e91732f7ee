/**
 * A designed sample read in the browser (core/sample/sample-read.ts): the files as the core's sources,
 * and the sampled ranges of each WARC as Blob slices of it (a File of them: nothing is copied). The
 * partners DUST reads for a sample's rules (core/sample/partner-read.ts) are read the same way.
 */
import {
  prepareSample as prepareFromSources,
  type PreparedSample,
  type PrepareOptions,
  type RangesOf,
  type SampleRequest,
} from '../core/sample/sample-read';
import type { ByteSource } from '../core/ingest/wacz';
import { blobSource } from './blob-source';

export type { PreparedSample, SampleRequest } from '../core/sample/sample-read';

/** The files as the core's sources, and how a file's ranges are read: a File of its Blob slices. */
export function blobRanges(files: File[]): { sources: ByteSource[]; rangesOf: RangesOf } {
  const sources = files.map(blobSource);
  const fileOf = new Map<ByteSource, File>(sources.map((s, i) => [s, files[i]]));
  return {
    sources,
    rangesOf: (src, start, ranges, name) => {
      const file = fileOf.get(src)!;
      return blobSource(
        new File(
          ranges.map(([s, e]) => file.slice(start + s, start + e)),
          name,
        ),
      );
    },
  };
}

export function prepareSample(
  files: File[],
  req: SampleRequest,
  o: PrepareOptions = {},
): Promise<PreparedSample> {
  const { sources, rangesOf } = blobRanges(files);
  return prepareFromSources(sources, req, { ...o, rangesOf });
}
