import { embeddedSampleBytes } from '../workers/embedded-sample';

/** The embedded sample crawl, as a file to drop (its bytes: workers/embedded-sample.ts). */
export const SAMPLE_NAME = 'sample.warc.gz';

export async function loadSample(): Promise<File> {
  const bytes = (await embeddedSampleBytes()) as Uint8Array<ArrayBuffer>;
  return new File([bytes], SAMPLE_NAME, { type: 'application/gzip' });
}
