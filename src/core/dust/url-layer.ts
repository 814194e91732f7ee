/**
 * A sample's URL layer (issue "A sample of any crawl"): every HTML capture of the crawl's index, kept
 * as lines so that DustBuster mines its rules on every URL of the crawl — URLs are cheap — while the
 * rules are validated on the sampled pages, the only ones with a document (workers/dust-job.ts).
 * A line: `url TAB status TAB length TAB digest` (tabs and line breaks in a URL written as %09, %0A, %0D).
 */
import { normaliseUrl } from '../url/normalize';
import type { DustRecord } from './types';

export interface LayerCapture {
  url: string;
  status: number;
  /** The record's bytes in its file (-1 unknown): the size a CDX dataset gives its URLs too. */
  length: number;
  /** Payload digest without its `sha1:` prefix ('' unknown). */
  digest: string;
}

const escapeUrl = (u: string) => u.replace(/\t/g, '%09').replace(/\n/g, '%0A').replace(/\r/g, '%0D');

export function layerLine(c: LayerCapture): string {
  return `${escapeUrl(c.url)}\t${c.status}\t${c.length}\t${c.digest}`;
}

/** The DustBuster records of a chunk of layer lines: URLs with sizes and digests, no document. */
export function layerRecords(lines: string): DustRecord[] {
  const out: DustRecord[] = [];
  for (const line of lines.split('\n')) {
    if (line === '') continue;
    const [url, status, length, digest] = line.split('\t');
    let norm = url;
    try {
      norm = normaliseUrl(url).href;
    } catch {
      /* not a URL the normaliser reads: kept as written, as ingest keeps it */
    }
    const size = Number(length);
    out.push({
      url: norm,
      status: Number(status) || 0,
      recordType: 'cdx line',
      sizeMin: Number.isFinite(size) ? size : -1,
      sizeMax: Number.isFinite(size) ? size : -1,
      digest: digest ? `sha1:${digest}` : '',
      sketch: null,
    });
  }
  return out;
}
