import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ByteSource } from '../core/ingest/wacz';

/** A file on disk read as a ByteSource; close() when done with it (it holds the file open). */
export type FileSource = ByteSource & { close(): Promise<void> };

/**
 * The file at `path` as a ByteSource, the CLI's counterpart of the browser's blobSource: read(a, b) by
 * positioned reads on one open handle (a WACZ's directory, split planning), stream(a, b) by a read
 * stream of `chunkBytes` a chunk (default 1 MiB). Named by the file's base name unless `name` is given.
 */
export async function fileSource(
  path: string,
  opts: { name?: string; chunkBytes?: number } = {},
): Promise<FileSource> {
  const fh = await open(path, 'r');
  const size = (await fh.stat()).size;
  return {
    name: opts.name ?? basename(path),
    size,
    async read(a, b) {
      const buf = new Uint8Array(Math.max(0, b - a));
      const { bytesRead } = await fh.read(buf, 0, buf.length, a);
      return buf.subarray(0, bytesRead);
    },
    stream: (a, b) =>
      (b <= a
        ? (async function* () {})()
        : createReadStream(path, {
            start: a,
            end: b - 1,
            highWaterMark: opts.chunkBytes ?? 1 << 20,
          })) as AsyncIterable<Uint8Array>,
    close: () => fh.close(),
  };
}
