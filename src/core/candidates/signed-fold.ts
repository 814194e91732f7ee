/**
 * Signatures on every core: each batch of pages is cut into as many chunks as there are threads; the
 * other workers (PageSigner, created by the platform) sign theirs while this thread signs the first,
 * and the engine folds them in in page order (addSigned), so the result is the one-thread result to
 * the bit. A batch's helpers' chunks are folded in when the next batch arrives (or at flush): this
 * thread reads and prepares the next batch while they finish.
 */
import type { EnginePage, SignatureEngine } from './engine';
import { signPages, type PageSignatureParams, type SignedPages } from './page-signature';

/** Another worker that signs a chunk of page texts (signPages there). */
export interface PageSigner {
  sign(texts: string[], params: PageSignatureParams): Promise<SignedPages>;
  terminate(): void;
}

/**
 * Datasets with fewer pages are signed by one thread: starting a worker (compiling the core anew)
 * costs more than it saves there.
 */
export const PARALLEL_MIN_PAGES = 1000;

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
    const size = Math.ceil(pages.length / (this.signers.length + 1));
    const sent: Sent[] = [];
    this.signers.forEach((w, k) => {
      const chunk = pages.slice((k + 1) * size, (k + 2) * size);
      if (chunk.length === 0) return;
      const signed = w.sign(
        chunk.map((p) => p.text),
        params,
      );
      // Awaited later (flush); a failure there fails the job, not an unhandled rejection meanwhile.
      signed.catch(() => undefined);
      sent.push({ pages: chunk, signed });
    });
    const own = pages.slice(0, size);
    const signed =
      own.length > 0
        ? signPages(
            own.map((p) => p.text),
            params,
          )
        : null;
    await this.flush();
    if (signed) this.engine.addSigned(own, signed);
    this.pending = sent;
  }

  /** Folds in the chunks still out, in order. */
  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    for (const { pages, signed } of pending) this.engine.addSigned(pages, await signed);
  }
}
