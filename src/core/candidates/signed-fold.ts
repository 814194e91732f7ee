/**
 * Signatures on every core: each batch of pages is cut into as many chunks as there are threads; the
 * other workers (PageSigner, created by the platform) sign theirs while this thread signs the first,
 * and the engine folds them in in page order (addSigned), so the result is the one-thread result to
 * the bit. A batch's helpers' chunks are folded in when the next batch arrives (or at flush): this
 * thread reads and prepares the next batch while they finish.
 */
import type { EnginePage } from './analyse-pages';
import type { SignatureEngine } from './engine';
import { SortedRows } from './csr';
import { cutRuns, heavyMeasures, pairCost, type HeavyRowsExport, type HeavyValues } from './heavy-measures';
import { signPages, type PageSignatureParams, type SignedPages } from './page-signature';

/**
 * Another worker that signs a chunk of page texts (signPages there) and, once candidates are known,
 * measures a range of pairs over a copy of the engine's rows (heavyMeasuresOf there).
 */
export interface PageSigner {
  sign(texts: string[], params: PageSignatureParams): Promise<SignedPages>;
  measure(rows: HeavyRowsExport, a: Uint32Array, b: Uint32Array, est: Float32Array): Promise<HeavyValues>;
  terminate(): void;
}

/**
 * The rows are copied to each signer for the measures only up to this size (the 5,000 long pages of
 * bench:signatures take 50 MB); past it the engine's thread measures alone rather than hold copies.
 */
export const PARALLEL_MEASURE_MAX_BYTES = 256 << 20;

/**
 * The cosine and Jaccard of the pairs, a range in this thread and one in each signer (cut at first
 * pages' runs, equal shares of work: this thread has nothing else to do meanwhile); the ranges' values in order.
 */
export async function measureInParallel(
  signers: readonly PageSigner[],
  rows: () => HeavyRowsExport,
  a: Uint32Array,
  b: Uint32Array,
  est: Float32Array,
): Promise<HeavyValues[]> {
  const exported = rows();
  const here = { bags: SortedRows.from(exported.bags), shingles: SortedRows.from(exported.shingles) };
  // Ranges of about equal work (row entries read), each a whole number of first pages' runs.
  const ends = cutRuns(
    a,
    Array.from({ length: signers.length + 1 }, () => 1),
    pairCost(here, a, b, est),
  );
  const theirs = signers.map((w, k) => {
    const from = ends[k];
    const to = ends[k + 1];
    const v = w.measure(exported, a.slice(from, to), b.slice(from, to), est.slice(from, to));
    v.catch(() => undefined);
    return v;
  });
  const mine = heavyMeasures(here, a.subarray(0, ends[0]), b.subarray(0, ends[0]), est.subarray(0, ends[0]));
  return [mine, ...(await Promise.all(theirs))];
}

/**
 * Datasets with less text than this are signed by one thread: starting a worker (compiling the core
 * anew) costs more than it saves there. Signing costs by the character, not by the page. In Chromium
 * (the app, three runs each): 1,200 short pages (1.7M characters) 0.34 s with a signer against 0.27 s
 * without; 650 long generated pages (seed 11, 6.4M) 1.00 against 0.93 s; docsite (15.3M, real) 1.64
 * against 1.73 s; 5,000 long pages (48M) 4.98 s with it. PARALLEL_MIN_PAGES stands in when the text was
 * not counted (template text kept whole: no first pass).
 */
export const PARALLEL_MIN_CHARS = 10_000_000;
export const PARALLEL_MIN_PAGES = 3000;

/**
 * This thread's share of a batch against a signer's (1): it also splits template text off and folds
 * the signatures in. Chosen in Chromium on the 5,000 long pages of bench:signatures with one signer
 * (second pass 2.6–2.9 s at 0.6, 0.8 and 1.0 alike: both cores busy) and checked on docsite.
 */
export const OWN_WEIGHT = 0.8;

interface Sent {
  pages: EnginePage[];
  signed: Promise<SignedPages>;
}

export class SignedFold {
  private pending: Sent[] = [];

  constructor(
    private readonly engine: SignatureEngine,
    private readonly signers: readonly PageSigner[],
  ) {}

  /** Signs a batch (a share in each other worker) and folds in everything that precedes its own share. */
  async add(pages: EnginePage[]): Promise<void> {
    if (this.signers.length === 0) {
      for (const p of pages) this.engine.add(p);
      return;
    }
    const params = this.engine.params;
    const W = this.signers.length;
    const own = Math.round((pages.length * OWN_WEIGHT) / (OWN_WEIGHT + W));
    const size = Math.ceil((pages.length - own) / W);
    const sent: Sent[] = [];
    this.signers.forEach((w, k) => {
      const chunk = pages.slice(own + k * size, own + (k + 1) * size);
      if (chunk.length === 0) return;
      const texts = chunk.map((p) => p.text);
      const signed = w.sign(texts, params);
      // Awaited later (flush); a failure there fails the job, not an unhandled rejection meanwhile.
      signed.catch(() => undefined);
      sent.push({ pages: chunk, signed });
    });
    const mine = pages.slice(0, own);
    const texts = mine.map((p) => p.text);
    const signed = mine.length > 0 ? signPages(texts, params) : null;
    const t = performance.now();
    await this.flush();
    this.engine.timings['job.waitSigners'] =
      (this.engine.timings['job.waitSigners'] ?? 0) + performance.now() - t;
    if (signed) this.engine.addSigned(mine, signed);
    this.pending = sent;
  }

  /** Folds in the chunks still out, in order. */
  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    for (const { pages, signed } of pending) this.engine.addSigned(pages, await signed);
  }
}
