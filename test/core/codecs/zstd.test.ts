import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random';
import { isZstd, ZstdFrames } from '../../../src/core/codecs/zstd';
import { skippableFrame, zstdFrame } from '../../../scripts/lib/zstd-frames';
import { fixtureBytes, ingestBytes, ingestFailure } from '../helpers';

const strip = (p: { page: { url: string; title: string; fingerprint: string; recordType: string } }) => ({
  url: p.page.url,
  title: p.page.title,
  fingerprint: p.page.fingerprint,
  recordType: p.page.recordType,
});

/** Frame starts of a file made of the given frames. */
function starts(frames: Uint8Array[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const f of frames) {
    out.push(at);
    at += f.length;
  }
  return out;
}

describe('zstd files', () => {
  it('tiny.warc.zst: the pages of tiny.warc.gz, each record at its frame', async () => {
    const zst = await ingestBytes(fixtureBytes('tiny.warc.zst'), 'tiny.warc.zst');
    const gz = await ingestBytes(fixtureBytes('tiny.warc.gz'), 'tiny.warc.gz');
    expect(zst.formats).toEqual([{ format: 'warc', compressed: true }]);
    expect(zst.summary.compression).toBe('zstd');
    expect(zst.summary.error).toBeNull();
    expect(zst.pages.map(strip)).toEqual(gz.pages.map(strip));
    expect(zst.summary.recordsByType).toEqual(gz.summary.recordsByType);
    expect(zst.pages.map((p) => p.content.text)).toEqual(gz.pages.map((p) => p.content.text));
    // Offsets are frame starts (as a WARC.gz's are member starts), in order.
    const offsets = zst.pages.map((p) => p.page.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    const bytes = fixtureBytes('tiny.warc.zst');
    for (const o of offsets) expect(isZstd(bytes.subarray(o, o + 4)), `offset ${o}`).toBe(true);
  });

  it('pages.jsonl.zst: the pages of pages.jsonl, across its two frames', async () => {
    const zst = await ingestBytes(fixtureBytes('pages.jsonl.zst'), 'pages.jsonl.zst', { chunkSize: 7 });
    const plain = await ingestBytes(fixtureBytes('pages.jsonl'), 'pages.jsonl');
    expect(zst.summary.format).toBe('jsonl');
    expect(zst.pages.map(strip)).toEqual(plain.pages.map(strip));
  });

  it('a WARC zstd file with its dictionary (its first frame) is read with it', async () => {
    const zst = await ingestBytes(fixtureBytes('tiny-dictionary.warc.zst'), 'd.warc.zst', { chunkSize: 100 });
    const gz = await ingestBytes(fixtureBytes('tiny.warc.gz'), 'tiny.warc.gz');
    expect(zst.summary.error).toBeNull();
    expect(zst.pages.map(strip)).toEqual(gz.pages.map(strip));
  });

  it('a frame made with a dictionary the file does not hold is refused, saying how to read it', async () => {
    const frame = zstdFrame(Buffer.from('{"url":"http://z.test/","text":"x"}\n'), 0x7a57);
    const { error, onFormatCalls } = await ingestFailure(frame, 'd.jsonl.zst');
    expect(onFormatCalls).toBe(0);
    expect(error.message).toBe(
      'd.jsonl.zst at byte 0: a zstd frame made with dictionary 31319, which the file does not hold (the WARC zstd layout puts it in its first frame): decompress it with its dictionary first (zstd -d -D)',
    );
  });

  it('a file cut inside a frame keeps the records of the frames before it', async () => {
    const records = ['a', 'b', 'c'].map((x) =>
      Buffer.from(`{"url":"http://z.test/${x}","text":"page ${x}"}\n`),
    );
    const frames = records.map((r) => zstdFrame(r));
    const whole = Buffer.concat(frames);
    // Past its header (9 bytes) and its block header (3), inside its data.
    const cut = whole.subarray(0, starts(frames)[2] + 14);
    const run = await ingestBytes(cut, 'cut.jsonl.zst');
    expect(run.pages.map((p) => p.page.url)).toEqual(['http://z.test/a', 'http://z.test/b']);
    expect(run.summary.error?.message).toBe(
      `cut.jsonl.zst at byte ${starts(frames)[2]}: truncated zstd frame: the file ends inside the frame that starts at byte ${starts(frames)[2]}`,
    );
  });

  it('refuses what would make it hold too much: a 2 GB frame declared in 20 bytes, a window past 32 MiB', async () => {
    // Single segment, content size 2^31: fzstd would allocate it whole.
    const big = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, (2 << 6) | (1 << 5), 0, 0, 0, 0x80, 1, 0, 0]);
    const a = await ingestFailure(big, 'big.zst');
    expect(a.error.message).toBe(
      'big.zst at byte 0: a zstd frame whose window is 2048 MiB (made with --long or --ultra): over the 32 MiB this reader keeps; decompress it first (zstd -d)',
    );
    // A window descriptor of 2^27 (exponent 17).
    const wide = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 17 << 3, 1, 0, 0]);
    const b = await ingestFailure(wide, 'wide.zst');
    expect(b.error.message).toMatch(/window is 128 MiB .*over the 32 MiB/);
    // Bytes after the frames that are not a frame: read past, and said with their offsets.
    const first = zstdFrame(Buffer.from('{"url":"http://z.test/","text":"x"}\n'));
    const junk = Buffer.concat([first, Buffer.from('junk')]);
    const c = await ingestBytes(junk, 'junk.jsonl.zst');
    expect(c.pages).toHaveLength(1);
    expect(c.summary.error).toBeNull();
    expect(c.summary.warnings.map((w) => w.reason)).toContain(
      `bytes ${first.length}–${junk.length} (4 bytes) skipped: bytes after a zstd frame that are not a frame (they start 6a 75 6e 6b); reading resumed after it`,
    );
  });

  const seed = Number(process.env.ZSTD_SEED ?? Math.floor(Math.random() * 1e9));
  it(`random content in random frames, skippable frames between, pushed in random pieces, comes out whole (seed ${seed}; ZSTD_SEED=… to replay)`, async () => {
    const rnd = seededRandom(seed);
    for (let t = 0; t < 40; t++) {
      const content = Buffer.from(
        Array.from({ length: Math.floor(rnd() * 400_000) }, () => Math.floor(rnd() * 256)),
      );
      const frames: Buffer[] = [];
      const frameOf: number[] = [];
      let at = 0;
      while (at < content.length || frames.length === 0) {
        const n = Math.min(content.length - at, Math.floor(rnd() * 300_000));
        // Any skippable frame but 0x184D2A5D, which at the start is the WARC zstd layout's dictionary.
        if (rnd() < 0.2) frames.push(skippableFrame(Buffer.from('skip me'), Math.floor(rnd() * 13)));
        frameOf.push(frames.length);
        frames.push(zstdFrame(content.subarray(at, at + n)));
        at += n;
      }
      const file = Buffer.concat(frames);
      const out: Buffer[] = [];
      const offsets = new Set<number>();
      const z = new ZstdFrames((data, offset) => {
        out.push(Buffer.from(data));
        offsets.add(offset);
      });
      for (let p = 0; p < file.length;) {
        const n = 1 + Math.floor(rnd() * 70_000);
        await z.push(file.subarray(p, p + n), p + n >= file.length);
        p += n;
      }
      if (file.length === 0) await z.push(new Uint8Array(0), true);
      const where = `seed ${seed}, case ${t}`;
      expect(Buffer.concat(out).equals(content), where).toBe(true);
      const frameStarts = starts(frames);
      for (const o of offsets)
        expect(
          frameOf.map((k) => frameStarts[k]),
          where,
        ).toContain(o);
    }
  });
});
