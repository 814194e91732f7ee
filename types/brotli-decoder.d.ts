/**
 * brotli's decoder proper (the package's dec/decode.js): the package types its decompress() only, and
 * its exports map hides this file, which tsconfig.json's `paths` (tsx, esbuild) and vite.config.ts's
 * alias (the app, vitest) resolve. Its streaming entry, as src/core/ingest/http.ts calls it.
 */
declare module 'brotli/dec/decode.js' {
  /**
   * Decodes `input` into `output` until the stream ends; throws on a damaged stream. Before each
   * meta-block it grows `output.buffer` to hold it when it is shorter than the sizes declared so far.
   */
  export function BrotliDecompress(
    input: { read(buf: Uint8Array, at: number, count: number): number },
    output: { buffer: { length: number }; write(buf: Uint8Array, count: number): number },
  ): void;
}
