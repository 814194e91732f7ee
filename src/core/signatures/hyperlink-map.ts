/**
 * Hyperlink Map signature (Di Iorio et al., WWW 2003, §2.2, equation 1):
 *   x^p_j(t+1) = r^p_j + γ · Σ_{q ∈ ch(p)} x^q_j(t) · r^q_j,   x^p(0) = r^p,
 * then every component is divided by the global maximum x_M so values lie in [0, 1].
 * ch(p) are the pages p links to that are in the dataset (outlinks resolved by normalised URL).
 */
export interface HmOptions {
  /**
   * Damping γ. Default 0.1: a page's own RP term stays dominant while its children can still move
   * its signature — on docsite the median out-degree is about 10, so the neighbourhood term
   * (≈ γ·deg·x·r) is of the order of r itself; a γ near 1 lets hub pages with 100+ links swamp x_M
   * and squash every other page's signature towards 0 after normalisation.
   */
  gamma: number;
  /** Iterations (§2.2: 3–5 in the experiments). */
  iterations: number;
}

export const HM_DEFAULTS: HmOptions = { gamma: 0.1, iterations: 4 };

/** Children lists in compressed sparse row form: targets of page p are targets[offsets[p] .. offsets[p+1]). */
export interface LinkGraph {
  offsets: Uint32Array;
  targets: Uint32Array;
}

/** Resolve outlinks to pages of the dataset; duplicates and self-links dropped. */
export function buildLinkGraph(
  normUrls: readonly string[],
  outlinks: readonly (readonly string[])[],
): LinkGraph {
  const index = new Map<string, number>();
  normUrls.forEach((u, i) => {
    if (!index.has(u)) index.set(u, i);
  });
  const offsets = new Uint32Array(normUrls.length + 1);
  const targets: number[] = [];
  for (let p = 0; p < normUrls.length; p++) {
    const seen = new Set<number>();
    for (const l of outlinks[p] ?? []) {
      const q = index.get(l);
      if (q === undefined || q === p || seen.has(q)) continue;
      seen.add(q);
      targets.push(q);
    }
    offsets[p + 1] = targets.length;
  }
  return { offsets, targets: Uint32Array.from(targets) };
}

export function hyperlinkMap(
  r: Float32Array,
  n: number,
  K: number,
  g: LinkGraph,
  opts: HmOptions,
): Float32Array {
  let x = Float64Array.from(r);
  let next = new Float64Array(n * K);
  for (let t = 0; t < opts.iterations; t++) {
    for (let p = 0; p < n; p++) {
      for (let j = 0; j < K; j++) {
        let sum = 0;
        for (let e = g.offsets[p]; e < g.offsets[p + 1]; e++) {
          const q = g.targets[e];
          sum += x[q * K + j] * r[q * K + j];
        }
        next[p * K + j] = r[p * K + j] + opts.gamma * sum;
      }
    }
    [x, next] = [next, x];
  }
  let max = 0;
  for (let i = 0; i < n * K; i++) max = Math.max(max, x[i]);
  const out = new Float32Array(n * K);
  if (max > 0) for (let i = 0; i < n * K; i++) out[i] = x[i] / max;
  return out;
}
