import type { FormatId } from '../types';
import { latin1, looksBinary } from './bytes';
import { isArcHeaderLine } from './arc';
import { isGzip } from '../codecs/gzip';

export type Sniffed = { ok: true; format: FormatId } | { ok: false; reason: string };

const MAGIC: [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x52, 0x49, 0x46, 0x46], 'a RIFF file (WebP image, WAV or AVI)'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive that is not a WACZ (no datapackage.json)'],
  [[0x42, 0x5a, 0x68], 'bzip2-compressed data (decompress it first)'],
  // zstd files are read (zstd.ts) before this is asked: seen here, it is inside another compression.
  [
    [0x28, 0xb5, 0x2f, 0xfd],
    'zstd-compressed data inside another compression (decompress the outer layer first)',
  ],
  // Read by ranges before the stream readers (many-files.ts, parquet.ts): seen here only when streamed.
  [[0x50, 0x41, 0x52, 0x31], 'a Parquet file, which is read by its row groups, not as a stream'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a], 'xz-compressed data (decompress it first)'],
];

const CRAWL_LOG = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\s+-?\d+\s+(\d+|-)\s+\S+\s+\S+\s+\S+\s+\S+/;
const ACCESS_LOG = /^(?:\S+ )?\S+ \S+ \S+ \[[^\]]+\] "[^"]*" \d{3} (\d+|-)/;
const CDXJ = /^\S+ \d{8,14} \{/;
const URL_LINE = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

/** At least 80% of the complete lines after the first are crawl.log lines (and there are some). */
function crawlLogAfterFirstLine(text: string): boolean {
  const lines = text
    .split('\n')
    .slice(1, -1)
    .filter((l) => l.trim() !== '')
    .slice(0, 20);
  return lines.length > 0 && lines.filter((l) => CRAWL_LOG.test(l)).length / lines.length >= 0.8;
}

/** A ZIP archive (local file header): a WACZ is read apart from the stream formats (see wacz.ts). */
export const isZip = (head: Uint8Array): boolean =>
  head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;

/**
 * Which format a file is, from its first (decompressed) bytes; the file name only breaks ties.
 * Content wins over the name, so a WARC called "crawl.txt" still reads as WARC.
 */
export function sniff(head: Uint8Array, fileName: string): Sniffed {
  if (head.length === 0) return { ok: false, reason: 'the file is empty (0 bytes)' };
  for (const [bytes, what] of MAGIC) {
    if (bytes.every((b, i) => head[i] === b))
      return { ok: false, reason: `this is ${what}, not a crawl file` };
  }
  if (isGzip(head)) return { ok: false, reason: 'gzip inside gzip: decompress the outer layer first' };
  const text = latin1.decode(head.subarray(0, 64 << 10)).replace(/^\ufeff|^\xef\xbb\xbf/, '');
  // Any letter case: some writers emit "warc/1.0" (read as WARC, as the lenient readers do).
  if (/^warc\/\d/i.test(text)) return { ok: true, format: 'warc' };
  if (text.startsWith('filedesc://')) return { ok: true, format: 'arc' };
  // An ARC without its filedesc:// version block starts with a record's header line.
  const firstLine = text.slice(0, Math.min(text.length, 4096)).split('\n', 1)[0].trim();
  // …unless what follows is a crawl.log: a log cut out of a metadata ARC keeps its record header line
  // ("metadata://…/crawl.log?heritrixVersion=… IP date text/plain length"); the reader lists it and reads on.
  if (isArcHeaderLine(firstLine.split(/\s+/)) && !crawlLogAfterFirstLine(text))
    return { ok: true, format: 'arc' };
  if (looksBinary(head))
    return { ok: false, reason: 'binary data that is not WARC, ARC or a text log (unknown format)' };
  const start = text.trimStart().slice(0, 200).toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<head')) {
    return {
      ok: false,
      reason:
        'this is a single HTML page, not a crawl file (drop the WARC, log or URL list that contains it)',
    };
  }
  const lines = text
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
  // The last line of the head may be cut; judge on the complete ones.
  const sample = lines.slice(0, Math.min(lines.length > 1 ? lines.length - 1 : 1, 20));
  const share = (re: RegExp) => sample.filter((l) => re.test(l)).length / Math.max(sample.length, 1);
  if (sample.length === 0)
    return { ok: false, reason: 'the file holds no data lines (only blank lines or comments)' };
  if (share(CRAWL_LOG) >= 0.8 || crawlLogAfterFirstLine(text)) return { ok: true, format: 'crawl-log' };
  if (/^ ?CDX [A-Za-z]( [A-Za-z])+$/.test(sample[0]) || share(CDXJ) >= 0.8)
    return { ok: true, format: 'cdx' };
  if (share(ACCESS_LOG) >= 0.8) return { ok: true, format: 'access-log' };
  if (sample[0].trimStart().startsWith('{')) {
    try {
      const first = JSON.parse(sample[0]) as unknown;
      if (first && typeof first === 'object' && 'url' in first) return { ok: true, format: 'jsonl' };
      return {
        ok: false,
        reason: 'JSON lines without a "url" field (each line needs "url" plus "html" or "text")',
      };
    } catch {
      return { ok: false, reason: 'the first line starts like JSON but does not parse' };
    }
  }
  const header = sample[0].toLowerCase();
  if (
    /(^|\t)"?url"?(\t|$)/.test(header) &&
    (header.includes('\t') || fileName.toLowerCase().endsWith('.tsv'))
  ) {
    return { ok: true, format: 'tsv' };
  }
  if (/(^|,)\s*"?url"?\s*(,|$)/.test(header)) return { ok: true, format: 'csv' };
  if (share(URL_LINE) >= 0.8) return { ok: true, format: 'url-list' };
  return {
    ok: false,
    reason:
      'unknown format: not WARC, ARC, a Heritrix crawl.log, a Common/Combined access log, JSONL, CSV/TSV with a "url" column, or a list of URLs',
  };
}
