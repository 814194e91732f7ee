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

function words(vocab: string[], seed: number, i: number, n: number): string[] {
  const rnd = seededRandom(mix32(seed ^ Math.imul(i, 0x9e3779b1)));
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(vocab[Math.floor(vocab.length * Math.pow(rnd(), 3))]);
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
