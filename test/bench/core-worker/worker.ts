/**
 * bench:ingest's "chromium core" row: the core's ingest() alone in one dedicated worker — the browser's
 * natives (DecompressionStream's inflate, a WebAssembly SHA-1), as the app's ingest worker uses them — with
 * no storage, no UI and no second worker. What the app adds on top of it is the difference between the
 * two Chromium rows. Bundled by the bench with esbuild (test/bench/ingest.ts), never part of the app.
 */
import { ingestCrawl } from '../../../src/core/ingest/many-files';
import type { ByteSource } from '../../../src/core/ingest/wacz';
import { browserNatives } from '../../../src/workers/natives';

onmessage = async (e: MessageEvent<{ file: File }>) => {
  const { file } = e.data;
  const src: ByteSource = {
    name: file.name,
    size: file.size,
    read: async (a, b) => new Uint8Array(await file.slice(a, b).arrayBuffer()),
    stream: (a, b) => file.slice(a, b).stream() as unknown as AsyncIterable<Uint8Array>,
  };
  const natives = await browserNatives(); // compiled before the clock starts, as the app's spare worker does
  const t0 = performance.now();
  let pages = 0;
  const s = await ingestCrawl([src], { natives }, async (batch) => {
    pages += batch.length;
  });
  postMessage({ ms: performance.now() - t0, pages, summaryPages: s.pages });
};
