/**
 * The field's own tools, pinned, for `npm run bench:peers` (baselines timed in the same run, never a
 * dependency of the product): FastWARC and warcio (WARC reading), Resiliparse (HTML to text),
 * datasketch (MinHash, MinHashLSH). Installed once into a virtual environment under the user's cache
 * (~/.cache/dedup-workbench/peers-venv-<pins>); a marker written after pip succeeds makes a half-done
 * install start over.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PEER_PINS = ['FastWARC==2.0.1', 'Resiliparse==2.0.1', 'warcio==1.8.1', 'datasketch==2.0.0'];

/** The venv's python, installing the pinned peers first when they are not there. */
export function ensurePeersEnv(log: (line: string) => void = () => {}): string {
  const tag = createHash('sha256').update(PEER_PINS.join(' ')).digest('hex').slice(0, 10);
  const venv = join(homedir(), '.cache', 'dedup-workbench', `peers-venv-${tag}`);
  const marker = join(venv, '.installed');
  if (!existsSync(marker)) {
    log(`installing ${PEER_PINS.join(', ')} into ${venv} (once)…`);
    rmSync(venv, { recursive: true, force: true });
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    execFileSync(join(venv, 'bin', 'pip'), ['install', '-q', '--disable-pip-version-check', ...PEER_PINS], {
      stdio: 'inherit',
    });
    writeFileSync(marker, PEER_PINS.join('\n') + '\n');
  }
  return join(venv, 'bin', 'python');
}
