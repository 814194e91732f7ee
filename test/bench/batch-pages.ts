/**
 * Page records for `npm run bench:batch`, generated straight into the map step (no WARC is written or
 * parsed: the bench measures the map and join steps). Page i is a pure function of (seed, i), so any
 * worker can make any range: pseudo-English text from a Zipf-like vocabulary, 1,000 hosts; 5% of
 * pages are exact copies and 10% near copies (4 words changed) of an earlier page. With `group: 1`,
 * every page is a near copy of page 0 instead: one group of near-identical pages (the worst case of
 * LSH, one bucket per band holding them all).
 */
import type { BatchPage } from '../../src/core/batch/tables';
import { mix32 } from '../../src/core/hash';
import { seededRandom } from '../../src/core/random';
import { fingerprint64 } from '../../src/core/text/fingerprint';

const SYL = 'ka ro mi te su na lo pe vi da gu ri ho ze ma ni ko la be to fi ra de no'.split(' ');
const HOSTS = 1000;

function vocabulary(seed: number): string[] {
  const rnd = seededRandom(seed);
  const v: string[] = [];
  for (let i = 0; i < 20000; i++) {
    let w = '';
    const len = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < len; k++) w += SYL[Math.floor(rnd() * SYL.length)];
    v.push(w);
  }
  return v;
}

/**
 * The words of page i's own text. Word k is drawn from a hash of (page, k), not from a generator seeded
 * per page: every seed of the project's generator (mulberry32) starts at a point of one 2^32 cycle, so
 * two pages whose seeds fell within 200 steps of each other wrote the same words shifted by a few, and
 * such pairs grow as n²: 46,221 at 1M pages and 417,660 at 3M (n²/2 × 399/2³²), which were the LSH's
 * unintended candidates (J from 0 to 0.7) and made the join's growth the generator's. `base` is a
 * bijection of i (odd multiplier, xor, mix32), so no two pages share it, and `base ^ mix32(k)` lines
 * up with no other page's at any shift.
 */
function words(vocab: string[], seed: number, i: number, n: number): string[] {
  const base = mix32(seed ^ Math.imul(i, 0x9e3779b1));
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const u = mix32(base ^ mix32(Math.imul(k + 1, 0x85ebca6b))) / 4294967296;
    out.push(vocab[Math.floor(vocab.length * Math.pow(u, 3))]);
  }
  return out;
}

function text(ws: string[]): string {
  const lines: string[] = [];
  for (let k = 0; k < ws.length; k += 25) lines.push(ws.slice(k, k + 25).join(' ') + '.');
  return lines.join('\n');
}

/** Pages start … start + count − 1 of the corpus (`words` per page, default 200). */
export function* pages(args: Record<string, number>): Generator<BatchPage> {
  const { seed = 7, start = 0, count = 0 } = args;
  const n = args.words ?? 200;
  const vocab = vocabulary(seed);
  for (let i = start; i < start + count; i++) {
    const h = mix32(seed ^ Math.imul(i, 0x85ebca6b)) >>> 0;
    const kind = h % 100;
    // The page copied: an earlier index, a pure function of i (so no state crosses workers).
    const from = i > 0 ? (mix32(h) >>> 0) % i : 0;
    let ws: string[];
    if (args.group) {
      ws = words(vocab, seed, 0, n);
      const rnd = seededRandom(h);
      for (let c = 0; c < 4; c++) ws[Math.floor(rnd() * ws.length)] = vocab[Math.floor(rnd() * vocab.length)];
    } else if (i > 0 && kind < 5) ws = words(vocab, seed, from, n);
    else if (i > 0 && kind < 15) {
      ws = words(vocab, seed, from, n);
      const rnd = seededRandom(h);
      for (let c = 0; c < 4; c++) ws[Math.floor(rnd() * ws.length)] = vocab[Math.floor(rnd() * vocab.length)];
    } else ws = words(vocab, seed, i, n);
    const t = text(ws);
    const host = `host-${i % HOSTS}.example`;
    const url = `https://${host}/page/${i}`;
    yield { seq: i - start, url, normUrl: url, host, offset: 0, fingerprint: fingerprint64(t), text: t };
  }
}
