/** All pairs within each exact-fingerprint group (capped: a group is a star around its first page beyond 200). */
export function exactPairs(fps: readonly string[]): Uint32Array {
  const groups = new Map<string, number[]>();
  fps.forEach((f, i) => {
    if (!f) return;
    let g = groups.get(f);
    if (!g) groups.set(f, (g = []));
    g.push(i);
  });
  const out: number[] = [];
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    if (g.length > 200) {
      for (let y = 1; y < g.length; y++) out.push(g[0], g[y]);
      continue;
    }
    for (let x = 0; x < g.length; x++) for (let y = x + 1; y < g.length; y++) out.push(g[x], g[y]);
  }
  return Uint32Array.from(out);
}
