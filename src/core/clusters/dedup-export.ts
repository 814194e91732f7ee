/**
 * What a corpus builder acts on, from the workbench's clusters: one row per page in a cluster with the
 * copy kept and why (kept.ts decide, the policy given), as Parquet, and the remove list (every other
 * member, with the copy it duplicates), as CSV or Parquet. A cluster is named by its kept copy's
 * capture key, as every export and the batch name it.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { formatDelimited } from '../csv';
import { surt } from '../url/surt';
import { decisions, memberLoss, removed, type ClusterExportInput } from './export';
import { shareText } from './loses-text';

export type DedupExportInput = ClusterExportInput;

interface Member {
  cluster: string;
  page: number;
  /** The page's number (its capture's id), and the kept member's index and number. */
  id: number;
  kept: number;
  keptId: number;
  reason: string;
  /** Share of its text the kept copy lacks (undefined: the kept copy, or not computed), and the flag. */
  lost?: number;
  losesText: boolean;
}

function members(x: DedupExportInput): Member[] {
  const out: Member[] = [];
  const ds = decisions(x);
  x.clusters.forEach((c, n) => {
    const d = ds[n];
    if (!d) return;
    const keptId = x.capture(d.kept).id;
    for (const m of c.members) {
      const loss = memberLoss(x, m, d.kept);
      out.push({
        cluster: d.cluster,
        page: m,
        id: x.capture(m).id,
        kept: d.kept,
        keptId,
        reason: d.reason,
        lost: loss?.share,
        losesText: loss?.flagged ?? false,
      });
    }
  });
  return out;
}

/**
 * clusters.parquet: id, url, cluster, kept, kept_reason, canonical_url (empty when no DUST rules were mined), and the
 * SURT keys of both (url/surt.ts), as the batch's clusters.parquet has them.
 */
export function clustersParquet(x: DedupExportInput): ArrayBuffer {
  const rows = members(x);
  const canonical = (r: Member) => (x.canonical ? x.canonical(r.page) : '');
  return parquetWriteBuffer({
    columnData: [
      { name: 'id', data: rows.map((r) => BigInt(r.id)), type: 'INT64' },
      { name: 'url', data: rows.map((r) => x.url(r.page)), type: 'STRING' },
      { name: 'cluster', data: rows.map((r) => r.cluster), type: 'STRING' },
      { name: 'kept', data: rows.map((r) => r.page === r.kept), type: 'BOOLEAN' },
      { name: 'kept_reason', data: rows.map((r) => r.reason), type: 'STRING' },
      { name: 'lost_share', data: rows.map((r) => r.lost ?? null), type: 'DOUBLE' },
      { name: 'loses_text', data: rows.map((r) => r.losesText), type: 'BOOLEAN' },
      { name: 'canonical_url', data: rows.map(canonical), type: 'STRING' },
      { name: 'surt', data: rows.map((r) => surtOf(x.url(r.page))), type: 'STRING' },
      { name: 'canonical_surt', data: rows.map((r) => surtOf(canonical(r))), type: 'STRING' },
    ],
  });
}

/** A URL's SURT key; '' for no URL, the URL itself when it has none. */
function surtOf(url: string): string {
  if (!url) return '';
  try {
    return surt(url);
  } catch {
    return url;
  }
}

export const REMOVE_COLUMNS = [
  'url',
  'id',
  'cluster',
  'kept_url',
  'kept_id',
  'kept_reason',
  'lost_share',
  'loses_text',
  'method',
  'canonical_url',
  'surt',
  'canonical_surt',
] as const;

/**
 * The remove list: every member but the kept one, header first — a member flagged `loses-text` only
 * when the policy removes such members (removeLosing), with its share either way.
 */
export function removeRows(x: DedupExportInput): string[][] {
  const rows: string[][] = [[...REMOVE_COLUMNS]];
  for (const r of members(x))
    if (removed(x, r.page, r.kept))
      rows.push([
        x.url(r.page),
        String(r.id),
        String(r.cluster),
        x.url(r.kept),
        String(r.keptId),
        r.reason,
        shareText(r.lost),
        r.losesText ? '1' : '0',
        x.method,
        x.canonical ? x.canonical(r.page) : '',
        surtOf(x.url(r.page)),
        surtOf(x.canonical ? x.canonical(r.page) : ''),
      ]);
  return rows;
}

export function removeCsv(x: DedupExportInput): string {
  return formatDelimited(removeRows(x));
}
