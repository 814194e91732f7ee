/**
 * A shard's output folder in DIR/shards: where it is (by the shard's name and key), whether a rerun may
 * trust what the map step left there (`checkShard`, against the sizes and SHA-256 in its `_SUCCESS`), and
 * shard names whose keys collide.
 */
import { createHash } from 'node:crypto';
import type { DedupProfile } from '../core/profile';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { shardKey } from '../core/batch/keys';
import { TABLES, type TableName } from '../core/batch/tables';

export interface ShardStats {
  index: number;
  name: string;
  pages: number;
  /** Pages read that are not compared (no text, error status, revisits). */
  skipped: number;
  bandRows: number;
  shingleRows: number;
  bytes: number;
  elapsedMs: number;
  error: string | null;
  /** Each table file as written, checked before a rerun trusts the shard. */
  tables: Record<TableName, TableFile>;
  /** What it was mapped from (a file's absolute path); absent in markers of older versions. */
  source?: string;
  /** The profile it was mapped with (mapKey); absent in markers of older versions. */
  profileKey?: string;
}

/**
 * What of a profile the map step's output depends on, as a short key: the shingles, the MinHash
 * signatures and bands, the SimHash blocks, the text's template and stop words, the DUST rules (the
 * canonical URLs). A shard mapped with another key is not joined with this profile. What only the join
 * reads (thresholds, clustering, captures, the bucket bounds) may differ.
 */
export function mapKey(profile: DedupProfile): string {
  const e = profile.engine;
  const { permutations, seed, threshold } = e.minhash;
  const mapped = {
    shingles: e.shingles,
    minhash: { permutations, seed, threshold },
    stopWords: e.stopWords,
    template: e.template,
    maxHamming: e.maxHamming,
    dust: profile.dust,
  };
  return createHash('sha256').update(JSON.stringify(mapped)).digest('hex').slice(0, 16);
}

/** A table file as the map step wrote it. */
export interface TableFile {
  bytes: number;
  /** Hex SHA-256 of the file. */
  sha256: string;
}

/**
 * A shard's folder, named by the shard's name and key (never by its place in one run's list), so map
 * tasks run apart write apart and a rerun finds its own: shards/crawl-00001.warc.gz-2f3a9c01d4/.
 */
export function shardDir(outDir: string, name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return join(outDir, 'shards', `${safe}-${shardKey(name).toString(16).padStart(10, '0')}`);
}

/** The shard folders in DIR/shards that hold a `_SUCCESS` marker or once did (any state). */
export function shardDirs(outDir: string): string[] {
  const root = join(outDir, 'shards');
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(root, e.name))
    .sort();
}

export async function sha256Of(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * What a rerun finds of shard `index`: nothing (or the output of another file than `name`, when the
 * list changed), a shard whose tables are as the map step wrote them, or a damaged one and why.
 */
export type ShardCheck =
  | { kind: 'absent' }
  | { kind: 'done'; stats: ShardStats }
  | { kind: 'damaged'; name: string | null; reason: string };

/**
 * Reads the `_SUCCESS` of the shard in `dir` (shardDir) and checks each table file against it: there, of the size recorded,
 * of the SHA-256 recorded (the whole file is read again: SHA-256 runs at about 0.7 GB/s on one core of
 * the 2-core test machine).
 */
export async function checkShard(dir: string, name?: string): Promise<ShardCheck> {
  const marker = join(dir, '_SUCCESS');
  if (!existsSync(marker)) return { kind: 'absent' };
  let stats: ShardStats;
  try {
    stats = JSON.parse(readFileSync(marker, 'utf8')) as ShardStats;
  } catch {
    return { kind: 'damaged', name: null, reason: 'its _SUCCESS marker cannot be read' };
  }
  if (name !== undefined && stats.name !== name) return { kind: 'absent' };
  const damaged = (reason: string): ShardCheck => ({ kind: 'damaged', name: stats.name, reason });
  if (!stats.tables) return damaged('its _SUCCESS marker records no checksums (an older version wrote it)');
  for (const t of TABLES) {
    const file = `${t}.parquet`;
    const want = stats.tables[t];
    if (!want) return damaged(`its _SUCCESS marker records no checksum for ${file}`);
    let bytes: number;
    try {
      bytes = statSync(join(dir, file)).size;
    } catch {
      return damaged(`${file} is missing`);
    }
    if (bytes !== want.bytes)
      return damaged(
        `${file} is ${bytes.toLocaleString('en-US')} bytes, ${want.bytes.toLocaleString('en-US')} when it was written`,
      );
    if ((await sha256Of(join(dir, file))) !== want.sha256)
      return damaged(`${file} is not the file written: its SHA-256 differs`);
  }
  return { kind: 'done', stats };
}

/**
 * Two shard names whose keys (keys.ts shardKey) are equal would give their pages the same ids: refused,
 * naming both (rename one file). Returns the keys.
 */
export function collidingKeys(
  names: readonly string[],
  keyOf: (name: string) => bigint = shardKey,
): Map<bigint, string> {
  const keys = new Map<bigint, string>();
  for (const n of names) {
    const k = keyOf(n);
    const other = keys.get(k);
    if (other !== undefined && other !== n)
      throw new Error(
        `shards ${other} and ${n} have the same key (${k.toString(16)}), so their pages would share ids: rename one of the files`,
      );
    keys.set(k, n);
  }
  return keys;
}
