import { crc32, deflateRawSync, gunzipSync, gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { FormatFault } from '../../../src/core/ingest/errors';
import { isGzip, MultiGunzip } from '../../../src/core/codecs/gzip';
import { streamInflater, type MemberInflater } from '../../../src/core/codecs/gzip-native';
import { zlibInflater } from '../../../src/cli/natives';
import { seededRandom } from '../../../src/core/random';
import { concat, fixtureBytes, fixtureCounts, randomBytes, utf8Bytes } from '../helpers';

interface Output {
  data: Uint8Array;
  /** Decoded length per member offset, in order of first appearance. */
  byOffset: [number, number][];
  members: number;
}

/**
 * The inflaters every MultiGunzip test runs with: fflate alone (the JS path), node:zlib as the CLI passes
 * it (src/cli/natives.ts, synchronous) and the web platform's DecompressionStream as the browser passes it
 * (asynchronous). Output, member offsets and faults must be the same with each.
 */
const INFLATERS: [string, MemberInflater | undefined][] = [
  ['fflate', undefined],
  ['node:zlib', zlibInflater],
  ['DecompressionStream', streamInflater],
];
let inflater: MemberInflater | undefined;
const gunzipper = (sink: (d: Uint8Array, off: number) => unknown) =>
  new MultiGunzip((d, off) => void sink(d, off), 0, inflater);

/** Push `data` into a MultiGunzip cut at the given positions (then final) and collect the output. */
async function gunzipAt(data: Uint8Array, cuts: number[]): Promise<Output> {
  const parts: Uint8Array[] = [];
  const byOffset: [number, number][] = [];
  const g = gunzipper((d, off) => {
    parts.push(d.slice());
    const last = byOffset[byOffset.length - 1];
    if (last && last[0] === off) last[1] += d.length;
    else byOffset.push([off, d.length]);
  });
  let from = 0;
  for (const c of [...cuts, data.length]) {
    await g.push(data.slice(from, c), false);
    from = c;
  }
  await g.push(new Uint8Array(0), true);
  return { data: concat(...parts), byOffset, members: g.members };
}

function gunzipInPieces(data: Uint8Array, size: number): Promise<Output> {
  const cuts: number[] = [];
  for (let i = size; i < data.length; i += size) cuts.push(i);
  return gunzipAt(data, cuts);
}

function members(...payloads: Uint8Array[]): { file: Uint8Array; offsets: number[] } {
  const gz = payloads.map((p) => new Uint8Array(gzipSync(p, { level: 9 })));
  const offsets: number[] = [];
  gz.reduce((o, m) => (offsets.push(o), o + m.length), 0);
  return { file: concat(...gz), offsets };
}

/** Does `b` contain the bytes 1f 8b 08 followed by a FLG byte with the reserved bits clear, after `from`? */
function containsMagic(b: Uint8Array, from: number): boolean {
  for (let i = from; i + 3 < b.length; i++) {
    if (b[i] === 0x1f && b[i + 1] === 0x8b && b[i + 2] === 8 && (b[i + 3] & 0xe0) === 0) return true;
  }
  return false;
}

const textPayloads = [1, 2, 3, 4, 5].map((i) =>
  utf8Bytes(`WARC/1.1\r\nmember ${i}\r\n\r\n${'Some text that compresses well. '.repeat(i * 7)}\r\n\r\n`),
);

describe('isGzip', () => {
  it('recognises the gzip magic with deflate method', () => {
    expect(isGzip(new Uint8Array([0x1f, 0x8b, 0x08, 0]))).toBe(true);
    expect(isGzip(new Uint8Array([0x1f, 0x8b, 0x07, 0]))).toBe(false);
    expect(isGzip(new Uint8Array([0x1f, 0x8b]))).toBe(false);
    expect(isGzip(utf8Bytes('WARC/1.0'))).toBe(false);
  });
});

describe.each(INFLATERS)('MultiGunzip with %s', (_name, inf) => {
  beforeEach(() => {
    inflater = inf;
  });

  it('inflates concatenated members to what zlib.gunzipSync gives for the whole file', async () => {
    const { file, offsets } = members(...textPayloads);
    const out = await gunzipInPieces(file, file.length);
    expect(out.data).toEqual(new Uint8Array(gunzipSync(file)));
    expect(out.byOffset).toEqual(offsets.map((o, i) => [o, textPayloads[i].length]));
    expect(out.members).toBe(5);
  });

  it('gives the same output whatever the piece size (whole, 1000, 333 bytes)', async () => {
    const { file } = members(...textPayloads);
    const whole = await gunzipInPieces(file, file.length);
    for (const size of [1000, 333]) expect(await gunzipInPieces(file, size)).toEqual(whole);
  });

  // Regression test (fixed in src).
  it('splits members correctly wherever the input is cut', async () => {
    const { file } = members(textPayloads[0], textPayloads[1], textPayloads[2]);
    const whole = await gunzipAt(file, []);
    for (let cut = 1; cut < file.length; cut++) {
      expect(await gunzipAt(file, [cut]), `cut at ${cut}`).toEqual(whole);
    }
  });

  it('is not fooled by gzip magic bytes inside a member’s compressed data', async () => {
    // Level 0 stores the payload literally, so the member's compressed bytes contain the magic (and even a
    // whole gzip member: think of a WARC record whose HTTP body is gzip-encoded).
    const inner = new Uint8Array(gzipSync(utf8Bytes('inner gzip member '.repeat(5))));
    const tricky = concat(
      utf8Bytes('before '),
      new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0xff]),
      utf8Bytes(' middle '),
      inner,
      utf8Bytes(' after'),
    );
    const m1 = new Uint8Array(gzipSync(tricky, { level: 0 }));
    expect(containsMagic(m1, 1)).toBe(true);
    const m2 = new Uint8Array(gzipSync(textPayloads[0]));
    const m3 = new Uint8Array(gzipSync(concat(inner, inner), { level: 0 }));
    const file = concat(m1, m2, m3);
    for (const size of [file.length, 1000, 100]) {
      const out = await gunzipInPieces(file, size);
      expect(out.data).toEqual(new Uint8Array(gunzipSync(file)));
      expect(out.byOffset).toEqual([
        [0, tricky.length],
        [m1.length, textPayloads[0].length],
        [m1.length + m2.length, inner.length * 2],
      ]);
    }
  });

  it('finds a false magic in real deflate output (random data searched by seed) and still splits correctly', async () => {
    // Incompressible data makes zlib emit stored blocks; search seeds for a member containing a magic.
    let found: Uint8Array | null = null;
    for (let seed = 1; seed < 400 && !found; seed++) {
      const next = seededRandom(seed);
      const data = randomBytes(4096, seed);
      // Plant the magic at a random place in about half the tries, so the search is quick but not trivial.
      if (next() < 0.5) data.set([0x1f, 0x8b, 0x08, 0x04], Math.floor(next() * 4000));
      const gz = new Uint8Array(gzipSync(data, { level: 6 }));
      if (containsMagic(gz, 1)) found = gz;
    }
    expect(found).not.toBeNull();
    const tail = new Uint8Array(gzipSync(textPayloads[1]));
    const file = concat(found!, tail);
    const out = await gunzipInPieces(file, file.length);
    expect(out.data).toEqual(new Uint8Array(gunzipSync(file)));
    expect(out.byOffset.map(([o]) => o)).toEqual([0, found!.length]);
  });

  it("hands members of the native inflater's minBytes and more to it, smaller ones to fflate, same bytes out", async () => {
    const payloads = [0, 1, 2, 3, 4, 5].map((i) =>
      i % 2 ? textPayloads[i % 5] : randomBytes(9000 + i * 700, i),
    );
    const { file, offsets } = members(...payloads);
    const calls: number[] = [];
    const outer = inflater;
    const min = outer?.minBytes ?? 0;
    if (outer)
      inflater = Object.assign(
        (m: Uint8Array, max: number) => {
          calls.push(m.length);
          return outer(m, max);
        },
        { minBytes: min },
      );
    const out = await gunzipInPieces(file, 1000);
    expect(out.data).toEqual(concat(...payloads));
    expect(out.byOffset.map(([o]) => o)).toEqual(offsets);
    const sizes = offsets.map((o, i) => (offsets[i + 1] ?? file.length) - o);
    const big = sizes.filter((n) => n >= min);
    // The payloads make three members of more than 8 KiB (random bytes) and three of less (text).
    expect(sizes.filter((n) => n >= 8192).length).toBe(3);
    expect(big.length).toBe(min > 0 ? 3 : 6);
    expect(calls).toEqual(outer ? big : []);
  });

  it('reads members with FEXTRA, FNAME, FCOMMENT and FHCRC header fields', async () => {
    const payload = utf8Bytes('payload behind a long gzip header');
    const deflated = new Uint8Array(deflateRawSync(payload));
    const trailer = new Uint8Array(8);
    const dv = new DataView(trailer.buffer);
    dv.setUint32(0, crc32(payload), true);
    dv.setUint32(4, payload.length, true);
    const fields = concat(
      new Uint8Array([0x1f, 0x8b, 0x08, 4 | 8 | 16 | 2, 0, 0, 0, 0, 0, 0xff]),
      new Uint8Array([5, 0, 1, 2, 3, 4, 5]), // FEXTRA: length 5
      utf8Bytes('name.warc\0'),
      utf8Bytes('a comment\0'),
    );
    const hcrc = crc32(fields) & 0xffff; // FHCRC: low 16 bits of the header's CRC-32
    const header = concat(fields, new Uint8Array([hcrc & 0xff, hcrc >> 8]));
    const member = concat(header, deflated, trailer);
    expect(new Uint8Array(gunzipSync(member))).toEqual(payload);
    const file = concat(member, new Uint8Array(gzipSync(textPayloads[0])));
    const out = await gunzipInPieces(file, file.length);
    expect(out.data).toEqual(new Uint8Array(gunzipSync(file)));
    expect(out.byOffset).toEqual([
      [0, payload.length],
      [member.length, textPayloads[0].length],
    ]);
  });

  // Regression test (fixed in src).
  it('ignores zero padding after the last member', async () => {
    const { file } = members(textPayloads[0], textPayloads[1]);
    const out = await gunzipInPieces(concat(file, new Uint8Array(512)), 100);
    expect(out.data).toEqual(concat(textPayloads[0], textPayloads[1]));
  });

  it('faults on junk after the last member or between members', async () => {
    const { file } = members(textPayloads[0], textPayloads[1]);
    const sink: Uint8Array[] = [];
    const g = gunzipper((d) => sink.push(d.slice()));
    await expect(g.push(concat(file, utf8Bytes('this is not gzip')), true)).rejects.toThrow(FormatFault);
    // Both members before the junk came out.
    expect(concat(...sink)).toEqual(concat(textPayloads[0], textPayloads[1]));

    const between = concat(members(textPayloads[0]).file, utf8Bytes('junk!'), members(textPayloads[1]).file);
    await expect(gunzipInPieces(between, between.length)).rejects.toThrow(FormatFault);
  });

  // Regression test (fixed in src).
  it('reports junk after a member at the junk’s offset and keeps that member', async () => {
    for (const after of [new Uint8Array(0), new Uint8Array(gzipSync(textPayloads[1]))]) {
      const { file } = members(textPayloads[0]);
      const data = concat(file, utf8Bytes('junk!'), after);
      const sink: Uint8Array[] = [];
      const g = gunzipper((d) => sink.push(d.slice()));
      let fault: unknown = null;
      try {
        await g.push(data, true);
      } catch (e) {
        fault = e;
      }
      expect(fault).toBeInstanceOf(FormatFault);
      expect((fault as FormatFault).offset).toBe(file.length);
      expect((fault as FormatFault).message).toMatch(/not another gzip member/);
      expect(concat(...sink)).toEqual(textPayloads[0]);
    }
  });

  it('faults on a truncated last member at that member’s offset', async () => {
    const { file, offsets } = members(textPayloads[0], textPayloads[1], textPayloads[2]);
    const cut = offsets[2] + 20;
    const sink: Uint8Array[] = [];
    const g = gunzipper((d) => sink.push(d.slice()));
    await g.push(file.slice(0, cut), false);
    await expect(g.push(new Uint8Array(0), true)).rejects.toThrow(/truncated gzip/);
    let fault: unknown = null;
    try {
      await gunzipper(() => {}).push(file.slice(0, cut), true);
    } catch (e) {
      fault = e;
    }
    expect(fault).toBeInstanceOf(FormatFault);
    expect((fault as FormatFault).offset).toBe(offsets[2]);
    // The two whole members came out before the fault, then what the cut member inflates to: a
    // prefix of its payload (records inside it that are whole are not lost).
    expect(concat(...sink.slice(0, 2))).toEqual(concat(textPayloads[0], textPayloads[1]));
    const rest = concat(...sink.slice(2));
    expect(rest).toEqual(textPayloads[2].subarray(0, rest.length));
  });

  it('hands on the inflatable prefix of a whole-file gzip cut in the middle', async () => {
    // Incompressible data, so a cut at 70% of the file is about 70% into the payload.
    const whole = randomBytes(200_000, 7);
    const file = new Uint8Array(gzipSync(whole, { level: 9 }));
    const sink: Uint8Array[] = [];
    const g = gunzipper((d) => sink.push(d.slice()));
    let fault: FormatFault | null = null;
    try {
      await g.push(file.slice(0, Math.floor(file.length * 0.7)), true);
    } catch (e) {
      fault = e as FormatFault;
    }
    expect(fault?.message).toMatch(/truncated gzip.*bytes it inflates to were read/);
    const out = concat(...sink);
    expect(out.length).toBeGreaterThan(100_000);
    expect(out).toEqual(whole.subarray(0, out.length));
  });

  it('faults on a corrupt member at its offset (garbage-middle.warc.gz)', async () => {
    const data = fixtureBytes('garbage-middle.warc.gz');
    const offsets = fixtureCounts['garbage-middle.warc.gz'].member_offsets as number[];
    const seen: number[] = [];
    const g = gunzipper((_d, off) => seen.push(off));
    let fault: unknown = null;
    try {
      await g.push(data, true);
    } catch (e) {
      fault = e;
    }
    expect(fault).toBeInstanceOf(FormatFault);
    expect((fault as FormatFault).offset).toBe(offsets[2]);
    expect((fault as FormatFault).message).toMatch(/corrupt gzip member: invalid block type/);
    expect(seen).toEqual([offsets[0], offsets[1]]);
  });

  it('streams a member over 32 MiB compressed and keeps member offsets for what follows', async () => {
    const raw = randomBytes(33 << 20, 7);
    const big = new Uint8Array(gzipSync(raw, { level: 1 }));
    expect(big.length).toBeGreaterThan(32 << 20);
    const tail1 = new Uint8Array(gzipSync(utf8Bytes('tail member')));
    const tail2 = new Uint8Array(gzipSync(utf8Bytes('tail member two')));
    const file = concat(big, tail1, tail2);
    const out = await gunzipInPieces(file, 1 << 20);
    expect(out.data.length).toBe(raw.length + 11 + 15);
    // Buffer.compare: vitest's deep equality is far too slow on 33 MiB.
    expect(Buffer.compare(out.data.subarray(0, raw.length), raw)).toBe(0);
    expect(new TextDecoder().decode(out.data.subarray(raw.length))).toBe('tail membertail member two');
    expect(out.byOffset).toEqual([
      [0, raw.length],
      [big.length, 11],
      [big.length + tail1.length, 15],
    ]);
  });

  // Regression test (fixed in src).
  it('counts the big member too after falling back to streaming', async () => {
    const big = new Uint8Array(gzipSync(randomBytes(33 << 20, 7), { level: 1 }));
    const file = concat(
      big,
      new Uint8Array(gzipSync(utf8Bytes('a'))),
      new Uint8Array(gzipSync(utf8Bytes('b'))),
    );
    expect((await gunzipInPieces(file, 1 << 20)).members).toBe(3);
  });
});
