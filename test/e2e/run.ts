// The end-to-end runner: starts the workbench with the README's own command (`npm start`, which builds
// and serves dist/), waits until it answers, runs every test/e2e/*.e2e.ts against it in Chromium (E2E_URL),
// then stops the server. A test-only server cannot hide what the README's path serves.
import { spawn } from 'node:child_process';
import { npmStart } from './npm-start';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const PORT = process.env.E2E_PORT ?? '4174';
const URL_ = `http://localhost:${PORT}/`;

process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
const { stop } = await npmStart(PORT);

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
