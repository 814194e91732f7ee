/**
 * `npm run bench:near -- [--pages 10000] [--seed 7]`: the signature engine on a crawl of near-identical
 * pages (one base text of 600 words, each page one word changed, plus 5% unrelated pages), in Node, as
 * the signatures job runs it (analysePages). Near-identical pages fill every LSH band's and every SimHash
 * block's bucket; both are verified against their anchors, so the work is linear in the pages.
 *
 * Printed: the engine's time and peak RSS beside a baseline measured in the same run (shingling every
 * page alone, the least any method reads), the candidate pairs against every pair of the group, and the
 * clusters (connected components of the accepted pairs) against brute-force references: for MinHash,
 * every pair of the group has an exact Jaccard ≥ 0.98 (two words of 600 differ), so the truth is the
 * group as one cluster and every unrelated page alone; for SimHash, the components of every pair within
 * the Hamming threshold, all n²/2 pairs compared. Goals: under 60 s and 1 GB at 10,000 pages, the
 * references' clusters.
 */
import { parseArgs } from 'node:util';
import { analysePages } from '../../src/core/candidates/analyse-pages';
import { ENGINE_DEFAULTS } from '../../src/core/candidates/engine-params';
import { acceptMask, DEFAULT_THRESHOLDS } from '../../src/core/candidates/methods';
import { componentsOf, starsOf } from '../../src/core/clusters/clusters';
import { UnionFind } from '../../src/core/union-find';
import { seededRandom } from '../../src/core/random';
import { shingleSet } from '../../src/core/signatures/shingles';
import { hamming64, simhashOfHashes } from '../../src/core/signatures/simhash';

const { values } = parseArgs({
  options: { pages: { type: 'string', default: '10000' }, seed: { type: 'string' } },
});
const n = Number(values.pages);
const seed = Number(values.seed ?? Math.floor(Math.random() * 1e9));
const rng = seededRandom(seed);
const word = () => `w${Math.floor(rng() * 20000)}`;
const base = Array.from({ length: 600 }, word);
const others = Math.floor(n * 0.05);
const group = n - others;
const pages = Array.from({ length: n }, (_, k) => {
  const w = k < group ? [...base] : Array.from({ length: 600 }, word);
  if (k < group) w[Math.floor(rng() * w.length)] = word();
  return { text: w.join(' '), normUrl: `http://near.test/${k}`, outlinks: [], fingerprint: '' };
});
console.log(
  `seed ${seed}: ${n.toLocaleString('en-US')} pages, ${group.toLocaleString('en-US')} near-identical`,
);

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const t0 = performance.now();
for (const p of pages) shingleSet(p.text);
const baseline = performance.now() - t0;
const t1 = performance.now();
const { result } = analysePages(pages, { template: { ...ENGINE_DEFAULTS.template, strip: false } });
const engine = performance.now() - t1;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);

const every = (group * (group - 1)) / 2;
console.log(
  `engine ${(engine / 1000).toFixed(1)} s (shingling alone ${(baseline / 1000).toFixed(1)} s: ${(engine / baseline).toFixed(1)}×), peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`,
);
console.log(
  `candidate pairs ${result.pairs.count.toLocaleString('en-US')} (${((100 * result.pairs.count) / every).toFixed(2)}% of the group's ${every.toLocaleString('en-US')} pairs)`,
);
let ok = engine < 60_000 && peak < 2 ** 30;
const canon = (cs: { members: number[] }[]) =>
  cs
    .map((c) => [...c.members].sort((x, y) => x - y).join(' '))
    .sort()
    .join('\n');
// The references: MinHash's by construction; SimHash's from every pair within the threshold.
const minhashTruth = canon([{ members: Array.from({ length: group }, (_, i) => i) }]);
const hi = new Uint32Array(n);
const lo = new Uint32Array(n);
pages.forEach((p, i) => ([hi[i], lo[i]] = simhashOfHashes(shingleSet(p.text))));
const t2 = performance.now();
const uf = new UnionFind(n);
const touched = new Uint8Array(n);
for (let i = 0; i < n; i++)
  for (let j = i + 1; j < n; j++)
    if (hamming64(hi[i], lo[i], hi[j], lo[j]) <= DEFAULT_THRESHOLDS.hamming) {
      uf.union(i, j);
      touched[i] = touched[j] = 1;
    }
const byRoot = new Map<number, number[]>();
for (let i = 0; i < n; i++) if (touched[i]) byRoot.set(uf.find(i), [...(byRoot.get(uf.find(i)) ?? []), i]);
const simhashTruth = canon([...byRoot.values()].map((members) => ({ members })));
console.log(`SimHash reference: every pair compared in ${((performance.now() - t2) / 1000).toFixed(1)} s`);
for (const m of ['minhash', 'simhash'] as const) {
  const { mask, accepted } = acceptMask(result.pairs, m, DEFAULT_THRESHOLDS);
  const edges: number[] = [];
  for (let k = 0; k < result.pairs.count; k++) if (mask[k]) edges.push(k);
  const clusters = componentsOf(n, result.pairs.a, result.pairs.b, edges);
  const stars = starsOf(n, result.pairs.a, result.pairs.b, edges);
  const same = canon(clusters) === (m === 'minhash' ? minhashTruth : simhashTruth);
  ok &&= same;
  const largest = Math.max(0, ...clusters.map((c) => c.members.length));
  // Pages the reference clusters that no cluster here holds (anchoring's loss: a page alike only to
  // non-anchors of its buckets).
  const held = new Set(clusters.flatMap((c) => c.members));
  const reference = (m === 'minhash' ? minhashTruth : simhashTruth).split(/\s+/).filter(Boolean).map(Number);
  const missing = reference.filter((i) => !held.has(i)).length;
  console.log(
    `${m}: ${accepted.toLocaleString('en-US')} pairs accepted; ${clusters.length} component(s), largest ${largest}: ${same ? 'the reference' : `NOT the reference (${missing} of its ${reference.length.toLocaleString('en-US')} clustered pages in no cluster)`}; ${stars.length} star cluster(s)`,
  );
}
console.log(ok ? 'goals met' : 'goals NOT met (under 60 s and 1 GB, the references)');
process.exitCode = ok ? 0 : 1;
