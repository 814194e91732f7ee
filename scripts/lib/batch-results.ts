/** The batch join's result tables read back as comparable rows (tests and benches). */
/** The columns each result table is compared on (every column both engines write). */
export const RESULT_COLUMNS = {
  clusters:
    'cluster, page, url, canonical_url, host, shard, "offset", cluster_size, kept, kept_reason, lost_share, loses_text, crawl, surt, canonical_surt',
  remove:
    'url, page, cluster, kept_url, kept_page, kept_reason, lost_share, loses_text, method, similarity, canonical_url, bytes, surt, canonical_surt',
  pairs: 'a, b, similarity, url_a, url_b, cluster',
  rejected: 'a, b, similarity, url_a, url_b',
  summary:
    'host, pages, pages_in_clusters, clusters, duplicates_removed, unique_payloads, bytes, bytes_conserved, captures_folded, loses_text',
} as const;

/** revisits.parquet, written by a join --against an earlier crawl. */
export const REVISIT_COLUMNS =
  'url, page, cluster, earlier_url, earlier_page, earlier_fetched_at, kind, method';

/** The rows of one query on a fresh in-memory DuckDB (Parquet read with read_parquet). */
export async function queryRows(sql: string): Promise<Record<string, unknown>[]> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    return (await con.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

/** A result table's rows as sorted JSON lines (64-bit integers as decimal strings), read by DuckDB. */
export async function resultRows(files: string, columns: string): Promise<string[]> {
  const rows = await queryRows(`SELECT ${columns} FROM read_parquet('${files.replace(/'/g, "''")}')`);
  return rows
    .map((r) => JSON.stringify(r, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)))
    .sort();
}
