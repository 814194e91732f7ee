import { createMD5, createSHA1, createSHA256, createSHA512, type IHasher } from 'hash-wasm';
import { streamInflater } from '../core/codecs/gzip-native';
import type { Hash, Natives } from '../core/ingest/natives';

/**
 * What the browser does for the core faster than its own JavaScript (core/ingest/natives.ts):
 * DecompressionStream's inflate, one gzip member at a time (core/codecs/gzip.ts), and a synchronous
 * SHA-1 compiled to WebAssembly (hash-wasm), for payloads whose record states no digest. WebCrypto's
 * digest is a promise, so a page's digest was only known after its batch, and the body cache had to key
 * such pages by their whole HTML: the core alone in one Chromium worker read a generated 210 MB crawl
 * without digests in 13.1–13.7 s with this SHA-1 against 14.5–15.7 s with WebCrypto's (4 rounds each).
 * jsdom (component tests) has no DecompressionStream: fflate there. Without WebAssembly (a page that
 * forbids it) the core's own SHA-1, with the same digests. SHA-256, SHA-512 and MD5 the same way, for the
 * digests records state (core/ingest/digests.ts): making the four hashers takes ~15 ms once per worker,
 * and hash-wasm's SHA-256 hashes ~210 MB/s in Node 20 where @noble/hashes, the core's own, does ~60.
 */
export function browserNatives(): Promise<Natives> {
  return (ready ??= Promise.all([
    wasmHash(createSHA1),
    wasmHash(createSHA256),
    wasmHash(createSHA512),
    wasmHash(createMD5),
  ]).then(([sha1, sha256, sha512, md5]) => ({
    inflate: typeof DecompressionStream === 'function' ? streamInflater : undefined,
    sha1,
    // For the digests records state (core/ingest/digests.ts): Browsertrix states SHA-256 on every record.
    hashes: { sha256, sha512, md5 },
  })));
}
let ready: Promise<Natives> | null = null;

/** One hash-wasm hasher, reused for every call (synchronous once made); undefined without WebAssembly. */
async function wasmHash(create: () => Promise<IHasher>): Promise<Hash | undefined> {
  try {
    const hasher = await create();
    return (bytes) => hasher.init().update(bytes).digest('binary');
  } catch {
    return undefined;
  }
}
