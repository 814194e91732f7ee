import { budgetCut, estimateD, linf, rpBudget } from './rp-budget';
import { SortedRows } from './csr';
import {
  FEATURE_CODE_DEFAULTS,
  FeatureCodeIndex,
  lengthRatio,
  type FeatureCodeOptions,
} from '../signatures/feature-code';
import { HM_DEFAULTS, hyperlinkMap, linkGraphOfHashes, type HmOptions } from '../signatures/hyperlink-map';
import { hash64Into } from '../hash';
import { CaptureIndex, type CaptureMode, type Captures } from './captures';
import {
  bandsForMinimum,
  estimateJaccard,
  LSH_BUCKET,
  lshCandidates,
  type MinHashOptions,
} from '../signatures/minhash';
import { normaliseRp, RP_DEFAULTS, type RpOptions } from '../signatures/random-projection';
import { SHINGLE_DEFAULTS, type ShingleOptions } from '../signatures/shingles';
import { hamming64, simhashCandidates } from '../signatures/simhash';
import { heavyMeasures, type HeavyRowsExport, type HeavyValues } from './heavy-measures';
import { pageOf, PAGE_STEPS, signPage, type PageSignature, type SignedPages } from './page-signature';
import { mainTexts, TEMPLATE_DEFAULTS, type TemplateOptions } from '../text/template';
import { linfPairs } from './grid';
import { RANGES } from './methods';
import { PairCollector, SOURCE, type PairTable } from './pairs';

/** Every parameter of every method, at the documents' defaults. */
export interface EngineParams {
  rp: RpOptions;
  hm: HmOptions;
  fc: FeatureCodeOptions;
  shingles: ShingleOptions;
  /**
   * `threshold`: the lowest Jaccard LSH must catch (with probability LSH_RECALL): the Jaccard slider's
   * minimum, so the slider's whole range reads complete candidates (bandsForMinimum).
   */
  /**
   * MinHash signatures and their LSH index: the band threshold, and how a bucket is verified (every
   * pair up to `fullBucket` pages, each page against the first `anchors` pages above; LSH_BUCKET).
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

export interface EngineResult {
  n: number;
  K: number;
  /** RP and HM signatures, n × K, in [0, 1]. */
  R: Float32Array;
  X: Float32Array;
  pairs: PairTable;
  /** Milliseconds per step. */
  timings: Record<string, number>;
  /** Candidate pairs proposed per generator (before de-duplication), and buckets skipped as too large. */
  candidates: Record<string, number>;
  bands: { bands: number; rows: number };
  /** The largest D whose collisions are all among the candidates (≤ params.maxD; less past the budget). */
  maxD: number;
}

/** A page as the engine reads it. */
export interface EnginePage {
  text: string;
  normUrl: string;
  outlinks: readonly string[];
  fingerprint: string;
  /** Template hints of the extractor (PageContent.templateHints). */
  templateHints?: readonly number[];
}

/**
 * Every page through the engine with the template step first (captures of one URL first folded into
 * its first capture unless `params.captures` is 'each': `kept` lists the pages' indexes in signature
 * order, `captures` the others with `seqs` holding their indexes in `pages`): the main texts of the pages (the model
 * built over all of them, per site) when `params.template.strip`, else the whole texts. The CLI and the
 * benches call this; the signatures job does the same over its IndexedDB stream.
 */
export function analysePages(
  pages: readonly EnginePage[],
  params: Partial<EngineParams> = {},
): { result: EngineResult; texts: string[]; kept: number[]; captures: Captures } {
  const engine = new SignatureEngine(params);
  // Captures of one URL: its first capture stands for it (captures.ts), unless compared.
  const index = new CaptureIndex(engine.params.captures);
  const kept: number[] = [];
  pages.forEach((p, i) => {
    if (index.standsFor(p.normUrl, i, kept.length) < 0) kept.push(i);
  });
  const t = performance.now();
  const texts = mainTexts(
    kept.map((k) => ({ url: pages[k].normUrl, text: pages[k].text, hints: pages[k].templateHints })),
    engine.params.template,
  );
  engine.timings.template = performance.now() - t;
  kept.forEach((k, i) => engine.add({ ...pages[k], text: texts[i] }));
  return { result: engine.finish(), texts, kept, captures: index.result() };
}

/**
 * Signatures of every page, then candidate pairs (never all pairs) and their measures. Pages are added
 * one at a time (they stream from IndexedDB in the worker); `finish` does the dataset-wide steps:
 * RP normalisation, the Hyperlink Map iterations and candidate generation.
 */
