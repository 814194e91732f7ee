/**
 * A crawl's index read as a table of captures with their place in the WARC files: what lets a sample
 * of a large crawl be read by byte ranges instead of whole files (core/eval/sample-design.ts).
 *
 *   CDXJ (pywb, OutbackCDX, a WACZ's indexes/index.cdxj): `SURT timestamp {"url", "mime", "status",
 *        "digest", "length", "offset", "filename"}`.
 *   CDX  (wget --warc-cdx, cdx-indexer, a WACZ's index.cdx): a ` CDX …` header naming the fields by
 *        letter, then space-separated values: a/A URL, b date, m MIME, s status, k digest, S record
 *        length, V (or v) offset, g file name.
 *
 * cdx.ts reads the same lines as a URL list (a dataset of its own, no text); this reader keeps what
 * the byte-range read needs. Lines are fed one at a time, so an index of millions of lines is never
 * held as one string. A line that cannot be read is counted, the first one named with its number.
 */

export interface IndexEntry {
  url: string;
  /** 14-digit capture time ('' unknown). */
  timestamp: string;
  /** MIME type as indexed ('warc/revisit' for a revisit record). */
  mime: string;
  /** HTTP status (0 unknown). */
  status: number;
  /** Payload digest as indexed, without a `sha1:` prefix ('' unknown). */
  digest: string;
  /** Bytes of the record in its file, its gzip member for a .warc.gz (-1 unknown). */
  length: number;
  /** Offset of the record in its file (-1 unknown). */
  offset: number;
  /** The WARC file that holds it ('' unknown). */
  filename: string;
}

/** A line of the index that could not be read: its number and why. */
export interface IndexProblem {
  line: number;
  reason: string;
}

export class CrawlIndexReader {
  /** The entries read (kept only without `onEntry`). */
  readonly entries: IndexEntry[] = [];
  /** Entries read. */
  count = 0;
  lines = 0;
  bad = 0;
  firstBad: IndexProblem | null = null;
  private fields: string[] | null = null;
  private rest = '';

  /** With `onEntry`, each entry is handed over as it is read and not kept (an index of any size). */
  constructor(private readonly onEntry?: (e: IndexEntry) => void) {}

  /** Feeds text (any cut: a line split over two calls is joined). */
  push(text: string): void {
    const all = this.rest + text;
    let start = 0;
    for (;;) {
      const nl = all.indexOf('\n', start);
      if (nl < 0) break;
      this.line(all.slice(start, nl));
      start = nl + 1;
    }
    this.rest = all.slice(start);
  }

  /** The last line (no newline after it). */
  finish(): void {
    if (this.rest !== '') this.line(this.rest);
    this.rest = '';
  }

  private line(raw: string): void {
    this.lines++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    if (line.startsWith(' CDX ') || line.startsWith('CDX ')) {
      this.fields = line.trim().split(/\s+/).slice(1);
      return;
    }
    const e = this.fields === null ? this.cdxj(line) : this.cdx(line, this.fields);
    if (typeof e === 'string') {
      this.bad++;
      this.firstBad ??= { line: this.lines, reason: e };
      return;
    }
    this.add(e);
  }

  /** An entry from elsewhere (an index built from the WARCs themselves, index-scan.ts). */
  add(e: IndexEntry): void {
    this.count++;
    if (this.onEntry) this.onEntry(e);
    else this.entries.push(e);
  }

  private cdxj(line: string): IndexEntry | string {
    const json = line.indexOf(' {');
    if (json < 0) return 'neither a CDXJ line (key, time, JSON) nor a CDX line after a " CDX" header';
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line.slice(json + 1)) as Record<string, unknown>;
    } catch (err) {
      return `JSON that does not parse (${(err as Error).message})`;
    }
    if (o === null || typeof o !== 'object') return 'JSON that is not an object';
    const s = (k: string) => (typeof o[k] === 'string' || typeof o[k] === 'number' ? String(o[k]) : '');
    const parts = line.slice(0, json).split(' ');
    return entry(
      s('url'),
      parts[1] ?? '',
      s('mime'),
      s('status'),
      s('digest'),
      s('length'),
      s('offset'),
      s('filename'),
    );
  }

  private cdx(line: string, fields: string[]): IndexEntry | string {
    const v = line.trim().split(/\s+/);
    const at = (letter: string) => {
      const i = fields.indexOf(letter);
      return i >= 0 && v[i] !== undefined && v[i] !== '-' ? v[i] : '';
    };
    return entry(
      at('a') || at('A'),
      at('b'),
      at('m'),
      at('s'),
      at('k'),
      at('S'),
      at('V') || at('v'),
      at('g'),
    );
  }
}

function entry(
  url: string,
  timestamp: string,
  mime: string,
  status: string,
  digest: string,
  length: string,
  offset: string,
  filename: string,
): IndexEntry | string {
  if (!url) return 'no URL';
  const num = (x: string) => (/^\d+$/.test(x) ? Number(x) : -1);
  return {
    url,
    timestamp: /^\d{14}$/.test(timestamp) ? timestamp : '',
    mime: mime === '-' ? '' : mime,
    status: Number(status) || 0,
    digest: digest.replace(/^sha1:/i, ''),
    length: num(length),
    offset: num(offset),
    filename,
  };
}

/**
 * The captures a sample can read as pages: HTML responses with a place in a file. The length may be
 * unknown (-1: wget's CDX has offsets, no lengths): it is then where the file's next record begins.
 */
export function isPageEntry(e: IndexEntry): boolean {
  return e.offset >= 0 && e.length !== 0 && e.filename !== '' && /html/i.test(e.mime);
}
