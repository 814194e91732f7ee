/**
 * Real zstd files, written by the reference library (Python's `zstandard`, pinned, installed once into
 * a cached virtual environment: scripts/lib/zstd-env.ts): frames with compressed blocks and checksums,
 * a stream without content sizes whose frames keep a window, and a frame made with a dictionary. The
 * project's own fixtures (scripts/lib/zstd-frames.ts) hold Raw blocks only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZstdFrames } from '../../../src/core/codecs/zstd';
import { zstdPrerequisites, zstdPython } from '../../../scripts/lib/zstd-env';
import { fixtureBytes, ingestBytes, ingestFailure } from '../helpers';

const missing = zstdPrerequisites();
let dir = '';

/** tiny.warc's records, one a frame in tiny.warc.zst (Raw blocks), by their frames. */
async function tinyRecords(): Promise<Buffer[]> {
  const byFrame = new Map<number, Buffer[]>();
  await new ZstdFrames((data, offset) => {
    const list = byFrame.get(offset) ?? [];
    list.push(Buffer.from(data));
    byFrame.set(offset, list);
  }).push(fixtureBytes('tiny.warc.zst'), true);
  return [...byFrame.values()].map((l) => Buffer.concat(l));
}

beforeAll(async () => {
  if (missing) return;
  dir = mkdtempSync(join(tmpdir(), 'dw-zstd-'));
  const records = (await tinyRecords()).map((r, i) => {
    const p = join(dir, `record-${i}.warc`);
    writeFileSync(p, r);
    return p;
  });
  const jsonl = join(dir, 'pages.jsonl');
  writeFileSync(jsonl, fixtureBytes('pages.jsonl'));
  execFileSync(zstdPython(), [join(import.meta.dirname, 'zstd-real.py'), dir, ...records, jsonl], {
    stdio: 'inherit',
  });
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
const urls = (r: { pages: { page: { url: string } }[] }) => r.pages.map((p) => p.page.url);

describe.skipIf(missing !== null)(
  `zstd files written by the reference library${missing ? ` (${missing})` : ''}`,
  () => {
    it('a WARC compressed a frame per record (level 3, content sizes, checksums): the pages of tiny.warc', async () => {
      const zst = await ingestBytes(file('records.warc.zst'), 'records.warc.zst', { chunkSize: 333 });
      const plain = await ingestBytes(fixtureBytes('tiny.warc'), 'tiny.warc');
      expect(zst.summary.error).toBeNull();
      expect(zst.summary.compression).toBe('zstd');
      expect(urls(zst)).toEqual(urls(plain));
      expect(zst.pages.map((p) => p.content.text)).toEqual(plain.pages.map((p) => p.content.text));
      expect(zst.summary.recordsByType).toEqual(plain.summary.recordsByType);
    });

    it('JSONL at level 19: the pages of pages.jsonl', async () => {
      const zst = await ingestBytes(file('pages.jsonl.zst'), 'pages.jsonl.zst', { chunkSize: 5 });
      const plain = await ingestBytes(fixtureBytes('pages.jsonl'), 'pages.jsonl');
      expect(urls(zst)).toEqual(urls(plain));
    });

    it('a 3 MB stream compressed without content sizes (windowed frames, many blocks) comes out whole', async () => {
      const out: Buffer[] = [];
      const z = new ZstdFrames((data) => out.push(Buffer.from(data)));
      const bytes = file('stream.jsonl.zst');
      for (let at = 0; at < bytes.length; at += 65_536)
        await z.push(bytes.subarray(at, at + 65_536), at + 65_536 >= bytes.length);
      expect(Buffer.concat(out).equals(Buffer.from(file('stream.jsonl')))).toBe(true);
      const run = await ingestBytes(bytes, 'stream.jsonl.zst', { chunkSize: 100_000 });
      expect(run.summary.error).toBeNull();
      expect(run.pages.length).toBe(
        readFileSync(join(dir, 'stream.jsonl'), 'utf8').trim().split('\n').length,
      );
    });

    it('a frame made with a dictionary the file does not hold is refused at its byte, saying how to read it', async () => {
      const { error } = await ingestFailure(file('dict.jsonl.zst'), 'dict.jsonl.zst');
      expect(error.message).toMatch(
        /^dict\.jsonl\.zst at byte 0: a zstd frame made with dictionary \d+, which the file does not hold .*\(zstd -d -D\)$/,
      );
    });

    for (const name of ['dict.warc.zst', 'dict-compressed.warc.zst'])
      it(`${name}: the WARC zstd layout (its dictionary${name.includes('compressed') ? ', zstd-compressed,' : ''} in its first frame, a frame per record made with it) reads as tiny.warc`, async () => {
        const zst = await ingestBytes(file(name), name, { chunkSize: 97 });
        const plain = await ingestBytes(fixtureBytes('tiny.warc'), 'tiny.warc');
        expect(zst.summary.error).toBeNull();
        expect(urls(zst)).toEqual(urls(plain));
        expect(zst.pages.map((p) => p.content.text)).toEqual(plain.pages.map((p) => p.content.text));
      });
  },
);