export class SignatureEngine {
  private readonly p: EngineParams;
  private n = 0;
  private rpRaw: Float64Array = new Float64Array(1024);
  /** Bags of words with unit-length weights (cosine = dot product) and shingle sets, one row per page. */
  private bags = new SortedRows(true);
  private shingles = new SortedRows(false);
  private mh: Uint32Array = new Uint32Array(0);
  /** SimHash halves and body lengths, one per page. */
  private shHi: Uint32Array = new Uint32Array(1024);
  private shLo: Uint32Array = new Uint32Array(1024);
  private codes: (string[] | null)[] = [];
  /** The feature codes' words, interned. */
  private readonly words = new Map<string, string>();
  private lengths: Float64Array = new Float64Array(1024);
  private fingerprints: string[] = [];
  /**
   * The link graph's URLs as 64-bit hashes (hash.ts hash64Into): each page's normalised URL, and its
   * outlinks in one array with per-page ends. The strings themselves were ~0.5 KB a page kept to the
   * end (8 outlinks a generated page); a collision of two URLs' hashes (~n²/2⁶⁵ over n distinct URLs)
   * would add one link.
   */
  private urlHashes: Uint32Array = new Uint32Array(2 * 1024);
  private linkHashes: Uint32Array = new Uint32Array(2 * 8 * 1024);
  private linkEnds: Uint32Array = new Uint32Array(1024);
  readonly timings: Record<string, number> = {
    tokens: 0,
    rp: 0,
    shingles: 0,
    minhash: 0,
    simhash: 0,
    featureCode: 0,
  };

  constructor(params: Partial<EngineParams> = {}) {
    this.p = { ...ENGINE_DEFAULTS, ...params };
    this.p.template = { ...TEMPLATE_DEFAULTS, ...params.template };
    this.mh = new Uint32Array(1024 * this.p.minhash.permutations);
  }

  get params(): Readonly<EngineParams> {
    return this.p;
  }

  get count(): number {
    return this.n;
  }

  /** Signs one page and folds it in (signPage, then addSignature). */
  add(page: { text: string; normUrl: string; outlinks: readonly string[]; fingerprint: string }): void {
    this.scratch ??= {
      rp: new Float64Array(this.p.rp.K),
      minhash: new Uint32Array(this.p.minhash.permutations),
    };
    this.addSignature(page, signPage(page.text, this.p, this.timings, this.scratch));
  }

  /** The RP and MinHash arrays add() signs each page into before they are copied (no garbage a page). */
  private scratch: { rp: Float64Array; minhash: Uint32Array } | null = null;

  /**
   * Folds in a batch signed elsewhere (signPages, in another worker), page k with pages[k]'s URL,
   * links and fingerprint: the same as add() on each page, to the bit. The batch's step times are
   * added to this engine's.
   */
  addSigned(
    pages: readonly { normUrl: string; outlinks: readonly string[]; fingerprint: string }[],
    signed: SignedPages,
  ): void {
    if (pages.length !== signed.count)
      throw new Error(`addSigned: ${pages.length} pages for ${signed.count} signatures`);
    const K = this.p.rp.K;
    const P = this.p.minhash.permutations;
    if (signed.rp.length !== signed.count * K || signed.minhash.length !== signed.count * P)
      throw new Error('addSigned: the batch was signed with other RP or MinHash parameters');
    for (let k = 0; k < pages.length; k++) this.addSignature(pages[k], pageOf(signed, k, K, P));
    for (const step of PAGE_STEPS) this.timings[step] += signed.timings[step];
  }

  private addSignature(
    page: { normUrl: string; outlinks: readonly string[]; fingerprint: string },
    sig: PageSignature,
  ): void {
    const { p } = this;
    const i = this.n++;
    const K = p.rp.K;
    this.bags.push(sig.bagIds, sig.bagCounts, sig.bagScale);
    if ((i + 1) * K > this.rpRaw.length) this.rpRaw = grow(this.rpRaw, roomFor((i + 1) * K));
    this.rpRaw.set(sig.rp, i * K);
    this.shingles.push(sig.shingles);
    const P = p.minhash.permutations;
    if ((i + 1) * P > this.mh.length) this.mh = growU32(this.mh, roomFor((i + 1) * P));
    this.mh.set(sig.minhash, i * P);
    if (i >= this.shHi.length) {
      this.shHi = growU32(this.shHi, roomFor(i + 1));
      this.shLo = growU32(this.shLo, roomFor(i + 1));
      this.lengths = grow(this.lengths, roomFor(i + 1));
      this.linkEnds = growU32(this.linkEnds, roomFor(i + 1));
      this.urlHashes = growU32(this.urlHashes, 2 * roomFor(i + 1));
    }
    this.shHi[i] = sig.simhashHi;
    this.shLo[i] = sig.simhashLo;
    const code = sig.code;
    // One string per distinct word across pages: codes are kept to the end (~0.25 GB at 1M pages).
    if (code)
      for (let k = 0; k < code.length; k++) {
        const w = this.words.get(code[k]);
        if (w === undefined) this.words.set(code[k], code[k]);
        else code[k] = w;
      }
    this.codes.push(code);
    this.lengths[i] = sig.length;

    this.fingerprints.push(page.fingerprint);
    hash64Into(page.normUrl, this.urlHashes, 2 * i);
    let end = i === 0 ? 0 : this.linkEnds[i - 1];
    if (2 * (end + page.outlinks.length) > this.linkHashes.length)
      this.linkHashes = growU32(this.linkHashes, 2 * roomFor(end + page.outlinks.length));
    for (const l of page.outlinks) hash64Into(l, this.linkHashes, 2 * end++);
    this.linkEnds[i] = end;
  }

