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

/**
 * buildLinkGraph on 64-bit hashes of the URLs (hash.ts hash64Into, [hi, lo] pairs): urls holds each
 * page's, links each outlink's, linkEnds[p] where page p's outlinks end. The same graph as
 * buildLinkGraph unless two distinct URLs share a hash. A typed open-addressing table keeps the first
 * page of each URL hash; no string is kept (the engine's memory at 1M pages).
 */
export function linkGraphOfHashes(
  urls: Uint32Array,
  links: Uint32Array,
  linkEnds: Uint32Array,
  n: number,
): LinkGraph {
  let size = 1024;
  while (size < 2 * n) size *= 2;
  const mask = size - 1;
  const keyHi = new Uint32Array(size);
  const keyLo = new Uint32Array(size);
  /** Page + 1; 0 an empty slot. */
  const page = new Int32Array(size);
  const slot = (hi: number, lo: number): number => {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
    while (page[i] !== 0 && (keyHi[i] !== hi || keyLo[i] !== lo)) i = (i + 1) & mask;
    return i;
  };
  for (let p = 0; p < n; p++) {
    const i = slot(urls[2 * p], urls[2 * p + 1]);
    if (page[i] !== 0) continue;
    keyHi[i] = urls[2 * p];
    keyLo[i] = urls[2 * p + 1];
    page[i] = p + 1;
  }
  const offsets = new Uint32Array(n + 1);
  let targets = new Uint32Array(Math.max(16, n));
  let t = 0;
  // seen[q] = p + 1 while page p's links are resolved: duplicates dropped without a set per page.
  const seen = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    for (let e = p === 0 ? 0 : linkEnds[p - 1]; e < linkEnds[p]; e++) {
      const q = page[slot(links[2 * e], links[2 * e + 1])] - 1;
      if (q < 0 || q === p || seen[q] === p + 1) continue;
      seen[q] = p + 1;
      if (t === targets.length) {
        const next = new Uint32Array(targets.length * 2);
        next.set(targets);
        targets = next;
      }
      targets[t++] = q;
    }
    offsets[p + 1] = t;
  }
  return { offsets, targets: targets.slice(0, t) };
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
