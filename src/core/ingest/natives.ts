import type { MemberInflater } from '../codecs/gzip-native';

/** A synchronous hash: the digest of `bytes`. */
export type Hash = (bytes: Uint8Array) => Uint8Array;
/** A synchronous SHA-1: the 20-byte digest of `bytes`. */
export type Sha1 = Hash;

/**
 * What the platform does faster than the core's own JavaScript, handed in by whoever runs the core: the
 * browser's workers pass DecompressionStream's inflate and a WebAssembly SHA-1 (src/workers/natives.ts);
 * the CLI and the benches node:zlib and node:crypto (src/cli/natives.ts). The core has no platform
 * imports; without these it uses fflate and text/sha1.ts, and gives the same results.
 */
export interface Natives {
  /** Inflate one gzip member (see gzip-native.ts); default fflate. */
  inflate?: MemberInflater;
  /**
   * SHA-1 of a payload, synchronously, for records without a WARC-Payload-Digest; default text/sha1.ts.
   * Synchronous, so a page's digest is known when it is built (the body cache keys by it). WebCrypto's
   * digest is a promise: in Node ~17 µs a call in promise jobs; on a generated 210 MB WARC.gz (70,101 pages,
   * none with a digest) node:crypto's createHash made the whole read 10.8 → 8.45 s.
   */
  sha1?: Sha1;
  /**
   * The other hashes a WARC states digests in, to check them (digests.ts), synchronously for the same
   * reason; default @noble/hashes (pure JavaScript: SHA-256 at ~60 MB/s in Node 20, where node:crypto
   * hashes ~1 GB/s and hash-wasm ~210 MB/s). Browsertrix states SHA-256 digests on every record.
   */
  hashes?: { sha256?: Hash; sha512?: Hash; md5?: Hash };
}
