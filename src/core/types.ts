/**
 * Domain types of the core layer. Everything here is plain data: it crosses worker boundaries
 * (structured clone), is written to IndexedDB by src/db and printed by the CLI.
 */

/** The formats the workbench reads, sniffed from content (see ingest/sniff.ts). */
export type FormatId =
  'warc' | 'arc' | 'crawl-log' | 'access-log' | 'cdx' | 'jsonl' | 'csv' | 'tsv' | 'url-list' | 'parquet';

/**
 * Formats whose readers report line numbers where the others report byte offsets (`offset`); a
 * Parquet table's are its row numbers (1-based).
 */
export const LINE_FORMATS: ReadonlySet<FormatId> = new Set([
  'crawl-log',
  'access-log',
  'cdx',
  'jsonl',
  'csv',
  'tsv',
  'url-list',
  'parquet',
]);

/** What a line format's numbers count: rows of a table, lines of the others. */
export const lineWord = (format: FormatId | null): 'row' | 'line' => (format === 'parquet' ? 'row' : 'line');

/** One page (or URL) of a dataset, as produced by ingest. */
export interface PageRecord {
  /** Record order in the source file, 0-based; the page's key inside its dataset. */
  seq: number;
  /** URL as found in the source (angle brackets of wget's WARC-Target-URI removed). */
  url: string;
  /** WHATWG-normalised URL (lowercase scheme and host, default port and fragment dropped). */
  normUrl: string;
  host: string;
  /** HTTP status; 0 when the source does not say (resource records, URL lists). */
  status: number;
  /** Every status seen for this URL (access logs), else [status]. */
  statuses: number[];
  /** MIME type without parameters, lowercase; '' unknown. */
  mime: string;
  /** Payload size in bytes, or the min–max range seen (access logs); -1 unknown. */
  sizeMin: number;
  sizeMax: number;
  /** Requests seen for this URL (access logs); 1 otherwise. */
  hits: number;
  /** ISO 8601 fetch time; '' unknown. */
  fetchedAt: string;
  /** WARC record type, or the source format's notion ('log-line', 'jsonl', …). */
  recordType: string;
  title: string;
  textLength: number;
  /** 64-bit fingerprint of the normalised text (16 hex digits); '' when there is no text. */
  fingerprint: string;
  /** Payload digest as the source gives it ('sha1:BASE32…'), else computed SHA-1; '' unknown. */
  digest: string;
  /** Character set used to decode the payload ('' when no text was decoded). */
  charset: string;
  /** seq of the page this revisit record refers to; -1 when not a revisit or not found. */
  revisitOf: number;
  /** Byte offset of the record in the source file (compressed offset for .gz), or the line number. */
  offset: number;
  /** In a dataset read as a designed sample: the page's sampling unit (-1: a record outside the design). */
  sampleUnit?: number;
  /** Non-fatal problem with this record (undecodable encoding, …); '' none. */
  note: string;
  /**
   * Index of the file this page was read from in its dataset's `sources` (a crawl of many files, or a
   * WARC inside a WACZ); absent in datasets read before v0.3 (one file: source 0). `offset` is in it.
   */
  source?: number;
  /** Listed in the WACZ's pages/pages.jsonl: a page the crawl meant to capture (not a resource). */
  listed?: boolean;
  /**
   * An access log's request path whose host was guessed or given (no virtual host in the log): the
   * analyst may set the base URL later and the URL is rebuilt from it. Absent elsewhere.
   */
  logPath?: string;
}

/** The heavy part of a page, stored apart so the pages table loads fast. */
export interface PageContent {
  seq: number;
  text: string;
  /** Normalised outlinks, resolved against the page URL and <base>. */
  outlinks: string[];
  /** Outlinks as written in the page (same order as outlinks). */
  rawOutlinks: string[];
  /** HTTP (or WARC) headers as name/value pairs, in order. */
  headers: [string, string][];
  /** Hashes of the text lines inside <nav>/<aside>/<header>/<footer> (template hints, text/template.ts). */
  templateHints?: number[];
}

export interface IngestedPage {
  page: PageRecord;
  content: PageContent;
}

export interface IngestProgress {
  /** Bytes of the source file consumed so far. */
  bytesRead: number;
  totalBytes: number;
  /** Decompressed bytes parsed so far (equals bytesRead for plain files). */
  bytesDecoded: number;
  records: number;
  pages: number;
  elapsedMs: number;
  /** Of a crawl of many files: which one is being read (0-based), how many, and its name. */
  fileIndex?: number;
  files?: number;
  file?: string;
}

/** One file of a dataset read from many (or one WARC of a WACZ): what it gave and its own problems. */
export interface SourceInfo {
  /** File name; a WARC inside a WACZ is "crawl.wacz › archive/data.warc.gz". */
  name: string;
  bytes: number;
  /** null: not a crawl file (skipped, see error). */
  format: FormatId | null;
  compressed: boolean;
  /** 'zstd' for a zstd file; absent: gzip when compressed. */
  compression?: 'zstd';
  pages: number;
  /** Why it was skipped (not a crawl), or the fault that stopped it part way. */
  error: IngestErrorInfo | null;
  warnings: IngestErrorInfo[];
  warningCount: number;
  /** Read in this many parallel parts (parts.ts); absent: in order. */
  parts?: number;
}

