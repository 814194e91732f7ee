/**
 * The embedded sample crawl's bytes. It is built into its own script chunk as base64 (`?inline`), loaded
 * only when asked for, so what arrives never depends on how a server labels a `.gz` file: a server that
 * adds `Content-Encoding: gzip` to `sample.warc.gz` makes `fetch()` hand back the first gzip member already
 * inflated (the warcinfo record) and nothing else — a sample of 0 pages. A script chunk is decoded whole by
 * the browser, whatever compression the server applies to it. Read by the sidebar's "open the sample"
 * (ui/sample.ts) and by an idle ingest worker's warm-up (warm-up.ts): one chunk for both.
 */
export async function embeddedSampleBytes(): Promise<Uint8Array> {
  const { default: dataUrl } = (await import('../../sample/sample.warc.gz?inline')) as { default: string };
  const comma = dataUrl.indexOf(',');
  if (!dataUrl.startsWith('data:') || !dataUrl.slice(0, comma).endsWith(';base64'))
    throw new Error('the embedded sample crawl is not a base64 data URL (build problem)');
  const bin = atob(dataUrl.slice(comma + 1));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}
