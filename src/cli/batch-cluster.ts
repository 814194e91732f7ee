/**
 * The clustering step of the batch join (src/cli/batch-join.ts): the loop over sql/dedup.sql's star rounds or
 * label propagation, and the chain guard's split of each component in Node. spark/dedup_join.py runs
 * the same loop.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { guardedGroups, type GuardPair } from '../core/batch/guarded';
import type { BatchMethod } from '../core/batch/keys';

/** The clusterings the join computes: the profile's, never replaced by another. */
export type BatchClustering = 'components' | 'star' | 'guarded';

/** What the clustering step needs of a driver: run a named statement, read a count, swap a table. */
export interface ClusterSteps {
  run(name: string): Promise<unknown>;
  count(name: string): Promise<number>;
  /** Replace `table` by `table_next`. */
  swap(table: string): Promise<void>;
  /**
   * The chain guard over the `guard` table: `labels_next` (page, label) is guard_kept and each
   * component's groups (guardedGroups, label = the group's smallest id). Returns the groups computed.
   */
  regroup(): Promise<number>;
}

/**
 * The clustering of the `edges` table into `labels` (page, label), as the profile asks: star clusters
 * in rounds until no page is undecided; connected components by label propagation until no label
 * changes; for the chain guard, components first, then each split by the guard (MinHash; exact
 * duplicates are identical, so every guard holds and their components stand). Returns the rounds or
 * iterations. spark/dedup_join.py runs the same loop.
 */
export async function clusterEdges(
  clustering: BatchClustering,
  method: BatchMethod,
  s: ClusterSteps,
  log: (line: string) => void,
): Promise<number> {
  let iterations = 0;
  if (clustering === 'star') {
    for (const t of ['star.rank', 'star.before', 'star.init']) await s.run(t);
    for (;;) {
      iterations++;
      await s.run('star.promote');
      await s.swap('star');
      await s.run('star.take');
      await s.swap('star');
      const undecided = await s.count('star.undecided');
      log(`join: star round ${iterations}: ${undecided.toLocaleString('en-US')} pages undecided`);
      if (undecided === 0) break;
    }
    await s.run('star.members');
    await s.run('labels.star');
    return iterations;
  }
  await s.run('labels.init');
  for (;;) {
    iterations++;
    await s.run('labels.step');
    const changed = await s.count('labels.changed');
    await s.swap('labels');
    log(`join: label propagation iteration ${iterations}: ${changed.toLocaleString('en-US')} labels changed`);
    if (changed === 0) break;
  }
  if (clustering === 'guarded' && method === 'minhash') {
    for (const t of ['guard.pairs', 'guard.kept', 'guard']) await s.run(t);
    const groups = await s.regroup();
    await s.swap('labels');
    log(`join: chain guard: ${groups.toLocaleString('en-US')} groups`);
  }
  return iterations;
}

/**
 * The DuckDB side of `regroup`: labels_next starts as guard_kept; the guard table is read component by
 * component (ordered by label), each component's groups appended.
 */
export async function regroupDuckDB(con: DuckDBConnection, floor: number): Promise<number> {
  await con.run('DROP TABLE IF EXISTS labels_next');
  await con.run('CREATE TABLE labels_next AS SELECT page, label FROM guard_kept');
  const appender = await con.createAppender('labels_next');
  const result = await con.stream('SELECT label, a, b, similarity, accepted FROM guard ORDER BY label');
  let groups = 0;
  let current: bigint | null = null;
  let pairs: GuardPair[] = [];
  const flush = () => {
    for (const g of guardedGroups(pairs, floor)) {
      groups++;
      for (const page of g) {
        appender.appendBigInt(page);
        appender.appendBigInt(g[0]);
        appender.endRow();
      }
    }
    pairs = [];
  };
  for await (const rows of result.yieldRows()) {
    for (const [label, a, b, similarity, accepted] of rows) {
      if (label !== current) {
        flush();
        current = label as bigint;
      }
      pairs.push({
        a: a as bigint,
        b: b as bigint,
        similarity: similarity as number,
        accepted: accepted === 1,
      });
    }
  }
  flush();
  appender.closeSync();
  return groups;
}
