/**
 * The per-page half of the signature engine: everything a page's text gives on its own (bag of words,
 * RP projection, shingle set, MinHash, SimHash, feature code, body length), computed without the
 * other pages. The engine folds these into its dataset-wide index in page order (SignatureEngine.add,
 * addSigned); because nothing here depends on another page, batches of pages can be signed in other
 * workers (the signatures job's helpers) and folded in by the one that owns the index, with the same
 * result to the bit.
 *
 * A batch travels as flat typed arrays (rows of a page by their ends), so a worker hands it over by
 * transferring a dozen buffers rather than cloning an object per page.
 */
import { bagOfWords } from '../signatures/bag-of-words';
import { bodyLength, featureCode, type FeatureCodeOptions } from '../signatures/feature-code';
import { minhashSignature, type MinHashOptions } from '../signatures/minhash';
import { projectBag, type RpOptions } from '../signatures/random-projection';
import { shingleSet, shingleSetOfWords, type ShingleOptions } from '../signatures/shingles';
import { simhashOfHashes } from '../signatures/simhash';
import { ENGLISH_STOP_WORDS, tokenize } from '../text/tokens';

/** The parameters a page's signatures depend on (a subset of EngineParams). */
export interface PageSignatureParams {
  rp: RpOptions;
  fc: FeatureCodeOptions;
  shingles: ShingleOptions;
  minhash: MinHashOptions & { permutations: number };
  stopWords: boolean;
}

/** The steps whose time is kept per page (EngineResult.timings). */
export const PAGE_STEPS = ['tokens', 'rp', 'shingles', 'minhash', 'simhash', 'featureCode'] as const;
export type PageStep = (typeof PAGE_STEPS)[number];

/** Signatures of a batch of pages, page k's rows being [ends[k − 1], ends[k]) of each row array. */
export interface SignedPages {
  count: number;
  /** Bag of words: sorted word hashes, their counts, and 1 / the bag's norm (0 for an empty bag). */
  bagEnds: Uint32Array;
  bagIds: Uint32Array;
  bagCounts: Float32Array;
  bagScales: Float64Array;
  /** The RP projection before normalising, K a page. */
  rp: Float64Array;
  shingleEnds: Uint32Array;
  shingles: Uint32Array;
  /** P values a page. */
  minhash: Uint32Array;
  /** Two 32-bit halves a page. */
  simhash: Uint32Array;
  lengths: Float64Array;
  /** Feature codes (null: too short for one). */
  codes: (string[] | null)[];
  /** Milliseconds per step over the batch. */
  timings: Record<PageStep, number>;
}

/** The buffers of a batch, to transfer it to another thread instead of copying it. */
export function signedBuffers(s: SignedPages): ArrayBuffer[] {
  return [
    s.bagEnds,
    s.bagIds,
    s.bagCounts,
    s.bagScales,
    s.rp,
    s.shingleEnds,
    s.shingles,
    s.minhash,
    s.simhash,
    s.lengths,
  ].map((a) => a.buffer as ArrayBuffer);
}

/** One page's signatures (the rows of SignedPages for one page). */
export interface PageSignature {
  bagIds: Uint32Array;
  bagCounts: Float32Array;
  bagScale: number;
  rp: Float64Array;
  shingles: Uint32Array;
  minhash: Uint32Array;
  simhashHi: number;
  simhashLo: number;
  code: string[] | null;
  length: number;
}

function emptyTimings(): Record<PageStep, number> {
  return { tokens: 0, rp: 0, shingles: 0, minhash: 0, simhash: 0, featureCode: 0 };
}

