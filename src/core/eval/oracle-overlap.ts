import type { MethodId } from '../candidates/methods';
import type { Oracle } from './figure1';

/**
 * Which methods measure what the oracle measures. Precision and recall against an oracle only say how
 * well a method agrees with that oracle; a method that thresholds the oracle's own quantity agrees by
 * construction, and its curve says nothing about finding replicas. The PR pane names these next to the
 * curves.
 */
export interface OracleOverlap {
  method: MethodId;
  /** 'same': the method thresholds the oracle's quantity; 'related': it is built on the same features. */
  strength: 'same' | 'related';
  why: string;
}

const OVERLAPS: Record<Oracle, OracleOverlap[]> = {
  jaccard: [
    {
      method: 'minhash',
      strength: 'same',
      // Lecture (shingles, Jaccard > 80%); the engine accepts MinHash/LSH candidates by exact Jaccard.
      why: 'MinHash accepts a pair by the exact Jaccard of its word shingles (LSH only proposes the candidates) — the oracle’s own score, so its curve is the oracle thresholded and near-perfect by construction',
    },
    {
      method: 'simhash',
      strength: 'related',
      // Charikar: the Hamming distance of SimHash fingerprints tracks the angle between feature vectors.
      why: 'SimHash fingerprints the same shingles the oracle compares, so it leans on the oracle’s features',
    },
  ],
  cosine: [
    {
      method: 'rp-hm',
      strength: 'same',
      // Di Iorio et al. §2.1 (RP of the bag of words) and §3 (precision checked by the same cosine).
      why: 'RP projects the unit-length bag of words the oracle compares (Di Iorio et al. §2.1); for unit vectors ‖u − v‖² = 2 − 2·cos, and random projections keep distances, so ‖ΔR‖∞ follows the oracle’s cosine. The paper checked its precision with this cosine too (§3)',
    },
  ],
};

export function oracleOverlap(oracle: Oracle): readonly OracleOverlap[] {
  return OVERLAPS[oracle];
}
