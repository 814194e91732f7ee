import type { MethodId, Thresholds } from '../core/candidates/methods';

const SHORT: Record<MethodId, string> = {
  exact: 'Exact fingerprint',
  'rp-hm': 'RP + HM',
  'feature-code': 'Feature code + length',
  minhash: 'MinHash',
  simhash: 'SimHash',
};

/**
 * The method and the thresholds a number on screen is for, as the sliders show them:
 * "MinHash, Jaccard ≥ 0.80", "RP + HM, C = 1.000, D = 0.022", "SimHash, Hamming ≤ 4".
 */
export function methodSetting(method: MethodId, t: Thresholds): string {
  switch (method) {
    case 'exact':
      return SHORT.exact;
    case 'rp-hm':
      return `${SHORT['rp-hm']}, C = ${t.C.toFixed(3)}, D = ${t.D.toFixed(3)}`;
    case 'feature-code':
      return t.fcLengthCheck
        ? `${SHORT['feature-code']}, a ≤ ${t.a.toFixed(2)}`
        : 'Feature code (no length check)';
    case 'minhash':
      return `${SHORT.minhash}, Jaccard ≥ ${t.jaccard.toFixed(2)}`;
    case 'simhash':
      return `${SHORT.simhash}, Hamming ≤ ${t.hamming}`;
  }
}
