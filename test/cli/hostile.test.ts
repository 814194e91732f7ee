/**
 * The hostile corpus (scripts/lib/hostile.ts, generated here at small sizes) read by the CLI's core in
 * a child process (scripts/read-crawl.ts), each with a time limit that fails instead of hanging: the
 * pages before and after each fault are kept, the read says what happened naming the file and the
 * offset, and memory stays bounded (npm run bench:hostile runs the trial's sizes, in Chromium too).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_SIZES, writeHostileCorpus } from '../../scripts/lib/hostile';

const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cases = writeHostileCorpus(dir, TEST_SIZES);

interface Read {
  urls: string[];
  notes: [string, string][];
  error: { message: string; offset: number } | null;
  warnings: { message: string; offset: number }[];
  skipped: Record<string, number>;
  peakRssMB: number;
}

describe('hostile inputs through the CLI core', () => {
  for (const c of cases) {
    it(c.name, () => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/read-crawl.ts', c.path], {
        encoding: 'utf8',
        timeout: 60_000,
        killSignal: 'SIGKILL',
        maxBuffer: 64 << 20,
      });
      expect(r.signal, `${c.name}: killed (time limit) ${r.stderr}`).toBeNull();
      expect(r.status, `${c.name}: ${r.stderr}`).toBe(0);
      const read = JSON.parse(r.stdout.trim().split('\n').pop()!) as Read;
      for (const url of c.keep) expect(read.urls, `${c.name}: ${url} lost`).toContain(url);
      if (c.says) {
        const said = [
          ...(read.error ? [read.error] : []),
          ...read.warnings,
          ...read.notes.map(([, note]) => ({ message: note, offset: -1 })),
          ...Object.keys(read.skipped).map((k) => ({ message: k, offset: -1 })),
        ];
        const hit = said.find((m) => c.says!.test(m.message));
        expect(hit, `${c.name}: ${JSON.stringify(said)}`).toBeDefined();
        if (c.offset >= 0) {
          expect(hit!.message, c.name).toContain(basename(c.path));
          expect(hit!.offset, `${c.name}: ${hit!.message}`).toBe(c.offset);
          expect(hit!.message, c.name).toContain(`byte ${c.offset.toLocaleString('en-US')}`);
        }
      }
      expect(read.peakRssMB, `${c.name}: peak RSS`).toBeLessThan(1024);
    });
  }
});
