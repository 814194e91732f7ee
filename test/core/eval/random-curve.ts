import { seededRandom } from '../../../src/core/random';
import { ThresholdCurve } from '../../../src/core/eval/curves';

/**
 * A random scored pair set for curve tests: n scores uniform in [0, 1), a pair a duplicate with
 * probability 1 − score (so low scores are mostly duplicates, as ‖ΔR‖∞ is), and its curve.
 */
export function randomCurve(seed: number, n: number, extraDup = 0) {
  const rnd = seededRandom(seed);
  const score = Array.from({ length: n }, rnd);
  const isDup = score.map((x) => (rnd() < 1 - x ? 1 : 0));
  const curve = new ThresholdCurve(
    score,
    isDup,
    isDup.map((d) => 1 - d),
    extraDup,
  );
  return { score, isDup, curve };
}
