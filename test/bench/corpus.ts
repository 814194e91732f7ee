/**
 * A generated corpus for signature benchmarks: pseudo-English pages from a Zipf-drawn vocabulary, with
 * planted near-duplicates (a copy with a few words changed) and links between pages, deterministic
 * for a seed. Pure: runs in Node and, bundled, in Chromium.
 */
import { seededRandom } from '../../src/core/random';

export interface CorpusPage {
  text: string;
  normUrl: string;
  outlinks: string[];
  fingerprint: string;
}

const SYL = 'ka ro mi te su na lo pe vi da gu ri ho ze ma ni ko la be to fi ra de no'.split(' ');

/** 20,000 pseudo-words of 1–3 syllables, drawn from rnd (the same for a seed in both generators). */
function vocabulary(rnd: () => number): string[] {
  const vocab: string[] = [];
  for (let i = 0; i < 20000; i++) {
    let w = '';
    const len = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < len; k++) w += SYL[Math.floor(rnd() * SYL.length)];
    vocab.push(w);
  }
  return vocab;
}

export function makeCorpus(n: number, seed = 42, words = 250, nearShare = 0.1): CorpusPage[] {
  const rnd = seededRandom(seed);
  const vocab = vocabulary(rnd);
  const pages: CorpusPage[] = [];
  const texts: string[][] = [];
  for (let i = 0; i < n; i++) {
    let ws: string[];
    if (i > 0 && rnd() < nearShare) {
      ws = texts[Math.floor(rnd() * i)].slice();
      for (let c = 0; c < 4; c++) ws[Math.floor(rnd() * ws.length)] = vocab[Math.floor(rnd() * vocab.length)];
    } else {
      ws = [];
      for (let k = 0; k < words; k++) ws.push(vocab[Math.floor(vocab.length * Math.pow(rnd(), 3))]);
    }
    texts.push(ws);
    const lines: string[] = [];
    for (let k = 0; k < ws.length; k += 25) lines.push(ws.slice(k, k + 25).join(' ') + '.');
    const outlinks = Array.from(
      { length: 8 },
      () => `http://site${Math.floor(rnd() * 50)}.test/p${Math.floor(rnd() * n)}`,
    );
    pages.push({
      text: lines.join('\n'),
      normUrl: `http://site${i % 50}.test/p${i}`,
      outlinks,
      fingerprint: '',
    });
  }
  return pages;
}

/**
 * The same kind of corpus as makeCorpus, streamed: page i is made from its own seed, and a near copy
 * regenerates the words of the page it copies, so nothing of earlier pages is kept. For measuring what
 * a consumer keeps per page (the engine's memory at 1M pages) without the corpus in the same heap.
 * Not the same pages as makeCorpus for a seed.
 */
export function* streamCorpus(n: number, seed = 42, words = 250, nearShare = 0.1): Generator<CorpusPage> {
  const rnd = seededRandom(seed);
  const vocab = vocabulary(rnd);
  const wordsOf = (i: number): string[] => {
    const r = seededRandom((seed * 0x9e3779b1) ^ (i + 1));
    if (i > 0 && r() < nearShare) {
      const ws = wordsOf(Math.floor(r() * i)).slice();
      for (let c = 0; c < 4; c++) ws[Math.floor(r() * ws.length)] = vocab[Math.floor(r() * vocab.length)];
      return ws;
    }
    const ws: string[] = [];
    for (let k = 0; k < words; k++) ws.push(vocab[Math.floor(vocab.length * Math.pow(r(), 3))]);
    return ws;
  };
  for (let i = 0; i < n; i++) {
    const ws = wordsOf(i);
    const r = seededRandom((seed * 0x85ebca6b) ^ (i + 1));
    const lines: string[] = [];
    for (let k = 0; k < ws.length; k += 25) lines.push(ws.slice(k, k + 25).join(' ') + '.');
    yield {
      text: lines.join('\n'),
      normUrl: `http://site${i % 50}.test/p${i}`,
      outlinks: Array.from(
        { length: 8 },
        () => `http://site${Math.floor(r() * 50)}.test/p${Math.floor(r() * n)}`,
      ),
      fingerprint: '',
    };
  }
}
