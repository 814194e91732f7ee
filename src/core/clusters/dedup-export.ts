/**
 * What a corpus builder acts on, from the workbench's clusters: one row per page in a cluster with the
 * copy kept (`kept.ts`, the batch's rule), as Parquet, and the remove list (every other member, with
 * the copy it duplicates), as CSV or Parquet. A cluster is named by its smallest page number, as the
 * batch names it (a name that does not move when the kept copy does).
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { formatDelimited } from '../csv';
import { surt } from '../url/surt';
import type { ClusterExportInput } from './export';
import { keptOf, type Capture } from './kept';

export interface DedupExportInput extends ClusterExportInput {
  /** Page index → what the kept-copy rule reads. */
  capture: (i: number) => Capture;
}

interface Member {
  cluster: number;
  page: number;
  /** The page's number (its capture's id), and the kept member's index and number. */
  id: number;
  kept: number;
  keptId: number;
}

function members(x: DedupExportInput): Member[] {
  const out: Member[] = [];
  for (const c of x.clusters) {
    if (c.members.length === 0) continue;
    const kept = keptOf(c.members, x.capture);
    const keptId = x.capture(kept).id;
    // Each member's number read once; the smallest names the cluster (a loop: a cluster may hold more
    // members than a call takes arguments).
    const ids = c.members.map((m) => x.capture(m).id);
    let name = ids[0];
    for (const id of ids) if (id < name) name = id;
    c.members.forEach((m, k) => out.push({ cluster: name, page: m, id: ids[k], kept, keptId }));
  }
  return out;
}

/**
 * clusters.parquet: id, url, cluster, kept, canonical_url (empty when no DUST rules were mined), and the
 * SURT keys of both (url/surt.ts), as the batch's clusters.parquet has them.
 */
export function clustersParquet(x: DedupExportInput): ArrayBuffer {
  const rows = members(x);
  const canonical = (r: Member) => (x.canonical ? x.canonical(r.page) : '');
  return parquetWriteBuffer({
    columnData: [
      { name: 'id', data: rows.map((r) => BigInt(r.id)), type: 'INT64' },
      { name: 'url', data: rows.map((r) => x.url(r.page)), type: 'STRING' },
      { name: 'cluster', data: rows.map((r) => BigInt(r.cluster)), type: 'INT64' },
      { name: 'kept', data: rows.map((r) => r.page === r.kept), type: 'BOOLEAN' },
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
  'method',
  'canonical_url',
  'surt',
  'canonical_surt',
] as const;

/** The remove list: every member but the kept one, header first. */
export function removeRows(x: DedupExportInput): string[][] {
  const rows: string[][] = [[...REMOVE_COLUMNS]];
  for (const r of members(x))
    if (r.page !== r.kept)
      rows.push([
        x.url(r.page),
        String(r.id),
        String(r.cluster),
        x.url(r.kept),
        String(r.keptId),
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