/** A WACZ's pages/pages.jsonl: the pages the crawl meant, against what its WARCs hold. */
export interface PageListInfo {
  /** Entries in pages.jsonl (and extraPages.jsonl). */
  listed: number;
  /** Of those, how many URLs were read as pages of the dataset. */
  found: number;
}

export interface IngestSummary {
  fileName: string;
  format: FormatId;
  compressed: boolean;
  /** 'zstd' for a zstd file (`compressed` is true too); absent: gzip when compressed. */
  compression?: 'zstd';
  bytes: number;
  bytesDecoded: number;
  recordsByType: Record<string, number>;
  pages: number;
  hosts: number;
  hostNames: string[];
  /** Records not turned into pages, by reason. */
  skipped: Record<string, number>;
  /** The fault that stopped ingest early (records before it are kept). */
  error: IngestErrorInfo | null;
  /** Problems read past (first 100), e.g. a Content-Length that was off. */
  warnings: IngestErrorInfo[];
  warningCount: number;
  elapsedMs: number;
  /** Of elapsedMs, the time spent storing pages (IndexedDB in the browser). */
  sinkMs: number;
  /** Pages by HTTP status class ('2xx', '3xx', '4xx', '5xx', 'other'); Heritrix's own codes are in `skipped`. */
  statusCounts?: Record<string, number>;
  /** The files read into this dataset, in order (several dropped files, or the WARCs of a WACZ). */
  sources?: SourceInfo[];
  /** A WACZ's page list against the pages read. */
  pageList?: PageListInfo;
  /** WARC-Payload-Digest and WARC-Block-Digest checked against the bytes (ingest/digests.ts); absent when none is stated. */
  digests?: DigestReport;
  /** One file read in this many parallel parts (parts.ts); absent: in order. */
  parts?: number;
}

/** The stated digests of a read checked against the records' bytes: counts, and the first mismatches listed. */
export interface DigestReport {
  /** Digests compared (a record's payload and block digest count one each). */
  checked: number;
  /** Records whose WARC-Payload-Digest does not match their payload. */
  payloadMismatches: number;
  /** Records whose WARC-Block-Digest does not match their block. */
  blockMismatches: number;
  /** Payload digests that match the de-chunked body only (wget, jwarc): counted as matches. */
  dechunkedMatches: number;
  /** Digests stated but not compared, by why (an unknown algorithm, a record over the budget). */
  notChecked: Record<string, number>;
  /** The first 100 mismatches, in read order. */
  mismatches: DigestMismatch[];
}

export interface DigestMismatch {
  fileName: string;
  /** The record's offset (the gzip member's for .gz). */
  offset: number;
  /** Its WARC-Target-URI ('' for none). */
  url: string;
  recordType: string;
  field: 'payload' | 'block';
  /** As the record states it. */
  stated: string;
  /** What its bytes hash to, in the stated encoding (base32 unless hex). */
  computed: string;
}

/**
 * What a problem read past is, when it is named (IngestErrorInfo.kind): the key a read counts its
 * repeats under (ReaderContext.warn; a problem without a kind is keyed by its sentence) and views and
 * merges look for. Never shown: the sentence is.
 */
export type ProblemKind =
  // Damage a WARC or ARC reader reads past (warc.ts, warc-record.ts, warc-recovery.ts, arc.ts).
  | 'junk'
  | 'length-off'
  | 'length-duplicate'
  | 'length-malformed'
  | 'separator-missing'
  | 'separator-short'
  | 'version-case'
  | 'version-draft'
  | 'whole-file-gzip'
  | 'over-budget'
  | 'arc-length'
  | 'arc-length-off'
  | 'arc-no-filedesc'
  // Compressed data read past (codecs/gzip.ts onSkip, codecs/zstd.ts): the first spans one by one.
  | `damaged span ${number}`
  | 'damaged spans'
  | 'cut-by-damage'
  // Line formats (reader.ts; crawl-log.ts lists its first bad lines one by one, then the rest as one).
  | 'long-line'
  | `bad line ${number}`
  | 'bad lines'
  // An access log's host guessed from its referers (access-log.ts HOST_GUESSED; DatasetHeader asks for a base URL).
  | 'host guessed from the referers'
  // Digest mismatches, one per field over a dataset (digest-report.ts DIGEST_WARNING_KINDS).
  | 'digest-payload-mismatch'
  | 'digest-block-mismatch'
  // The browser's storage full (workers/ingest-faults.ts).
  | 'storage-full';

export interface IngestErrorInfo {
  fileName: string;
  /** Byte offset in the file (compressed offset for .gz), or -1. */
  offset: number;
  /** 1-based line for line formats, or -1. */
  line: number;
  reason: string;
  message: string;
  /** For a problem read past: its kind when it has one (a view looks for HOST_GUESSED), absent otherwise. */
  kind?: ProblemKind;
  /** A Parquet table whose documents' columns were not found: its columns, for the analyst to choose. */
  columns?: string[];
}

/** The columns a Parquet table of documents is read by, when the analyst chooses them (parquet.ts). */
export interface ChosenColumns {
  url: string;
  body: string;
  kind: 'text' | 'html';
}
