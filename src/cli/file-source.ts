import { constants, createReadStream, type Stats } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { ByteSource } from '../core/ingest/wacz';
import { fileType, inputError, InputError, notRegular, statInput } from './input-paths';

/**
 * A file on disk read as a ByteSource; close() when done with it (it holds the file open). `path` is
 * where its bytes are: the file itself, or the copy a pipe or a sizeless file was read into.
 */
export type FileSource = ByteSource & { path: string; close(): Promise<void> };

/** Opened without waiting: a FIFO opened for reading otherwise waits for a writer, forever if none comes. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
/** How long to wait before reading a pipe again when its writer has not written yet. */
const PIPE_POLL_MS = 20;

/**
 * The file at `path` as a ByteSource, the CLI's counterpart of the browser's blobSource: read(a, b) by
 * positioned reads on one open handle (a WACZ's directory, split planning), stream(a, b) by a read
 * stream of `chunkBytes` a chunk (default 1 MiB). Named by the file's base name unless `name` is given.
 *
 * What is not a regular file is refused with an InputError (`not a regular file (a character device)`)
 * before it is opened, except a pipe (a FIFO, `/dev/stdin`) with a writer, which is read to its end into
 * a temporary file and read from there, as is a regular file the system says is empty but that holds
 * bytes (/proc files): the core needs a size and positioned reads.
 */
export async function fileSource(
  path: string,
  opts: { name?: string; chunkBytes?: number } = {},
): Promise<FileSource> {
  const name = opts.name ?? basename(path);
  const before = statInput(path);
  const type = fileType(before);
  // A device is never opened: /dev/zero never ends, and opening some devices does something.
  if (type !== 'file' && type !== 'FIFO') throw new InputError(path, { kind: 'not-regular', type });
  let fh: FileHandle;
  try {
    fh = await open(path, OPEN_FLAGS);
  } catch (e) {
    throw inputError(path, e, 'open');
  }
  let st: Stats;
  try {
    st = await fh.stat();
    const bad = st.isFIFO() ? null : notRegular(path, st);
    if (bad) throw bad;
    if (st.isFile() && (st.size > 0 || !(await holdsBytes(fh)))) return onDisk(path, fh, st, name, opts);
  } catch (e) {
    await fh.close();
    throw e;
  }
  try {
    return await spooled(path, fh, name, opts, st.isFIFO());
  } finally {
    await fh.close();
  }
}

function onDisk(
  path: string,
  fh: FileHandle,
  st: Stats,
  name: string,
  opts: { chunkBytes?: number },
  cleanUp: () => Promise<void> = async () => {},
): FileSource {
  return {
    name,
    size: st.size,
    path,
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
    close: async () => {
      await fh.close();
      await cleanUp();
    },
  };
}

/** A regular file of size 0 that reads bytes all the same (/proc, /sys, some FUSE files). */
async function holdsBytes(fh: FileHandle): Promise<boolean> {
  const { bytesRead } = await fh.read(new Uint8Array(1), 0, 1, 0);
  return bytesRead > 0;
}

/**
 * Reads `fh` to its end into a temporary file and gives that file as the source (removed on close);
 * the caller closes `fh`.
 * A pipe is open without blocking: a read with nothing written yet fails with EAGAIN while a writer holds
 * it (wait and read again) and returns 0 bytes when no writer does (its end, or no writer ever).
 */
async function spooled(
  path: string,
  fh: FileHandle,
  name: string,
  opts: { chunkBytes?: number },
  pipe: boolean,
): Promise<FileSource> {
  const buf = new Uint8Array(1 << 16);
  const readSome = async (): Promise<number> => {
    for (;;) {
      try {
        return (await fh.read(buf, 0, buf.length, null)).bytesRead;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw inputError(path, e, 'open');
        await new Promise((r) => setTimeout(r, PIPE_POLL_MS));
      }
    }
  };
  let n = await readSome();
  if (pipe && n === 0)
    throw new InputError(path, {
      kind: 'not-regular',
      type: 'FIFO',
      detail: 'with no writer: nothing to read',
    });
  const dir = await mkdtemp(join(tmpdir(), 'dedup-input-'));
  const copy = join(dir, name.replace(/[/\\]/g, '_') || 'input');
  const cleanUp = () => rm(dir, { recursive: true, force: true });
  try {
    const out = await open(copy, 'w');
    try {
      for (; n > 0; n = await readSome()) await out.write(buf, 0, n);
    } finally {
      await out.close();
    }
    const copied = await open(copy, 'r');
    return onDisk(copy, copied, await copied.stat(), name, opts, cleanUp);
  } catch (e) {
    await cleanUp();
    throw e;
  }
}