/** One page's signatures; `timings` gets each step's milliseconds added. */
export function signPage(
  text: string,
  p: PageSignatureParams,
  timings: Record<PageStep, number> = emptyTimings(),
  /**
   * Arrays to write the RP projection and the MinHash signature into (the engine's, reused from page
   * to page: it copies them at once); fresh ones otherwise.
   */
  into?: { rp: Float64Array; minhash: Uint32Array },
): PageSignature {
  let t = performance.now();
  const tokens = tokenize(text, { stopWords: p.stopWords ? ENGLISH_STOP_WORDS : undefined });
  const bag = bagOfWords(tokens);
  timings.tokens += performance.now() - t;

  t = performance.now();
  const rp = into?.rp ?? new Float64Array(p.rp.K);
  projectBag(bag, p.rp, rp, 0);
  timings.rp += performance.now() - t;

  t = performance.now();
  // The words tokenised above, when no stop word was dropped from them: one pass of the word regex.
  const shingles = p.stopWords ? shingleSet(text, p.shingles) : shingleSetOfWords(text, tokens, p.shingles);
  timings.shingles += performance.now() - t;

  t = performance.now();
  const minhash = into?.minhash ?? new Uint32Array(p.minhash.permutations);
  minhashSignature(shingles, p.minhash, minhash, 0);
  timings.minhash += performance.now() - t;

  t = performance.now();
  const [simhashHi, simhashLo] = simhashOfHashes(shingles);
  timings.simhash += performance.now() - t;

  t = performance.now();
  const code = featureCode(text, p.fc.L);
  const length = bodyLength(text);
  timings.featureCode += performance.now() - t;

  return {
    bagIds: bag.ids,
    bagCounts: bag.counts,
    bagScale: bag.norm > 0 ? 1 / bag.norm : 0,
    rp,
    shingles,
    minhash,
    simhashHi,
    simhashLo,
    code,
    length,
  };
}

/** The signatures of a batch of page texts, packed into flat arrays. */
export function signPages(texts: readonly string[], p: PageSignatureParams): SignedPages {
  const timings = emptyTimings();
  const sigs = texts.map((text) => signPage(text, p, timings));
  const n = sigs.length;
  const K = p.rp.K;
  const P = p.minhash.permutations;
  const bagEnds = new Uint32Array(n);
  const shingleEnds = new Uint32Array(n);
  let bags = 0;
  let shingles = 0;
  sigs.forEach((s, k) => {
    bagEnds[k] = bags += s.bagIds.length;
    shingleEnds[k] = shingles += s.shingles.length;
  });
  const out: SignedPages = {
    count: n,
    bagEnds,
    bagIds: new Uint32Array(bags),
    bagCounts: new Float32Array(bags),
    bagScales: new Float64Array(n),
    rp: new Float64Array(n * K),
    shingleEnds,
    shingles: new Uint32Array(shingles),
    minhash: new Uint32Array(n * P),
    simhash: new Uint32Array(2 * n),
    lengths: new Float64Array(n),
    codes: sigs.map((s) => s.code),
    timings,
  };
  sigs.forEach((s, k) => {
    const b0 = k === 0 ? 0 : bagEnds[k - 1];
    out.bagIds.set(s.bagIds, b0);
    out.bagCounts.set(s.bagCounts, b0);
    out.bagScales[k] = s.bagScale;
    out.rp.set(s.rp, k * K);
    out.shingles.set(s.shingles, k === 0 ? 0 : shingleEnds[k - 1]);
    out.minhash.set(s.minhash, k * P);
    out.simhash[2 * k] = s.simhashHi;
    out.simhash[2 * k + 1] = s.simhashLo;
    out.lengths[k] = s.length;
  });
  return out;
}

/** Page k of a batch, as signPage gave it (views into the batch's arrays). */
export function pageOf(s: SignedPages, k: number, K: number, P: number): PageSignature {
  const b0 = k === 0 ? 0 : s.bagEnds[k - 1];
  const s0 = k === 0 ? 0 : s.shingleEnds[k - 1];
  return {
    bagIds: s.bagIds.subarray(b0, s.bagEnds[k]),
    bagCounts: s.bagCounts.subarray(b0, s.bagEnds[k]),
    bagScale: s.bagScales[k],
    rp: s.rp.subarray(k * K, (k + 1) * K),
    shingles: s.shingles.subarray(s0, s.shingleEnds[k]),
    minhash: s.minhash.subarray(k * P, (k + 1) * P),
    simhashHi: s.simhash[2 * k],
    simhashLo: s.simhash[2 * k + 1],
    code: s.codes[k],
    length: s.lengths[k],
  };
}
