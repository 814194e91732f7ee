/**
 * Python's `zstandard` (the reference library's bindings), pinned, for the tests that need real zstd
 * files: frames with compressed blocks, checksums, windows and dictionaries, which this project cannot
 * write itself (Node 20 has no zstd compressor; scripts/lib/zstd-frames.ts writes Raw blocks only).
 * Installed once into a virtual environment under the user's cache, as the peers and PySpark are, so
 * the README's test command needs no step of its own; a marker after pip succeeds makes a half-done
 * install start over.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const ZSTANDARD_VERSION = '0.25.0';

/** Why real zstd files cannot be made here (no python3), or null. */
export function zstdPrerequisites(): string | null {
  return spawnSync('python3', ['--version']).status === 0 ? null : 'python3 is not installed';
}

/** The venv's python with `zstandard` importable, installing it first when it is not there. */
export function zstdPython(log: (line: string) => void = () => {}): string {
  const venv = join(homedir(), '.cache', 'dedup-workbench', `zstd-venv-${ZSTANDARD_VERSION}`);
  const marker = join(venv, '.installed');
  if (!existsSync(marker)) {
    log(`installing zstandard ${ZSTANDARD_VERSION} into ${venv} (once)…`);
    rmSync(venv, { recursive: true, force: true });
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    execFileSync(
      join(venv, 'bin', 'pip'),
      ['install', '-q', '--disable-pip-version-check', `zstandard==${ZSTANDARD_VERSION}`],
      { stdio: 'inherit' },
    );
    writeFileSync(marker, `zstandard==${ZSTANDARD_VERSION}\n`);
  }
  return join(venv, 'bin', 'python');
}
