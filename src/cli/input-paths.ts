/**
 * Paths named on the command line, as a person would describe them: what a path is (a regular file, a
 * folder, a FIFO, a device…), why it cannot be read (missing, a symbolic link loop, permission denied),
 * and the files of a folder walked recursively with each real folder and file visited once.
 *
 * A path is stat()ed before anything opens it: opening a FIFO for reading waits for a writer, and a
 * device may never end (/dev/zero) or act on being opened.
 */
import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { join, resolve, sep } from 'node:path';

export type FileType = 'file' | 'folder' | 'FIFO' | 'character device' | 'block device' | 'socket';

/** Why a path cannot be read; `InputError` words it. */
export type InputProblem =
  | { kind: 'missing' }
  | { kind: 'broken-link'; target: string }
  | { kind: 'link-loop' }
  | { kind: 'permission'; code: 'EACCES' | 'EPERM'; doing: 'open' | 'list' | 'reach' }
  | { kind: 'not-regular'; type: Exclude<FileType, 'file'>; detail?: string }
  /** A regular file the system says is 0 bytes long that holds bytes (/proc, some FUSE files). */
  | { kind: 'sizeless' }
  | { kind: 'other'; message: string };

const A_TYPE: Record<Exclude<FileType, 'file'>, string> = {
  folder: 'a folder',
  FIFO: 'a FIFO',
  'character device': 'a character device',
  'block device': 'a block device',
  socket: 'a socket',
};

export function problemText(p: InputProblem): string {
  switch (p.kind) {
    case 'missing':
      return 'no such file';
    case 'broken-link':
      return `a symbolic link to ${p.target}, which does not exist`;
    case 'link-loop':
      return 'symbolic link loop: its links lead back to each other, never to a file';
    case 'permission': {
      const what = p.code === 'EPERM' ? 'operation not permitted' : 'permission denied';
      const doing = {
        open: 'it cannot be opened for reading',
        list: 'the folder cannot be listed',
        reach: 'a folder on its way cannot be searched',
      }[p.doing];
      return `${what} (${doing})`;
    }
    case 'not-regular':
      return `not a regular file (${A_TYPE[p.type]}${p.detail ? `, ${p.detail}` : ''})`;
    case 'sizeless':
      return 'the system says it is 0 bytes long but it holds data (as /proc files do): copy it to a file first';
    case 'other':
      return p.message;
  }
}

/** A path that cannot be read, with the reason in words: `PATH: not a regular file (a FIFO)`. */
export class InputError extends Error {
  override name = 'InputError';
  constructor(
    readonly path: string,
    readonly problem: InputProblem,
  ) {
    super(`${path}: ${problemText(problem)}`);
  }
}

/** The InputError for a failed fs call on `path` (`doing`: what the call was for). */
export function inputError(path: string, e: unknown, doing: 'open' | 'list' | 'reach' = 'reach'): InputError {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
    case 'ENOTDIR': {
      // stat() follows links: a link whose target is gone is there for lstat().
      try {
        if (lstatSync(path).isSymbolicLink())
          return new InputError(path, { kind: 'broken-link', target: readlinkSync(path) });
      } catch {
        // Not there at all.
      }
      return new InputError(path, { kind: 'missing' });
    }
    case 'ELOOP':
      return new InputError(path, { kind: 'link-loop' });
    case 'EACCES':
    case 'EPERM':
      return new InputError(path, { kind: 'permission', code: err.code, doing });
    default:
      return new InputError(path, {
        kind: 'other',
        message: err instanceof Error ? err.message : String(e),
      });
  }
}

export function fileType(st: Stats): FileType {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'folder';
  if (st.isFIFO()) return 'FIFO';
  if (st.isCharacterDevice()) return 'character device';
  if (st.isBlockDevice()) return 'block device';
  return 'socket';
}

/** stat() of `path` (links followed), or the InputError that says why there is none. */
export function statInput(path: string): Stats {
  try {
    return statSync(path);
  } catch (e) {
    throw inputError(path, e);
  }
}

/** The InputError for a path that is not a regular file, or null when it is one. */
export function notRegular(path: string, st: Stats): InputError | null {
  const type = fileType(st);
  return type === 'file' ? null : new InputError(path, { kind: 'not-regular', type });
}

