/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { heavyMeasuresOf, type HeavyRowsExport } from '../core/candidates/heavy-measures';
import { signedBuffers, signPages, type PageSignatureParams } from '../core/candidates/page-signature';

/** Thin adapter: signs chunks of page texts and measures ranges of pairs for a signatures job (core/candidates/signed-fold.ts). */
const api = {
  sign(texts: string[], params: PageSignatureParams) {
    const signed = signPages(texts, params);
    return Comlink.transfer(signed, signedBuffers(signed));
  },
  measure(rows: HeavyRowsExport, a: Uint32Array, b: Uint32Array, est: Float32Array) {
    const v = heavyMeasuresOf(rows, a, b, est);
    return Comlink.transfer(v, [v.cosine.buffer, v.jaccard.buffer]);
  },
};

export type SignerWorkerApi = typeof api;
Comlink.expose(api);
