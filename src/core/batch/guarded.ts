import { sortedBy } from '../candidates/methods';
import { acceptedList, guardedOf } from '../clusters/clusters';
import { findPair } from '../candidates/pair-index';

/** A verified pair of one connected component, as the batch join hands it over. */
export interface GuardPair {
  a: bigint;
  b: bigint;
  /** Exact Jaccard (a double from SQL; compared as the Float32 the workbench stores). */
  similarity: number;
  /** Whether the profile's threshold accepts it. */
  accepted: boolean;
}

/**
 * The chain guard (clusters.ts guardedOf, the workbench's "components with a chain guard") over one
 * connected component of the accepted pairs: `pairs` are the component's verified pairs with
 * similarity ≥ the floor, accepted or not (the guard looks up every member pair). Pages are numbered
 * in id order and pairs kept in (a, b) order, as the engine numbers pages and pairs when it reads the
 * shards in id order, so ties of similarity fall the same way. Returns the groups of 2 pages or more,
 * each as ascending ids. The batch join runs it per component (src/cli/batch-join.ts; spark/dedup_join.py
 * has the same steps in Python).
 */
export function guardedGroups(pairs: readonly GuardPair[], floor: number): bigint[][] {
  const ids = [...new Set(pairs.flatMap((p) => [p.a, p.b]))].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const local = new Map(ids.map((id, i) => [id, i]));
  const rows = pairs
    .map((p) => {
      const [x, y] = [local.get(p.a)!, local.get(p.b)!];
      return { a: Math.min(x, y), b: Math.max(x, y), s: p.similarity, ok: p.accepted };
    })
    .sort((p, q) => p.a - q.a || p.b - q.b);
  const table = {
    count: rows.length,
    a: Uint32Array.from(rows, (r) => r.a),
    b: Uint32Array.from(rows, (r) => r.b),
  };
  const similarity = Float32Array.from(rows, (r) => r.s);
  const ordered = sortedBy(
    similarity,
    acceptedList(rows.length, (k) => rows[k].ok),
    true,
  );
  return guardedOf(ids.length, table.a, table.b, ordered, similarity, floor, (i, j) =>
    findPair(table, i, j),
  ).map((c) => c.members.map((i) => ids[i]));
}
