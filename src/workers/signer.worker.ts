/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { signedBuffers, signPages, type PageSignatureParams } from '../core/candidates/page-signature';

/** Thin adapter: signs chunks of page texts for a signatures job (core/candidates/signed-fold.ts). */
const api = {
  sign(texts: string[], params: PageSignatureParams) {
    const signed = signPages(texts, params);
    return Comlink.transfer(signed, signedBuffers(signed));
  },
};

export type SignerWorkerApi = typeof api;
Comlink.expose(api);
