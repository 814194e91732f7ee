import { IngestError } from './errors';
import type { DigestMismatch, DigestReport, IngestErrorInfo } from '../types';

/**
 * What the digest checks of a dataset amount to (digests.ts checks them): reports of parts and files
 * merged, the mismatches as problems read past, and the line the header and the CLI show. Apart from
 * the checks, so the views that only show a report do not load the hashes.
 */

/** Mismatches listed per report (the counts go on). */
export const MAX_LISTED = 100;

/** The warning kinds of the two digest fields (IngestErrorInfo.kind); one warning each per dataset. */
export const DIGEST_WARNING_KINDS = {
  payload: 'digest-payload-mismatch',
  block: 'digest-block-mismatch',
} as const;

export function emptyReport(): DigestReport {
  return {
    checked: 0,
    payloadMismatches: 0,
    blockMismatches: 0,
    dechunkedMatches: 0,
    notChecked: {},
    mismatches: [],
  };
}

/** Reports of several reads (parts, files) as one: counts added, the first mismatches in read order. */
export function mergeDigestReports(reports: (DigestReport | undefined)[]): DigestReport | undefined {
  const got = reports.filter((r): r is DigestReport => r !== undefined);
  if (got.length === 0) return undefined;
  const m = emptyReport();
  for (const r of got) {
    m.checked += r.checked;
    m.payloadMismatches += r.payloadMismatches;
    m.blockMismatches += r.blockMismatches;
    m.dechunkedMatches += r.dechunkedMatches;
    for (const [k, v] of Object.entries(r.notChecked)) m.notChecked[k] = (m.notChecked[k] ?? 0) + v;
    m.mismatches.push(...r.mismatches.slice(0, MAX_LISTED - m.mismatches.length));
  }
  return m;
}

/**
 * The mismatches as problems read past, one per field ("3 records whose WARC-Payload-Digest does not
 * match their payload …"), with the first record's file and offset and the next offsets.
 */
export function digestWarnings(r: DigestReport | undefined): IngestErrorInfo[] {
  if (!r) return [];
  const out: IngestErrorInfo[] = [];
  for (const field of ['payload', 'block'] as const) {
    const count = field === 'payload' ? r.payloadMismatches : r.blockMismatches;
    const listed = r.mismatches.filter((m) => m.field === field);
    if (count === 0 || listed.length === 0) continue;
    const [first, ...rest] = listed;
    const header = field === 'payload' ? 'WARC-Payload-Digest' : 'WARC-Block-Digest';
    const what = field === 'payload' ? 'payload' : 'block';
    const at = (m: DigestMismatch) =>
      m.offset.toLocaleString('en-US') + (m.fileName !== first.fileName ? ` (${m.fileName})` : '');
    const then = rest.slice(0, 5).map(at);
    const reason =
      count === 1
        ? `a record whose ${header} does not match its ${what}${first.url ? ` (${first.url})` : ''}: ${first.stated} stated, ${first.computed} computed; read as usual`
        : `${count.toLocaleString('en-US')} records whose ${header} does not match their ${what} (the first ${first.url || `a ${first.recordType} record`}${then.length ? `; then at bytes ${then.join(', ')}${count > 1 + then.length ? ', …' : ''}` : ''}); read as usual`;
    const info = new IngestError(first.fileName, reason, { offset: first.offset }).toInfo();
    out.push({ ...info, kind: DIGEST_WARNING_KINDS[field] });
  }
  return out;
}

/** "1,204 checked · 2 do not match (payload 1, block 1) · 3 not checked (algorithm sha3 3)", for a header line. */
export function describeDigests(r: DigestReport): string {
  const f = (n: number) => n.toLocaleString('en-US');
  const parts = [`${f(r.checked)} checked`];
  const bad = r.payloadMismatches + r.blockMismatches;
  parts.push(
    bad === 0
      ? 'all match'
      : `${f(bad)} do not match (payload ${f(r.payloadMismatches)}, block ${f(r.blockMismatches)})`,
  );
  if (r.dechunkedMatches > 0)
    parts.push(`${f(r.dechunkedMatches)} payload digests match the de-chunked body (as wget writes them)`);
  const skipped = Object.entries(r.notChecked);
  if (skipped.length > 0) {
    const total = skipped.reduce((a, [, n]) => a + n, 0);
    parts.push(`${f(total)} not checked (${skipped.map(([k, n]) => `${k} ${f(n)}`).join(', ')})`);
  }
  return parts.join(' · ');
}
