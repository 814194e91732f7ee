/**
 * A CDXJ index of a WARC with each capture's duplicate status: pywb's and OutbackCDX's lines,
 * `SURT timestamp {"url", "mime", "status", "digest", "length", "offset", "filename"}`, sorted by key
 * and time (as iana.cdxj and pywb's indexer write them), and three fields of the workbench's own that
 * replay tools pass over: `"dedup"` — "kept" (the copy kept in its cluster, kept.ts), "revisit" (the
 * kept copy's payload digest: written as a revisit in the deduplicated WARC, dedup-warc.ts) or
 * "near-duplicate" (in a cluster, other bytes) —, `"cluster"` (its kept copy's capture key, as every
 * export names clusters), `"kept_url"` and `"kept_reason"`. A capture in no cluster has none of them.
 *
 * `length` is the record's bytes in the file (its gzip member for a .warc.gz): the file is read for it
 * (recordLengths), since the workbench keeps pages, not records; without the file it is left out.
 */
import { surt } from '../url/surt';
import { duplicateStatuses, type WarcPage } from './dedup-warc';
import { DEFAULT_KEEP, type KeepKey } from './kept';

export interface CdxjCapture extends WarcPage {
  mime: string;
  recordType: string;
}

/** 20240115100000 from 2024-01-15T10:00:00Z ('' unknown). */
export function timestamp14(iso: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)/.exec(iso);
  return m ? m.slice(1).join('') : '';
}

/** The CDXJ lines of the captures, sorted; `lengths` by record offset (absent: no length field). */
export function cdxjLines(
  captures: readonly CdxjCapture[],
  clusters: readonly (readonly number[])[],
  filename: string,
  lengths?: ReadonlyMap<number, number>,
  policy: readonly KeepKey[] = DEFAULT_KEEP,
): string[] {
  const dedup = duplicateStatuses(captures, clusters, policy);
  const rows = captures.map((c, i) => {
    const fields: Record<string, string | number> = { url: c.url };
    const revisit = c.recordType === 'revisit';
    fields.mime = revisit ? 'warc/revisit' : c.mime || 'unk';
    if (!revisit && c.status > 0) fields.status = String(c.status);
    if (c.digest) fields.digest = c.digest.replace(/^sha1:/i, '');
    const length = lengths?.get(c.offset);
    if (length !== undefined) fields.length = String(length);
    fields.offset = String(c.offset);
    fields.filename = filename;
    const d = dedup.get(i);
    if (d) {
      fields.dedup = d.status;
      fields.cluster = d.cluster;
      fields.kept_url = captures[d.kept].url;
      fields.kept_reason = d.reason;
    }
    let key: string;
    try {
      key = surt(c.url);
    } catch {
      key = c.url;
    }
    return { key, time: timestamp14(c.fetchedAt) || '-', line: JSON.stringify(fields) };
  });
  rows.sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.time < b.time ? -1 : a.time > b.time ? 1 : 0,
  );
  return rows.map((r) => `${r.key} ${r.time} ${r.line}`);
}
