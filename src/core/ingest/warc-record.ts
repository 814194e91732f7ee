import { BUDGET } from '../codecs/budget';
import type { ProblemKind } from '../types';
import { headerValue, parseHeaderLines, utf8 } from './bytes';

/** One WARC record (ISO 28500, WARC/1.0 and 1.1). `block` is a view valid only during the callback. */
export interface WarcRecord {
  version: string;
  type: string;
  headers: [string, string][];
  /** null when the block was larger than MAX_BLOCK and skipped. */
  block: Uint8Array | null;
  contentLength: number;
  /** Offset of the record in the file (compressed offset of its gzip member for .gz). */
  offset: number;
}

/** Blocks above this are counted but not kept: no page text is that large, and memory stays bounded. */
export const MAX_BLOCK = BUDGET.recordBytes;

/** A problem read past; `kind` groups repeats of the same problem. */
export type Warn = (kind: ProblemKind, reason: string, offset: number) => void;

/**
 * A record's header block (its bytes before the blank line that ends it) at `offset`: its version line,
 * the header lines, and the length its Content-Length states (see contentLength).
 */
export function readRecordHeader(
  head: Uint8Array,
  offset: number,
  warn: Warn,
): { version: string; headers: [string, string][]; length: number } {
  // WARC 1.1 headers are UTF-8 (ISO 28500:2017 §5); a byte that is not becomes U+FFFD.
  const text = utf8.decode(head);
  const nl = text.indexOf('\n');
  let version = text.slice(0, nl < 0 ? text.length : nl).trim();
  if (!version.startsWith('WARC/')) {
    warn(
      'version-case',
      `version line "${version}" is not upper case: read as ${version.toUpperCase()}`,
      offset,
    );
    version = version.toUpperCase();
  }
  if (version.startsWith('WARC/0.')) {
    warn(
      'version-draft',
      `${version} is a pre-standard draft of the format (ClueWeb09 uses WARC/0.18): read as WARC/1.0`,
      offset,
    );
  }
  const headers = parseHeaderLines(nl < 0 ? '' : text.slice(nl + 1));
  const length = contentLength(headers, offset, warn);
  return { version, headers, length };
}

/**
 * The record's length as its Content-Length states it: digits only (not "", "1e2" or "0x10"), the
 * first when there are several (noted); -1 when there is none usable (noted: the record is then
 * read up to the next record header).
 */
function contentLength(headers: [string, string][], offset: number, warn: Warn): number {
  const values = headers.filter(([k]) => k.toLowerCase() === 'content-length').map(([, v]) => v.trim());
  if (values.length > 1)
    warn(
      'length-duplicate',
      `${values.length} Content-Length headers (${values.map((v) => JSON.stringify(v)).join(', ')}): the first is used, checked against where the record ends`,
      offset,
    );
  const v = values[0];
  const length = v !== undefined && /^\d{1,15}$/.test(v) ? Number(v) : -1;
  if (length < 0)
    warn(
      'length-malformed',
      v === undefined
        ? 'record without Content-Length: read up to the next record header'
        : `Content-Length ${JSON.stringify(v.slice(0, 40))} is not a length (digits only): the record is read up to the next record header`,
      offset,
    );
  return length;
}

/** WARC-Target-URI as written by wget 1.14 is wrapped in angle brackets. */
export function targetUri(headers: [string, string][]): string {
  const v = headerValue(headers, 'WARC-Target-URI') ?? '';
  return v.startsWith('<') && v.endsWith('>') ? v.slice(1, -1) : v;
}
