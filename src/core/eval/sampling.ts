import { seededRandom } from '../random';

/**
 * Which candidate pairs to label, and with what inclusion probability (so estimates can weight by the
 * sampling design: estimators.ts).
 * - stratified: similarity bins, the same number of pairs from each (rare high- and low-similarity
 *   pairs are seen; each label carries π = drawn / pairs in its bin);
 * - near-threshold: the pairs whose score is closest to the current threshold (most informative for
 *   choosing it; not a probability sample, so π is NaN and such labels are left out of weighted estimates);
 * - random: a uniform sample, π = drawn / all.
 */
export type Strategy = 'stratified' | 'near-threshold' | 'random';

export interface QueueItem {
  /** Index of the pair in the pair table. */
  pair: number;
  strategy: Strategy;
  pi: number;
}

/** k distinct items of `from`, uniformly (partial Fisher–Yates on a copy). */
function sample(from: number[], k: number, rnd: () => number): number[] {
  const a = from.slice();
  const n = Math.min(k, a.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rnd() * (a.length - i));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}

/**
 * A labelling queue of about `size` pairs. `score` is the similarity the strata and the threshold use
 * (e.g. exact Jaccard in [0, 1]); `threshold` is where near-threshold sampling looks.
 */
export function buildQueue(
  score: ArrayLike<number>,
  strategy: Strategy,
  size: number,
  opts: { seed?: number; bins?: number; threshold?: number } = {},
): QueueItem[] {
  const rnd = seededRandom(opts.seed ?? 1);
  const n = score.length;
  const all = Array.from({ length: n }, (_, i) => i);
  if (strategy === 'random') {
    return sample(all, size, rnd).map((pair) => ({ pair, strategy, pi: Math.min(size, n) / n }));
  }
  if (strategy === 'near-threshold') {
    const t = opts.threshold ?? 0.5;
    return all
      .sort((x, y) => Math.abs(score[x] - t) - Math.abs(score[y] - t) || x - y)
      .slice(0, size)
      .map((pair) => ({ pair, strategy, pi: NaN }));
  }
  const bins = opts.bins ?? 5;
  const strata: number[][] = Array.from({ length: bins }, () => []);
  for (let i = 0; i < n; i++) strata[Math.min(bins - 1, Math.max(0, Math.floor(score[i] * bins)))].push(i);
  const per = Math.ceil(size / bins);
  const out: QueueItem[] = [];
  for (const s of strata) {
    if (s.length === 0) continue;
    const drawn = sample(s, per, rnd);
    for (const pair of drawn) out.push({ pair, strategy, pi: drawn.length / s.length });
  }
  // Shuffle so the first labels already cover every bin.
  return sample(Array.from(out.keys()), out.length, rnd).map((i) => out[i]);
}
