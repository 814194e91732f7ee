import * as Comlink from 'comlink';
import type { PageSigner } from '../core/candidates/signed-fold';
import type { SignerWorkerApi } from './signer.worker';

/**
 * The signatures worker's helpers: one signer worker per extra core (at most 3), each signing a share of
 * every batch of pages (core/candidates/signed-fold.ts). Apart from client.ts, which the signatures
 * worker cannot import (it refers to that worker itself: a cycle Vite refuses).
 */
export function startSigners(): PageSigner[] {
  const extra = Math.max(0, Math.min(3, (navigator.hardwareConcurrency || 1) - 1));
  return Array.from({ length: extra }, () => {
    const w = new Worker(new URL('./signer.worker.ts', import.meta.url), { type: 'module', name: 'signer' });
    const api = Comlink.wrap<SignerWorkerApi>(w);
    return {
      sign: (texts, params) => api.sign(texts, params),
      measure: (rows, a, b, est) => api.measure(rows, a, b, est),
      terminate: () => w.terminate(),
    };
  });
}
