/**
 * Nothing lost past a damaged byte (issue "Nothing lost past a damaged byte…"): a WARC.gz of one
 * member per record with damage in the middle — a member whose deflate data is corrupted, a member cut
 * short with the next one after it, junk between two members — keeps every record outside the damaged
 * members, and notes each damaged span with its offsets. Random files and damage, seeded (the seed is
 * in each test's name); the expected pages are the records written, minus the damaged members'. The
 * same for a WARC.zst of one frame per record (a block header overwritten, junk between frames).
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random';
import { zstdFrame } from '../../../scripts/lib/zstd-frames';
import { concat, httpResponse, ingestBytes, warcRecord } from '../helpers';

type Damage = 'corrupt' | 'cut' | 'junk';

function record(k: number, rng: () => number): Uint8Array {
  const words = Array.from({ length: 20 + Math.floor(rng() * 400) }, (_, i) => `w${(i * 7 + k) % 97}`);
  const html = `<html><head><title>Page ${k}</title></head><body><p>${words.join(' ')} page${k}</p></body></html>`;
  return warcRecord(
    [
      ['WARC-Type', 'response'],
      ['WARC-Target-URI', `http://damage.test/${k}.html`],
      ['WARC-Record-ID', `<urn:uuid:00000000-0000-0000-0000-${String(k).padStart(12, '0')}>`],
      ['Content-Type', 'application/http; msgtype=response'],
    ],
    httpResponse(200, [['Content-Type', 'text/html']], html),
  );
}

/**
 * Reads a damaged file of n records in random pieces: every record outside the damaged places (`lost`)
 * is kept, no fault ends the read, no page is made of parts of several records, and each damaged span
 * read past is noted with its offsets (a corrupted gzip member may still inflate whole — gzip's CRC is
 * not checked — so its record is kept as inflated and nothing is noted).
 */
async function readsPast(
  data: Uint8Array,
  name: string,
  n: number,
  lost: ReadonlySet<number>,
  rng: () => number,
  what: string,
): Promise<void> {
  const { pages, summary } = await ingestBytes(data, name, { chunkSize: 1 + Math.floor(rng() * 5000) });
  const msg = `${what}, ${n} records; ${summary.error?.message ?? ''} ${summary.warnings.map((w) => w.reason).join(' | ')}`;
  const got = pages.map((p) => p.page.url);
  const kept = new Set(got);
  const url = (k: number) => `http://damage.test/${k}.html`;
  const expected = [...Array(n).keys()].filter((k) => !lost.has(k)).map(url);
  expect(
    expected.filter((u) => !kept.has(u)),
    msg,
  ).toEqual([]);
  expect(summary.error, msg).toBeNull();
  for (const u of got) expect(u, msg).toMatch(/^http:\/\/damage\.test\/\d+\.html$/);
  expect(kept.size, msg).toBe(got.length);
  const notes = summary.warnings.filter((w) => w.kind?.startsWith('damaged span'));
  if ([...lost].some((k) => !kept.has(url(k)))) expect(notes.length, msg).toBeGreaterThan(0);
  for (const w of notes) expect(w.reason, msg).toMatch(/^bytes \d+–\d+ \([\d,]+ bytes\) skipped: /);
}

describe('reading resumes past damaged gzip members', () => {
  for (let seed = 1; seed <= 24; seed++) {
    it(`keeps every record outside the damaged members, seed ${seed}`, async () => {
      const rng = seededRandom(seed * 15485863);
      const n = 30 + Math.floor(rng() * 120);
      const members = Array.from({ length: n }, (_, k) => new Uint8Array(gzipSync(record(k, rng))));
      // 1–3 damaged places, never the first member (the file must sniff as a WARC) nor the last (a
      // file cut short is another case).
      const damaged = new Map<number, Damage>();
      const kinds: Damage[] = ['corrupt', 'cut', 'junk'];
      for (let d = 0; d < 1 + Math.floor(rng() * 3); d++)
        damaged.set(1 + Math.floor(rng() * (n - 2)), kinds[Math.floor(rng() * 3)]);
      const lost = new Set<number>();
      const parts: Uint8Array[] = [];
      members.forEach((m, k) => {
        const how = damaged.get(k);
        if (how === 'corrupt') {
          const bad = m.slice();
          // A run of bytes inside the deflate data overwritten.
          const at = 10 + Math.floor(rng() * Math.max(1, bad.length - 30));
          for (let i = at; i < Math.min(bad.length - 8, at + 4 + Math.floor(rng() * 12)); i++)
            bad[i] = Math.floor(rng() * 256);
          parts.push(bad);
          lost.add(k);
        } else if (how === 'cut') {
          parts.push(m.subarray(0, 10 + Math.floor(rng() * (m.length - 20))));
          lost.add(k);
        } else if (how === 'junk') {
          parts.push(
            Uint8Array.from({ length: 1 + Math.floor(rng() * 300) }, () => Math.floor(rng() * 256)),
            m,
          );
        } else parts.push(m);
      });
      await readsPast(
        concat(...parts),
        'damaged.warc.gz',
        n,
        lost,
        rng,
        `seed ${seed}: damage ${JSON.stringify([...damaged])}`,
      );
    });
  }
});

describe('reading resumes past damaged zstd frames', () => {
  for (let seed = 1; seed <= 16; seed++) {
    it(`keeps every record outside the damaged frames, seed ${seed}`, async () => {
      const rng = seededRandom(seed * 7919 + 3);
      const n = 20 + Math.floor(rng() * 80);
      const frames = Array.from({ length: n }, (_, k) => zstdFrame(record(k, rng)));
      // A frame cut short is not among them: its last raw block reads on into the next frame, whose
      // bytes are then content (a compressed block would fail to decode instead).
      const damaged = new Map<number, 'junk' | 'header'>();
      const kinds = ['junk', 'header'] as const;
      for (let d = 0; d < 1 + Math.floor(rng() * 3); d++)
        damaged.set(1 + Math.floor(rng() * (n - 2)), kinds[Math.floor(rng() * 2)]);
      const lost = new Set<number>();
      const parts: Uint8Array[] = [];
      frames.forEach((f, k) => {
        const how = damaged.get(k);
        if (how === 'header') {
          // The first block's header overwritten: a reserved type, a size past 128 KiB or its frame.
          const bad = Buffer.from(f);
          bad[10] = 0xff;
          bad[11] = 0xff;
          bad[12] = 0xff;
          parts.push(bad);
          lost.add(k);
        } else if (how === 'junk') {
          parts.push(
            Uint8Array.from({ length: 1 + Math.floor(rng() * 300) }, () => Math.floor(rng() * 256)),
            f,
          );
        } else parts.push(f);
      });
      await readsPast(
        concat(...parts),
        'damaged.warc.zst',
        n,
        lost,
        rng,
        `seed ${seed}: damage ${JSON.stringify([...damaged])}`,
      );
    });
  }
});