  /** The dataset-wide index: candidates and every measure of every pair, in this thread. */
  finish(): EngineResult {
    const r = this.finishLight();
    const { a, b, jaccardEst } = r.pairs;
    const { cosine, jaccard } = r.pairs;
    this.putHeavy(r, [
      heavyMeasures({ bags: this.bags, shingles: this.shingles }, a, b, jaccardEst, { cosine, jaccard }),
    ]);
    return r;
  }

  /**
   * finish() with the cosine and Jaccard of the pairs (the measures that cost most) computed by
   * `measure` over ranges of them: given a copy of the rows (HeavyRowsExport) and the pairs, it returns
   * their values range by range in order (other workers measure them with heavyMeasuresOf, the same
   * function as finish's). The same result as finish() to the bit.
   */
  async finishWith(
    measure: (
      rows: () => HeavyRowsExport,
      a: Uint32Array,
      b: Uint32Array,
      est: Float32Array,
    ) => Promise<HeavyValues[]>,
  ): Promise<EngineResult> {
    const r = this.finishLight();
    const { a, b, jaccardEst } = r.pairs;
    const t = performance.now();
    const rows = () => {
      this.bags.rankIds();
      return { bags: this.bags.export(), shingles: this.shingles.export() };
    };
    const parts = await measure(rows, a, b, jaccardEst);
    this.putHeavy(r, parts);
    r.timings['measures.heavyWall'] = performance.now() - t;
    return r;
  }

  /** Bytes a copy of the rows the heavy measures read takes (what finishWith hands to each worker). */
  get heavyRowsBytes(): number {
    return this.bags.bytes + this.shingles.bytes;
  }

  private putHeavy(r: EngineResult, parts: readonly HeavyValues[]): void {
    let at = 0;
    r.timings['measures.cosine'] = 0;
    r.timings['measures.jaccard'] = 0;
    for (const v of parts) {
      // Values written in place (finish) are not copied onto themselves.
      if (v.cosine !== r.pairs.cosine) r.pairs.cosine.set(v.cosine, at);
      if (v.jaccard !== r.pairs.jaccard) r.pairs.jaccard.set(v.jaccard, at);
      at += v.cosine.length;
      r.timings['measures.cosine'] += v.cosineMs;
      r.timings['measures.jaccard'] += v.jaccardMs;
    }
    if (at !== r.pairs.count) throw new Error(`measures of ${at} pairs for ${r.pairs.count}`);
  }

