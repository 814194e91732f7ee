/**
 * The signature engine's parameters (engine.ts): every method's, and the limits of candidate
 * generation, with their defaults.
 */
import { FEATURE_CODE_DEFAULTS, type FeatureCodeOptions } from '../signatures/feature-code';
import { HM_DEFAULTS, type HmOptions } from '../signatures/hyperlink-map';
import type { CaptureMode } from './captures';
import { LSH_BUCKET } from '../signatures/lsh';
import type { MinHashOptions } from '../signatures/minhash';
import { RP_DEFAULTS, type RpOptions } from '../signatures/random-projection';
import { SHINGLE_DEFAULTS, type ShingleOptions } from '../signatures/shingles';
import { TEMPLATE_DEFAULTS, type TemplateOptions } from '../text/template';
import { RANGES } from './methods';

/** Every parameter of every method, at the documents' defaults. */
export interface EngineParams {
  rp: RpOptions;
  hm: HmOptions;
  fc: FeatureCodeOptions;
  shingles: ShingleOptions;
  /**
   * MinHash signatures and their LSH index: the band threshold, and how a bucket is verified (every
   * pair up to `fullBucket` pages, each page against the first `anchors` pages above; LSH_BUCKET).
   * `threshold`: the lowest Jaccard LSH must catch (with probability LSH_RECALL): the Jaccard slider's
   * minimum, so the slider's whole range reads complete candidates (bandsForMinimum).
   */
  minhash: MinHashOptions & { threshold: number; fullBucket: number; anchors: number };
  /** Drop English stop words from the bag of words (RP, cosine, SimHash). */
  stopWords: boolean;
  /**
   * Template text (lines a site repeats on many pages, text/template.ts): left out of every signature
   * when `strip` is on; the whole page otherwise (the papers' setting). The engine reads the text it is
   * given: callers split it first (`analysePages`, the signatures job's first pass).
   */
  template: TemplateOptions;
  /** Loosest slider values: candidates are generated there once. */
  maxD: number;
  maxHamming: number;
  /**
   * At most this many RP candidate pairs: on a crawl whose pages are alike (one site's boilerplate)
   * the grid at maxD can propose a large share of all pairs, each needing its cosine and Jaccard. Past
   * the budget the closest pairs are kept and the D slider's range ends where they end.
   */
  maxRpPairs: number;
  /**
   * And at most this many a page, past the first RP_PAIRS_FLOOR: the RP grid at the widest D proposes
   * pairs that are almost all unrelated pages (on 5,000 long pages of the sample's text, 981,000 of
   * its 1M pairs have Jaccard < 0.3 and 35 of them ≥ 0.3, found by LSH too), and each costs its cosine
   * and Jaccard. 40 a page keeps D's range ≥ 2.3× the default D (0.022) on every crawl measured:
   * chosen on that generated crawl (D reaches 0.054, seed 42; 0.051, seed 7), where the default D
   * proposes 0.85 pairs a page; docsite (16 a page at D = 0.1) and the sample (4.5) are not cut.
   */
  maxRpPairsPerPage: number;
  /**
   * Captures of one URL: one page (`url`, its first capture standing for it) or each its own page
   * (`each`, to compare captures). Read by the callers that feed the engine (captures.ts).
   */
  captures: CaptureMode;
}

export const ENGINE_DEFAULTS: EngineParams = {
  rp: RP_DEFAULTS,
  hm: HM_DEFAULTS,
  fc: FEATURE_CODE_DEFAULTS,
  shingles: SHINGLE_DEFAULTS,
  minhash: {
    permutations: 128,
    seed: 1,
    threshold: RANGES.jaccard[0],
    fullBucket: LSH_BUCKET.full,
    anchors: LSH_BUCKET.anchors,
  },
  stopWords: false,
  template: TEMPLATE_DEFAULTS,
  maxD: RANGES.D[1],
  maxHamming: RANGES.hamming[1],
  maxRpPairs: 1_000_000,
  maxRpPairsPerPage: 40,
  captures: 'url',
};
