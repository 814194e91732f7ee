// The end-to-end runner: starts the workbench with the README's own command (`npm start`, which builds
// and serves dist/), waits until it answers, runs every test/e2e/*.e2e.ts against it in Chromium (E2E_URL),
// then stops the server. A test-only server cannot hide what the README's path serves.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const PORT = process.env.E2E_PORT ?? '4174';
const URL_ = `http://localhost:${PORT}/`;

const server = spawn('npm', ['start'], {
  cwd: ROOT,
  env: { ...process.env, PORT },
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
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

async function waitUntilUp(): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`\`npm start\` exited (${exited}) before serving:\n${log}`);
    try {
      const res = await fetch(URL_);
      if (res.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((ok) => setTimeout(ok, 300));
  }
  throw new Error(`\`npm start\` did not answer at ${URL_} within 180 s:\n${log}`);
}

await waitUntilUp();
console.log(`e2e: \`npm start\` serves ${URL_}`);
const only = process.argv.slice(2);
const files = only.length
  ? only
  : readdirSync(join(ROOT, 'test/e2e'))
      .filter((f) => f.endsWith('.e2e.ts'))
      .sort()
      .map((f) => join('test/e2e', f));
const tests = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
  cwd: ROOT,
  env: { ...process.env, E2E_URL: URL_ },
  stdio: 'inherit',
});
const code: number = await new Promise((ok) => tests.on('exit', (c) => ok(c ?? 1)));
stop();
process.exit(code);