/** A small text file named on the command line (a profile, labels, a list): regular files only. */
export function readTextInput(path: string): string {
  const bad = notRegular(path, statInput(path));
  if (bad) throw bad;
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw inputError(path, e, 'open');
  }
}

/**
 * A file another thread or process will read by its path (a batch shard): a regular file that can be
 * opened and holds the bytes its size says, else the InputError that says why not.
 */
export function checkRegularFile(path: string): void {
  const st = statInput(path);
  const bad = notRegular(path, st);
  if (bad) throw bad;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw inputError(path, e, 'open');
  }
  try {
    if (st.size === 0 && readSync(fd, new Uint8Array(1), 0, 1, 0) > 0)
      throw new InputError(path, { kind: 'sizeless' });
  } finally {
    closeSync(fd);
  }
}

/** What a walk found: the files in order, and what it passed over, with why. */
export interface CrawlWalk {
  files: string[];
  skipped: { path: string; reason: string }[];
}

/**
 * The files of the crawl: each argument, a folder's files recursively in path order (numbered WARCs),
 * hidden names left out. Links are followed, but each real folder and file is visited once (by device
 * and inode): a link to a folder above it is a symbolic link loop, a second way to a folder or file
 * already met is passed over; both are listed in `skipped`. Inside a folder, what cannot be a crawl
 * file (a FIFO, a device, a broken link, a link loop) is listed in `skipped` too; a path named on the
 * command line is returned whatever it is (the caller refuses or streams it), except a path that is not
 * there. Permission errors are thrown: part of the crawl would be missing.
 */
export function crawlFiles(paths: string[]): CrawlWalk {
  const seen = new Map<string, string>();
  const files: string[] = [];
  const skipped: CrawlWalk['skipped'] = [];
  const visit = (path: string, named: boolean, above: string | null) => {
    let st: Stats;
    try {
      st = statSync(path);
    } catch (e) {
      const err = inputError(path, e);
      if (named || err.problem.kind === 'permission') throw err;
      skipped.push({ path, reason: problemText(err.problem) });
      return;
    }
    const type = fileType(st);
    if (type === 'folder' && above !== null) {
      // A link to this folder's own ancestor would walk it again, and this folder inside it.
      let real: string;
      try {
        real = realpathSync(path);
      } catch (e) {
        throw inputError(path, e);
      }
      if (above === real || above.startsWith(real === sep ? sep : real + sep)) {
        skipped.push({ path, reason: `symbolic link loop: it leads back to ${real}, a folder above it` });
        return;
      }
    }
    const key = `${st.dev}:${st.ino}`;
    const first = seen.get(key);
    if (first !== undefined) {
      skipped.push({
        path,
        reason: `the same ${type === 'folder' ? 'folder' : 'file'} as ${first}, read once`,
      });
      return;
    }
    seen.set(key, path);
    if (type === 'folder') {
      let names: string[];
      let real: string;
      try {
        names = readdirSync(path);
        real = realpathSync(path);
      } catch (e) {
        throw inputError(path, e, 'list');
      }
      for (const f of names.filter((n) => !n.startsWith('.')).sort()) visit(join(path, f), false, real);
      return;
    }
    if (named || type === 'file') files.push(path);
    else skipped.push({ path, reason: problemText({ kind: 'not-regular', type }) });
  };
  for (const p of paths) visit(p, true, null);
  return { files, skipped };
}

/**
 * `npm run X -- FILE` starts in the project root; npm names the folder it was run in INIT_CWD. The
 * commands read relative paths from there, so a command printed by the workbench (a profile and crawl
 * files named as they lie beside each other) runs as printed from the folder holding them.
 */
export function fromInvokingFolder(script: string): void {
  // Only when this command is the npm script run: a process spawned under another script (npm test)
  // inherits INIT_CWD without having been started there.
  if (process.env.npm_lifecycle_event !== script) return;
  const from = process.env.INIT_CWD;
  if (!from || from === process.cwd()) return;
  // tsx reads the project's tsconfig from the working directory (a worker registering it too): named
  // here before the move.
  process.env.TSX_TSCONFIG_PATH ??= resolve('tsconfig.json');
  process.chdir(from);
}
