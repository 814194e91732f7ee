import type { IngestErrorInfo, IngestSummary } from '../types';

/** What a finished read amounts to: pages, a fault part way (partial), or a non-empty file with no page. */
export type IngestOutcome = 'ready' | 'partial' | 'empty';

/**
 * Why a non-empty file gave no page, in the analyst's words, from what the reader counted: the records it
 * met by type and what it skipped and why (a WARC of only warcinfo and request records, a crawl.log of only
 * DNS lookups, a truncated download that holds the first record alone). Null when there are pages, or the
 * file itself was empty.
 */
export function emptyReason(s: IngestSummary): string | null {
  if (s.pages > 0 || s.bytes === 0) return null;
  const records = Object.entries(s.recordsByType)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`);
  const skipped = Object.entries(s.skipped)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([why, n]) => `${n.toLocaleString('en-US')} ${why}`);
  const parts = [`${s.fileName}: no pages were found in ${s.bytes.toLocaleString('en-US')} bytes`];
  if (records.length) parts.push(`it holds ${records.join(', ')}`);
  else parts.push('no record or line could be read as a page');
  if (skipped.length) parts.push(`skipped: ${skipped.join('; ')}`);
  if (s.format === 'warc' || s.format === 'arc')
    parts.push(
      (s.recordsByType.response ?? 0) + (s.recordsByType.resource ?? 0) === 0
        ? 'there are no response or resource records, so there is no page text'
        : 'none of its response or resource records is a page',
    );
  if (s.compressed && Object.values(s.recordsByType).reduce((a, b) => a + b, 0) <= 1)
    parts.push('a .gz that yields one record may have been cut short or decoded by a server on the way');
  return parts.join('; ') + '.';
}

/** The dataset status and the note it keeps for a finished read. */
export function ingestOutcome(s: IngestSummary): { status: IngestOutcome; error: IngestErrorInfo | null } {
  if (s.error) return { status: 'partial', error: s.error };
  const why = emptyReason(s);
  if (why)
    return {
      status: 'empty',
      error: { fileName: s.fileName, offset: -1, line: -1, reason: why, message: why },
    };
  return { status: 'ready', error: null };
}
