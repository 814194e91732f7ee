import { budgetCut, estimateD, linf, rpBudget } from './rp-budget';
import { SortedRows } from './csr';
import { FeatureCodeIndex, lengthRatio } from '../signatures/feature-code';
import { PackedCodes } from '../signatures/feature-codes-packed';
import { hyperlinkMap, linkGraphOfHashes } from '../signatures/hyperlink-map';
import { hash64Into } from '../hash';
import { bandsForMinimum, lshCandidates } from '../signatures/lsh';
import { estimateJaccard } from '../signatures/minhash';
import { normaliseRp } from '../signatures/random-projection';
import { hamming64, simhashCandidates } from '../signatures/simhash';
import { heavyMeasures, type HeavyRowsExport, type HeavyValues } from './heavy-measures';
import { pageOf, PAGE_STEPS, signPage, type PageSignature, type SignedPages } from './page-signature';
import { TEMPLATE_DEFAULTS } from '../text/template';
import { linfPairs } from './grid';
import { PairCollector, SOURCE, type PairTable } from './pairs';
import { ENGINE_DEFAULTS, type EngineParams } from './engine-params';
import { putHeavy, type EngineResult } from './engine-result';
import { exactPairs } from './exact-pairs';
import { grow, growU32, roomFor } from '../growable-arrays';

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
  /** The feature codes, packed (symbol ids; feature-codes-packed.ts). */
  private readonly codes = new PackedCodes();
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
    this.codes.push(sig.code);
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
    putHeavy(r, [
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
    putHeavy(r, parts);
    r.timings['measures.heavyWall'] = performance.now() - t;
    return r;
  }

  /** Bytes a copy of the rows the heavy measures read takes (what finishWith hands to each worker). */
  get heavyRowsBytes(): number {
    return this.bags.bytes + this.shingles.bytes;
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
    // Near-identical pages agree on every block: a large bucket is verified against its anchors, as LSH's
    // (the same fullBucket and anchors, and the batch's SQL the same way).
    const bucket = { full: p.minhash.fullBucket, anchors: p.minhash.anchors };
    const sim = time('candidates.simhash', () => simhashCandidates(hi, lo, n, p.maxHamming, bucket));
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
        const both = this.codes.has(a[k]) && this.codes.has(b[k]);
        pairs.fcMatch[k] = !both ? 2 : sources[k] & SOURCE.featureCode ? 1 : 0;
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
