import { sampleCrawlBytes } from '../state/datasets';

/** The embedded sample crawl, as a file to drop (its bytes: workers/embedded-sample.ts, by state/datasets.ts). */
export const SAMPLE_NAME = 'sample.warc.gz';

export async function loadSample(): Promise<File> {
  const bytes = (await sampleCrawlBytes()) as Uint8Array<ArrayBuffer>;
  return new File([bytes], SAMPLE_NAME, { type: 'application/gzip' });
}
