/**
 * The shards a join reads: the finished ones of the map output (or those named), and with --against an
 * earlier crawl's, checked before anything is removed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProfile, type DedupProfile } from '../core/profile';
import { JOIN_PLAN } from './batch-map';
import { checkShard, collidingKeys, shardDir, shardDirs } from './batch-shards';

/**
 * The finished shards of an earlier crawl's map output, checked before anything is removed: they must
 * have been mapped with the profile's signature parameters (else their band keys and shingles would not
 * compare), and no shard may share an id key with one of the crawl's.
 */
export async function earlierShards(dir: string, profile: DedupProfile, shards: string[]): Promise<string[]> {
  const plan = join(dir, JOIN_PLAN);
  if (!existsSync(plan))
    throw new Error(
      `--against ${dir}: no ${JOIN_PLAN} there; give the output folder of an earlier batch run`,
    );
  let theirs: DedupProfile;
  try {
    theirs = parseProfile(
      JSON.stringify((JSON.parse(readFileSync(plan, 'utf8')) as { profile: unknown }).profile),
    );
  } catch (e) {
    throw new Error(
      `--against ${dir}: ${JOIN_PLAN} holds no usable profile (${e instanceof Error ? e.message : String(e)})`,
      { cause: e },
    );
  }
  const differ = engineDifference(theirs.engine, profile.engine);
  if (differ)
    throw new Error(
      `--against ${dir}: it was mapped with other signature parameters (${differ}); map the earlier crawl again with this profile`,
    );
  const earlier = await joinedShards(dir);
  const names = async (dirs: string[]) =>
    Promise.all(
      dirs.map(async (d) => {
        const c = await checkShard(d);
        return c.kind === 'done' ? c.stats.name : d;
      }),
    );
  const ours = await names(shards);
  const theirNames = await names(earlier);
  const both = ours.filter((n) => theirNames.includes(n));
  if (both.length)
    throw new Error(
      `--against ${dir}: shard ${both[0]} is in both crawls, so their page ids would collide; map the new crawl with --name-prefix (its shards named apart)`,
    );
  collidingKeys([...ours, ...theirNames]);
  return earlier;
}

/** The first engine field (path) whose value differs between two profiles, or null. */
function engineDifference(a: unknown, b: unknown, path = 'engine'): string | null {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = engineDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${path}.${k}`,
      );
      if (d) return d;
    }
    return null;
  }
  return JSON.stringify(a) === JSON.stringify(b)
    ? null
    : `${path}: ${JSON.stringify(a)} there, ${JSON.stringify(b)} here`;
}

/**
 * The folders of the shards to join: every finished shard in DIR, or those named. A damaged one, or a
 * named one not finished, stops the join (map it again); so do two names of one key.
 */
export async function joinedShards(
  outDir: string,
  names?: readonly string[],
  /** The join's profile (mapKey): a shard mapped with another is refused. */
  profileKey?: string,
): Promise<string[]> {
  const dirs = names ? names.map((n) => shardDir(outDir, n)) : shardDirs(outDir);
  const done: { dir: string; name: string }[] = [];
  const damaged: string[] = [];
  for (const [k, dir] of dirs.entries()) {
    const check = await checkShard(dir, names?.[k]);
    if (
      check.kind === 'done' &&
      profileKey !== undefined &&
      check.stats.profileKey !== undefined &&
      check.stats.profileKey !== profileKey
    )
      damaged.push(
        `shard ${check.stats.name}: mapped with another profile (other signature parameters or DUST rules than this join's)`,
      );
    else if (check.kind === 'done') done.push({ dir, name: check.stats.name });
    else if (check.kind === 'damaged')
      damaged.push(`shard ${check.name ?? dir}: its output is damaged (${check.reason})`);
    else if (names) damaged.push(`shard ${names[k]}: not mapped`);
  }
  if (damaged.length)
    throw new Error(
      `${damaged.join('; ')}. Run the map step again with this profile (--step map or all) to map it anew`,
    );
  if (done.length === 0) throw new Error(`no finished shard in ${outDir}: run the map step first`);
  collidingKeys(done.map((d) => d.name));
  return done.map((d) => d.dir);
}
