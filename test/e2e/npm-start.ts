// The workbench as the README starts it (`npm start`: build, then `vite preview`), for the e2e runner
// and the benches that drive the app: a test-only server cannot hide what the README's path serves.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** Starts `npm start` on `port` and waits (up to 180 s) until it answers; `stop` ends it. */
export async function npmStart(port: string): Promise<{ url: string; stop(): void }> {
  const url = `http://localhost:${port}/`;
  const server = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  server.stdout.on('data', (d: Buffer) => (log += d.toString()));
  server.stderr.on('data', (d: Buffer) => (log += d.toString()));
  let exited: number | null = null;
  server.on('exit', (code) => (exited = code ?? 1));
  const stop = () => {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  process.on('exit', stop);
  for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
    if (exited !== null) throw new Error(`\`npm start\` exited (${exited}) before serving:\n${log}`);
    const up = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, stop };
    await new Promise((ok) => setTimeout(ok, 300));
  }
  stop();
  throw new Error(`\`npm start\` did not answer at ${url} within 180 s:\n${log}`);
}
