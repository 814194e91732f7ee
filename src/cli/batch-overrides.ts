/**
 * The analyst's decisions in the batch join on DuckDB (core/batch/override-groups.ts): the profile's
 * overrides placed on the crawl's pages (sql/dedup.sql overrides.pages), the clusters they touch
 * regrouped in Node, `labels` written anew. spark/dedup_join.py has the same steps.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { overrideGroups, type IdPair } from '../core/batch/override-groups';
import { profileCanonizer, type DedupProfile } from '../core/profile';
import { normaliseUrl } from '../core/url/normalize';

/** The override URLs as rows of override_urls: decision k, side, normalised URL, canonical URL. */
export function overrideUrlRows(profile: DedupProfile): {
  rows: [number, number, string, string][];
  kinds: ('must' | 'cannot')[];
} {
  const o = profile.overrides;
  const canon = profileCanonizer(profile);
  const rows: [number, number, string, string][] = [];
  const kinds: ('must' | 'cannot')[] = [];
  const norm = (u: string) => {
    try {
      return normaliseUrl(u).href;
    } catch {
      return u;
    }
  };
  for (const [kind, list] of [
    ['must', o?.mustLink ?? []],
    ['cannot', o?.cannotLink ?? []],
  ] as const)
    for (const [x, y] of list) {
      const k = kinds.length;
      kinds.push(kind);
      [x, y].forEach((u, side) => {
        const n = norm(u);
        rows.push([k, side, n, canon(n)]);
      });
    }
  return { rows, kinds };
}

/**
 * Applies the profile's overrides to `labels`; returns what the log says (placed, unplaced, clusters
 * changed, conflicts) or null when the profile has none.
 */
export async function applyOverridesDuckDB(
  con: DuckDBConnection,
  profile: DedupProfile,
  star: boolean,
  run: (name: string) => Promise<unknown>,
  sql: (name: string) => string,
): Promise<{ placed: number; unplaced: number; groups: number; conflicts: number } | null> {
  const { rows, kinds } = overrideUrlRows(profile);
  if (kinds.length === 0) return null;
  await con.run('DROP TABLE IF EXISTS override_urls');
  await con.run('CREATE TABLE override_urls (k INTEGER, side INTEGER, norm VARCHAR, canon VARCHAR)');
  const app = await con.createAppender('override_urls');
  for (const [k, side, n, c] of rows) {
    app.appendInteger(k);
    app.appendInteger(side);
    app.appendVarchar(n);
    app.appendVarchar(c);
    app.endRow();
  }
  app.closeSync();
  await run('overrides.pages');
  const placedRows = (await con.runAndReadAll('SELECT k, side, page FROM override_pages')).getRows();
  const at = new Map<string, bigint>();
  for (const [k, side, page] of placedRows) if (page !== null) at.set(`${k} ${side}`, page as bigint);
  const must: [bigint, bigint][] = [];
  const cannot: [bigint, bigint][] = [];
  let unplaced = 0;
  kinds.forEach((kind, k) => {
    const a = at.get(`${k} 0`);
    const b = at.get(`${k} 1`);
    if (a === undefined || b === undefined || a === b) return void unplaced++;
    (kind === 'must' ? must : cannot).push([a, b]);
  });
  await run('overrides.members');
  const members = (await con.runAndReadAll('SELECT page, label FROM override_members'))
    .getRows()
    .map(([page, label]) => ({ page: page as bigint, label: label as bigint }));
  const pairs: IdPair[] = (await con.runAndReadAll(sql('overrides.pairs'))).getRows().map(([a, b, s]) => ({
    a: a as bigint,
    b: b as bigint,
    similarity: s as number,
  }));
  const { groups, conflicts } = overrideGroups(members, pairs, must, cannot, star);
  await run('overrides.rest');
  const out = await con.createAppender('labels_next');
  for (const g of groups)
    for (const page of g) {
      out.appendBigInt(page);
      out.appendBigInt(g[0]);
      out.endRow();
    }
  out.closeSync();
  await con.run('DROP TABLE labels');
  await con.run('ALTER TABLE labels_next RENAME TO labels');
  return {
    placed: must.length + cannot.length,
    unplaced,
    groups: groups.length,
    conflicts: conflicts.length,
  };
}
