/**
 * zstd frames made with a dictionary (the WARC zstd layout's), for zstd.ts: decoded by zstd itself
 * compiled to WebAssembly (@bokuweb/zstd-wasm), since fzstd has no dictionaries. The module is loaded and
 * compiled only when a file holds a dictionary (dictReady), then decodes a whole frame at a time.
 */

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Frames made with a dictionary, decoded by zstd itself compiled to WebAssembly (@bokuweb/zstd-wasm:
 * fzstd has no dictionaries); loaded only when a file holds a dictionary.
 */
let wasm: Promise<typeof import('@bokuweb/zstd-wasm')> | null = null;
let wasmReady: typeof import('@bokuweb/zstd-wasm') | null = null;
let dctx = 0;

export async function dictReady(): Promise<void> {
  wasm ??= import('@bokuweb/zstd-wasm').then(async (m) => {
    await m.init();
    return m;
  });
  wasmReady = await wasm;
  dctx ||= wasmReady.createDCtx();
}

export function dictDecode(frame: Uint8Array, dictionary: Uint8Array): Uint8Array {
  return wasmReady!.decompressUsingDict(dctx, frame, dictionary);
}