  /** Everything of finish() but the cosine and Jaccard of the pairs (left at 0). */
  private finishLight(): EngineResult {
    const { p, n } = this;
    const K = p.rp.K;
    const P = p.minhash.permutations;
    const timings = this.timings;
    const candidates: Record<string, number> = {};
    const time = <T>(name: string, f: () => T): T => {
      const t = performance.now();
      const v = f();
      timings[name] = (timings[name] ?? 0) + performance.now() - t;
      return v;
    };

    const R = time('rpNormalise', () => normaliseRp(this.rpRaw, n, K));
    const graph = time('linkGraph', () =>
      linkGraphOfHashes(this.urlHashes, this.linkHashes, this.linkEnds, n),
    );
    const X = time('hyperlinkMap', () => hyperlinkMap(R, n, K, graph, p.hm));

    const collect = new PairCollector();
    // On a dense crawl the grid at maxD would enumerate far more pairs than the budget (tens of
    // millions at 100k alike pages): estimate from a sample the D that keeps about the budget first.
    const budget = rpBudget(p, n);
    let maxD = time('candidates.rpEstimate', () => Math.min(p.maxD, estimateD(R, n, K, budget)));
    let grid = time('candidates.rp', () => linfPairs(R, n, K, maxD));
    if (grid.length / 2 > budget) {
      const cut = time('candidates.rpBudget', () => budgetCut(grid, R, K, budget));
      grid = cut.pairs;
      maxD = cut.maxD;
    }
    collect.add(grid, SOURCE.rpGrid);
    candidates.rpGrid = grid.length / 2;

    const exact = time('candidates.exact', () => exactPairs(this.fingerprints));
    collect.add(exact, SOURCE.exact);
    candidates.exact = exact.length / 2;

    const fcIndex = time('candidates.featureCodeIndex', () => new FeatureCodeIndex(this.codes, p.fc));
    const fc = time('candidates.featureCode', () => fcIndex.pairs());
    collect.add(fc, SOURCE.featureCode);
    candidates.featureCode = fc.length / 2;
    candidates.featureCodeSkippedBuckets = fcIndex.skippedBuckets;

    const bands = bandsForMinimum(P, p.minhash.threshold);
    const lsh = time('candidates.lsh', () =>
      lshCandidates(this.mh.subarray(0, n * P), n, P, bands.bands, bands.rows, {
        fullBucket: p.minhash.fullBucket,
        anchors: p.minhash.anchors,
      }),
    );
    collect.add(lsh.pairs, SOURCE.lsh);
    candidates.lsh = lsh.pairs.length / 2;
    candidates.lshAnchoredBuckets = lsh.anchoredBuckets;

    const hi = this.shHi.subarray(0, n);
    const lo = this.shLo.subarray(0, n);
    const sim = time('candidates.simhash', () => simhashCandidates(hi, lo, n, p.maxHamming));
    collect.add(sim, SOURCE.simhash);
    candidates.simhash = sim.length / 2;

    const { a, b, sources } = time('candidates.merge', () => collect.finish());
    const m = a.length;
    const pairs: PairTable = {
      count: m,
      a,
      b,
      sources,
      dR: new Float32Array(m),
      dX: new Float32Array(m),
      cosine: new Float32Array(m),
      jaccardEst: new Float32Array(m),
      jaccard: new Float32Array(m),
      fcMatch: new Uint8Array(m),
      lengthRatio: new Float32Array(m),
      simhash: new Uint8Array(m),
      exact: new Uint8Array(m),
    };
    // One pass per measure (column by column): each pass touches one kind of signature memory.
    time('measures.rpHm', () => {
      for (let k = 0; k < m; k++) {
        pairs.dR[k] = linf(R, a[k], b[k], K);
        pairs.dX[k] = linf(X, a[k], b[k], K);
      }
    });
    time('measures.minhash', () => {
      for (let k = 0; k < m; k++)
        pairs.jaccardEst[k] = estimateJaccard(this.mh, this.mh, a[k] * P, b[k] * P, P);
    });
    time('measures.featureCode', () => {
      for (let k = 0; k < m; k++) {
        // The ordered index verified every matching pair it proposed (LCS ≥ 2L − tolerance), so a pair
        // matches iff the index proposed it (keys shared by > maxBucket pages excepted: counted apart).
        const ci = this.codes[a[k]];
        const cj = this.codes[b[k]];
        pairs.fcMatch[k] = !ci || !cj ? 2 : sources[k] & SOURCE.featureCode ? 1 : 0;
        pairs.lengthRatio[k] = Math.min(lengthRatio(this.lengths[a[k]], this.lengths[b[k]]), 1e9);
      }
    });
    time('measures.simhashExact', () => {
      for (let k = 0; k < m; k++) {
        const i = a[k];
        const j = b[k];
        pairs.simhash[k] = hamming64(hi[i], lo[i], hi[j], lo[j]);
        pairs.exact[k] = this.fingerprints[i] !== '' && this.fingerprints[i] === this.fingerprints[j] ? 1 : 0;
      }
    });
    candidates.unique = pairs.count;
    return { n, K, R, X, pairs, timings, candidates, bands, maxD };
  }
}

/** All pairs within each exact-fingerprint group (capped: a group is a star around its first page beyond 200). */
function exactPairs(fps: readonly string[]): Uint32Array {
  const groups = new Map<string, number[]>();
  fps.forEach((f, i) => {
    if (!f) return;
    let g = groups.get(f);
    if (!g) groups.set(f, (g = []));
    g.push(i);
  });
  const out: number[] = [];
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    if (g.length > 200) {
      for (let y = 1; y < g.length; y++) out.push(g[0], g[y]);
      continue;
    }
    for (let x = 0; x < g.length; x++) for (let y = x + 1; y < g.length; y++) out.push(g[x], g[y]);
  }
  return Uint32Array.from(out);
}

/** A growable array's next length for n entries: a quarter more (its slack stays ≤ 25%, not 100%). */
function roomFor(n: number): number {
  return Math.max(1024, Math.ceil(n * 1.25));
}

function grow(a: Float64Array, n: number): Float64Array {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}
function growU32(a: Uint32Array, n: number): Uint32Array {
  const b = new Uint32Array(n);
  b.set(a);
  return b;
}
