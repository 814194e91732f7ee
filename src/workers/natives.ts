import { createSHA1 } from 'hash-wasm';
import { streamInflater } from '../core/ingest/gzip';
import type { Natives, Sha1 } from '../core/ingest/natives';

/**
 * What the browser does for the core faster than its own JavaScript (core/ingest/natives.ts):
 * DecompressionStream's inflate, one gzip member at a time (core/ingest/gzip.ts), and a synchronous
 * SHA-1 compiled to WebAssembly (hash-wasm), for payloads whose record states no digest. WebCrypto's
 * digest is a promise, so a page's digest was only known after its batch, and the body cache had to key
 * such pages by their whole HTML: the core alone in one Chromium worker read a generated 210 MB crawl
 * without digests in 13.1–13.7 s with this SHA-1 against 14.5–15.7 s with WebCrypto's (4 rounds each).
 * jsdom (component tests) has no DecompressionStream: fflate there. Without WebAssembly (a page that
 * forbids it) the core's own SHA-1, with the same digests.
 */
export function browserNatives(): Promise<Natives> {
  return (ready ??= wasmSha1().then((sha1) => ({
    inflate: typeof DecompressionStream === 'function' ? streamInflater : undefined,
    sha1,
  })));
}
let ready: Promise<Natives> | null = null;

async function wasmSha1(): Promise<Sha1 | undefined> {
  try {
    const hasher = await createSHA1();
    return (bytes) => hasher.init().update(bytes).digest('binary');
  } catch {
    return undefined;
  }
}
