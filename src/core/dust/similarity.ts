/**
 * The two similarity tests of DustBuster. LikelySimilar (§4 "Similarity likeliness heuristic", §5.1)
 * guesses from the URL list alone; the validation test (§5.3, Fig. 3 line 9) compares fetched
 * documents by their sketches.
 */
import { estimateJaccard } from '../signatures/minhash';
import type { DustContent } from './types';

/**
 * §5.1: "a boolean function LikelySimilar which returns false only if the documents of the two input
 * URLs are unlikely to be similar". Cues, strongest first: equal content identities (digest or text
 * fingerprint) are similar; two sketches (§4: "When available, documents sketches are used") are
 * similar at estimated Jaccard ≥ jaccard; two size ranges (§4: "A pair of URLs … are considered
 * likely similar if the intervals I_u1 and I_u2 overlap") are similar when the closed intervals
 * [sizeMin, sizeMax] share a point. Without a cue on both sides nothing says "unlikely": true.
 */
export function likelySimilar(a: DustContent, b: DustContent, jaccard: number): boolean {
  if (a.digest !== '' && a.digest === b.digest) return true;
  if (a.sketch && b.sketch) return estimateJaccard(a.sketch, b.sketch) >= jaccard;
  if (a.sizeMin >= 0 && b.sizeMin >= 0) return a.sizeMin <= b.sizeMax && b.sizeMin <= a.sizeMax;
  return true;
}

/**
 * Fig. 3 line 9 "DocSketch(u) ≠ DocSketch(v)" read as the DUST definition of §3 ("we use the popular
 * shingling resemblance measure"): similar when the sketches' estimated resemblance is ≥ jaccard, or
 * the contents are identical. null when the two documents carry neither sketches nor content
 * identities: sizes are a cue for detection, not evidence for validation.
 */
export function documentsSimilar(a: DustContent, b: DustContent, jaccard: number): boolean | null {
  if (a.digest !== '' && a.digest === b.digest) return true;
  if (a.sketch && b.sketch) return estimateJaccard(a.sketch, b.sketch) >= jaccard;
  if (a.digest !== '' && b.digest !== '') return false;
  return null;
}
