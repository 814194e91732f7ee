/**
 * The one seeded pseudo-random generator of the project: mulberry32 (Tommy Ettinger, 2017), a 32-bit
 * Weyl sequence (step 0x6d2b79f5) put through an avalanching output mix. Everything that must be
 * reproducible from a seed draws from it: DUST validation samples and the detection/validation split
 * order, label sampling, the sample crawl and the test fixtures (scripts/), and the test and bench
 * data. The sample generator's bytes are the reference: sample/sample.warc.gz must stay identical
 * when this changes, so the algorithm is fixed.
 *
 * Not for anything secret. Period 2^32; each seed starts at a different point of the same cycle,
 * which is all sampling and test data need.
 */

/** A generator of uniform numbers in [0, 1). */
export type Rng = () => number;

/** Seeded uniform [0, 1) generator (mulberry32). The same seed gives the same sequence everywhere. */
export function seededRandom(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform 32-bit unsigned integers from a generator (for hashing-style test data). */
export function uint32From(rng: Rng): () => number {
  return () => (rng() * 4294967296) >>> 0;
}
