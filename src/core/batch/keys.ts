/**
 * What the map step computes for one page, from the same core functions the workbench's engine calls
 * (SignatureEngine.add): the shingle set (shingles.ts), its MinHash signature (minhash.ts) and the
 * keys a join on equal values turns into the engine's candidate pairs:
 *
 * - `exact`: one key, the 64-bit text fingerprint (engine: pages with equal, non-empty fingerprints);
 * - `minhash`: one key per LSH band (MMDS §3.4; b × r from bandsForMinimum, as the engine): two pages
 *   share a band's key iff all r rows agree. The engine hashes a band's rows to 32 bits and then
 *   compares the rows themselves; here the key is 64 bits (two independent hashes of the rows), so an
 *   equi-join on it is the row comparison up to a 2⁻⁶⁴ collision, and nothing else needs the rows.
 *
 * Empty shingle sets get no MinHash keys (the engine leaves empty signatures out of LSH: J with an
 * empty set is 0).
 */
import type { EngineParams } from '../candidates/engine-params';
import { bandsForMinimum } from '../signatures/lsh';
import { EMPTY_SLOT, minhashSignature } from '../signatures/minhash';
import { combine32, hash64, mix32 } from '../hash';
import { shingleSet } from '../signatures/shingles';
import { simhashBlocks, simhashOfHashes } from '../signatures/simhash';

/** The methods whose keys the map step writes and the join step verifies. */
export const BATCH_METHODS = ['exact', 'minhash', 'simhash'] as const;
export type BatchMethod = (typeof BATCH_METHODS)[number];

export interface PageKeys {
  /** Sorted distinct 32-bit shingle hashes: exact Jaccard of candidates is computed from these. */
  shingles: Uint32Array;
  /** The exact key (fingerprint as a signed 64-bit integer), or null without text. */
  exact: bigint | null;
  /** One 64-bit key per LSH band (empty when the shingle set is empty). */
  bands: bigint[];
  /** The SimHash of the shingle set (the engine's simhashOfHashes) as a signed 64-bit integer. */
  simhash: bigint;
  /** Its block keys (simhashBlocks at the engine's maxHamming; the whole value for 0). */
  simhashBlocks: bigint[];
}

/** Bands and rows for a profile's MinHash settings (the engine's choice). */
export function bandsOf(p: EngineParams): { bands: number; rows: number } {
  return bandsForMinimum(p.minhash.permutations, p.minhash.threshold);
}

/** The fingerprint's 16 hex digits as a signed 64-bit integer (Parquet INT64, SQL BIGINT). */
export function fingerprintKey(fingerprint: string): bigint | null {
  if (!/^[0-9a-f]{16}$/i.test(fingerprint)) return null;
  return BigInt.asIntN(64, BigInt('0x' + fingerprint));
}

/** A band's 64-bit key: two 32-bit row hashes with different starting values, as one signed integer. */
export function bandKey(sig: Uint32Array, band: number, rows: number): bigint {
  const first = band * rows;
  let h1 = 0x3c6ef372 ^ band;
  let h2 = 0x510e527f ^ band;
  for (let j = 0; j < rows; j++) {
    h1 = combine32(h1, sig[first + j]);
    h2 = combine32(h2, sig[first + j] ^ 0x5bd1e995);
  }
  const hi = mix32(h1 ^ rows) >>> 0;
  const lo = mix32(h2 ^ (rows << 8)) >>> 0;
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}

function isEmptySignature(sig: Uint32Array): boolean {
  for (let i = 0; i < sig.length; i++) if (sig[i] !== EMPTY_SLOT) return false;
  return true;
}

/** Keys of one page's text under the profile's engine parameters. */
export function pageKeys(text: string, fingerprint: string, p: EngineParams): PageKeys {
  const shingles = shingleSet(text, p.shingles);
  const sig = minhashSignature(shingles, p.minhash);
  const { bands, rows } = bandsOf(p);
  const keys: bigint[] = [];
  if (!isEmptySignature(sig)) for (let b = 0; b < bands; b++) keys.push(bandKey(sig, b, rows));
  const [hi, lo] = simhashOfHashes(shingles);
  const simhash = BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
  const blocks = simhashBlocks(hi, lo, p.maxHamming);
  return {
    shingles,
    exact: fingerprint ? fingerprintKey(fingerprint) : null,
    bands: keys,
    simhash,
    simhashBlocks: blocks ? blocks.map((b) => BigInt(b)) : [simhash],
  };
}

/** Bits of a page id that number the page within its shard: 2²⁴ (16,777,216) compared pages a shard. */
export const SEQ_BITS = 24;
/** Bits of a shard's key: with SEQ_BITS, 63 bits, so every id is a positive BIGINT. */
export const SHARD_KEY_BITS = 39;

/**
 * A shard's key: 39 bits of a 64-bit hash of its name (the file's base name), so the same file gets
 * the same ids in every run, on every machine, in any order of the files, and map tasks run
 * independently. Two names may share a key (about 1 in 110 for 100,000 shards): the join refuses such
 * a pair by name rather than merge their pages (src/cli/batch-shards.ts collidingKeys).
 */
export function shardKey(name: string): bigint {
  const [hi, lo] = hash64(name);
  return ((BigInt(hi >>> 0) << 7n) | BigInt((lo >>> 25) & 0x7f)) & ((1n << BigInt(SHARD_KEY_BITS)) - 1n);
}

/** A page's id across the crawl: its shard's key in the high 39 bits, its order in the shard below. */
export function pageId(key: bigint, seq: number): bigint {
  if (!Number.isInteger(seq) || seq < 0 || seq >= 2 ** SEQ_BITS)
    throw new Error(
      `record ${seq.toLocaleString('en-US')} of a shard: a shard holds at most ${(2 ** SEQ_BITS).toLocaleString('en-US')} records (split the file)`,
    );
  return (key << BigInt(SEQ_BITS)) | BigInt(seq);
}
