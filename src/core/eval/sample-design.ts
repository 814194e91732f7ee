/**
 * A designed sample of a large crawl, and estimates for the whole crawl from it.
 *
 * A uniform sample of pages keeps almost no duplicate pairs (a pair survives with p²), so the sample is a
 * **cluster sample of sites**: duplicates and DUST live mostly inside a site and between a site and its
 * mirrors. The sampling unit is a *site group*: a site (its host, `www.` dropped) joined with every site
 * the index shows to mirror it (they share payload digests: at least MIRROR.minShared of them and
 * MIRROR.minShare of the smaller site's distinct digests; a digest held by more than MIRROR.maxSites
 * sites — an empty page, a shared error page — is no evidence). The largest units are taken whole with
 * certainty (π = 1) while they fit in half the budget; the others are drawn by simple random sampling
 * without replacement, n of the N′ left, n chosen so that the expected page count is the budget: their
 * pages have the inclusion probability π = n / N′, recorded with their unit.
 *
 * Whole-crawl figures are ratio estimates over the chosen units (Cochran, *Sampling Techniques*, 3rd ed.,
 * §5.2, §6.2–6.4). Exact duplicates (same payload digest) are counted on the whole index, with no sampling
 * error; what the sample adds is the near duplicates, as *merges* (distinct digests minus the groups the
 * engine's clusters leave, per unit): counted in the certain units, and over the drawn ones a ratio
 * estimate R̂ = Σ yᵤ / Σ xᵤ (y: merges in unit u, x: its pages) with variance (1 − n/N′) · s²_d / (n · X̄²),
 * dᵤ = yᵤ − R̂·xᵤ, X̄ = X′ / N′ from the index's page count, and a total R̂·X′. Intervals use Student's t
 * with n − 1 degrees of freedom. What the estimate stands for: near duplicates inside a unit (a site and
 * its mirrors); a near copy on an unrelated site is not seen (said where the estimate is shown).
 */
import { hash64Into } from '../hash';
import { seededRandom } from '../random';
import type { Estimate } from './estimators';

/** Mirror evidence between two sites, from their payload digests in the index. */
export const MIRROR = {
  /** Digests two sites must share at least (or all of the smaller site's, when it has fewer). */
  minShared: 3,
  /** Share of the smaller site's distinct digests that the two must share. */
  minShare: 0.2,
  /** A digest found on more sites than this says nothing about mirroring (empty or error pages). */
  maxSites: 20,
} as const;

/** The page a design needs from an index entry. */
export interface DesignPage {
  url: string;
  digest: string;
  /** Bytes of its record in the file. */
  bytes: number;
}

export interface SampleUnit {
  id: number;
  sites: string[];
  pages: number;
  bytes: number;
}

export interface SampleDesign {
  seed: number;
  /** Pages asked for (the expected page count of the sample). */
  budget: number;
  units: SampleUnit[];
  /** Unit of each page, by the page's index in the input. */
  unitOfPage: Int32Array;
  /** The chosen units' ids, ascending (the certain ones among them). */
  chosen: number[];
  /** Units taken whole with certainty (π = 1), ascending. */
  certain: number[];
  /** Inclusion probability of every other unit, hence of its pages: n / N′. */
  pi: number;
  /** The units drawn from (all but the certain ones) and their pages in the index. */
  rest: { units: number; pages: number };
  population: { pages: number; bytes: number; sites: number; units: number };
  /** Sites joined to another by mirror evidence. */
  mirroredSites: number;
}

/** A URL's site: its host in lower case without a leading `www.` ('' when it has none). */
export function siteOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/:?#]+)/i.exec(url);
  return m ? m[1].toLowerCase().replace(/^www\./, '') : '';
}

/**
 * The index's pages as the design reads them: a column per field, so a crawl of millions of pages costs
 * a few typed arrays and its distinct sites and directories as strings, not an object per page.
 */
export interface DesignColumns {
  length: number;
  /** Site of each page (an index into `sites`). */
  site: Int32Array;
  sites: string[];
  /** A 52-bit hash of each page's payload digest; NaN when it has none. */
  digest: Float64Array;
  bytes: Float64Array;
  /** Directory of each page's path at depth 1, 2, 3: ids of path prefixes, the same on every site. */
  dirs: [Int32Array, Int32Array, Int32Array];
  /** The path prefix of each directory id. */
  dirNames: string[];
}

/** Builds DesignColumns a page at a time (arrays grown by doubling). */
export class DesignColumnsBuilder {
  private n = 0;
  private site = new Int32Array(1024);
  private digest = new Float64Array(1024);
  private bytes = new Float64Array(1024);
  private dirs: [Int32Array, Int32Array, Int32Array] = [
    new Int32Array(1024),
    new Int32Array(1024),
    new Int32Array(1024),
  ];
  private readonly siteIds = new Map<string, number>();
  private readonly dirIds = new Map<string, number>();
  private readonly h = new Uint32Array(2);

  add(url: string, digest: string, bytes: number): void {
    if (this.n === this.site.length) this.grow();
    const i = this.n++;
    const s = siteOf(url);
    let id = this.siteIds.get(s);
    if (id === undefined) this.siteIds.set(s, (id = this.siteIds.size));
    this.site[i] = id;
    if (digest) {
      hash64Into(digest, this.h);
      this.digest[i] = (this.h[0] & 0xfffff) * 4294967296 + this.h[1];
    } else this.digest[i] = NaN;
    this.bytes[i] = Math.max(0, bytes);
    const segs = pathDirs(url);
    for (let d = 0; d < 3; d++) {
      const key = segs.slice(0, d + 1).join('/');
      let k = this.dirIds.get(key);
      if (k === undefined) this.dirIds.set(key, (k = this.dirIds.size));
      this.dirs[d][i] = k;
    }
  }

  finish(): DesignColumns {
    const n = this.n;
    return {
      length: n,
      site: this.site.slice(0, n),
      sites: [...this.siteIds.keys()],
      digest: this.digest.slice(0, n),
      bytes: this.bytes.slice(0, n),
      dirs: [this.dirs[0].slice(0, n), this.dirs[1].slice(0, n), this.dirs[2].slice(0, n)],
      dirNames: [...this.dirIds.keys()],
    };
  }

  private grow(): void {
    const m = this.site.length * 2;
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(m);
      b.set(a);
      return b;
    };
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(m);
      b.set(a);
      return b;
    };
    this.site = i32(this.site);
    this.digest = f64(this.digest);
    this.bytes = f64(this.bytes);
    this.dirs = [i32(this.dirs[0]), i32(this.dirs[1]), i32(this.dirs[2])];
  }
}

/** The columns of a list of pages (tests, small indexes). */
export function columnsOf(pages: readonly DesignPage[]): DesignColumns {
  const b = new DesignColumnsBuilder();
  for (const p of pages) b.add(p.url, p.digest, p.bytes);
  return b.finish();
}

const asColumns = (x: DesignColumns | readonly DesignPage[]): DesignColumns =>
  Array.isArray(x) ? columnsOf(x as readonly DesignPage[]) : (x as DesignColumns);

/** The directories of a URL's path (its segments but the last, the page itself). */
function pathDirs(url: string): string[] {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url);
  const segs = (m ? m[1] : '').split('/').filter((x) => x !== '');
  return segs.slice(0, Math.max(0, segs.length - 1));
}

/** Pages with a digest, ordered by (digest, site): runs of one digest. */
function byDigest(c: DesignColumns): Uint32Array {
  let k = 0;
  for (let i = 0; i < c.length; i++) if (!Number.isNaN(c.digest[i])) k++;
  const order = new Uint32Array(k);
  k = 0;
  for (let i = 0; i < c.length; i++) if (!Number.isNaN(c.digest[i])) order[k++] = i;
  return order.sort((a, b) => c.digest[a] - c.digest[b] || c.site[a] - c.site[b]);
}

/**
 * Site groups: sites joined when the index shows they mirror each other (see MIRROR). `unitOfSite`
 * by site id (an index into `columns.sites`); `mirrored`: sites in a group of more than one.
 */
export function siteGroups(input: DesignColumns | readonly DesignPage[]): {
  columns: DesignColumns;
  unitOfSite: Int32Array;
  mirrored: number;
} {
  const c = asColumns(input);
  const n = c.sites.length;
  const distinct = new Int32Array(n);
  const shared = new Map<number, number>();
  const order = byDigest(c);
  const run: number[] = [];
  const flush = () => {
    for (const s of run) distinct[s]++;
    if (run.length >= 2 && run.length <= MIRROR.maxSites)
      for (let i = 0; i < run.length; i++)
        for (let j = i + 1; j < run.length; j++) {
          const key = run[i] * n + run[j];
          shared.set(key, (shared.get(key) ?? 0) + 1);
        }
    run.length = 0;
  };
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (k > 0 && c.digest[order[k - 1]] !== c.digest[i]) flush();
    // Sites ascend within a run: each is added once.
    if (run.length === 0 || run[run.length - 1] !== c.site[i]) run.push(c.site[i]);
  }
  flush();
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const [key, count] of shared) {
    const a = Math.floor(key / n);
    const b = key % n;
    const smaller = Math.min(distinct[a], distinct[b]);
    if (count >= Math.min(MIRROR.minShared, smaller) && count >= MIRROR.minShare * smaller) {
      const ra = find(a);
      const rb = find(b);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
  const unitOfRoot = new Map<number, number>();
  const unitOfSite = new Int32Array(n);
  const size = new Map<number, number>();
  // Units are numbered in the order of their sites' names, not of the index's lines: the same crawl
  // gives the same units (and the same draw for a seed) whatever order its index or files list it in.
  const byName = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    c.sites[a] < c.sites[b] ? -1 : c.sites[a] > c.sites[b] ? 1 : 0,
  );
  for (const id of byName) {
    const r = find(id);
    let u = unitOfRoot.get(r);
    if (u === undefined) unitOfRoot.set(r, (u = unitOfRoot.size));
    unitOfSite[id] = u;
    size.set(u, (size.get(u) ?? 0) + 1);
  }
  let mirrored = 0;
  for (const s of size.values()) if (s > 1) mirrored += s;
  return { columns: c, unitOfSite, mirrored };
}

/**
 * The design: units from the index's pages; the largest units taken whole with certainty while they
 * fit in half the budget (π = 1: the largest sites are where a random draw would swing the estimate
 * most); of the other N′ units, n drawn at random (seeded), n the nearest whole number to
 * N′ · (budget left) / (their pages) — at least 2 when there are 2, at most N′ — each with π = n / N′.
 */
export function designSample(
  input: DesignColumns | readonly DesignPage[],
  budget: number,
  seed: number,
): SampleDesign {
  const { columns: c, unitOfSite, mirrored } = siteGroups(input);
  const units: SampleUnit[] = [];
  for (let id = 0; id < c.sites.length; id++) {
    const u = unitOfSite[id];
    units[u] ??= { id: u, sites: [], pages: 0, bytes: 0 };
    units[u].sites.push(c.sites[id]);
  }
  const unitOfPage = new Int32Array(c.length);
  for (let i = 0; i < c.length; i++) {
    const u = unitOfSite[c.site[i]];
    unitOfPage[i] = u;
    units[u].pages++;
  }
  const want = Math.max(0, budget);
  splitLarge(c, units, unitOfPage, want / 2);
  let bytes = 0;
  for (let i = 0; i < c.length; i++) {
    units[unitOfPage[i]].bytes += c.bytes[i];
    bytes += c.bytes[i];
  }
  const N = units.length;
  const bySize = units.map((u) => u.id).sort((a, b) => units[b].pages - units[a].pages || a - b);
  // Self-representing units: the largest, each taken whole while the certain ones fit in half the
  // budget and the unit is at least the mean drawn unit's share (a unit too large to fit is skipped,
  // and stays in the draw).
  const certain: number[] = [];
  let certainPages = 0;
  let leftUnits = N;
  let leftPages = c.length;
  for (const u of bySize) {
    const size = units[u].pages;
    const meanDraw =
      leftUnits > 0 ? leftPages / Math.max(1, (leftUnits * (want - certainPages)) / leftPages) : 0;
    if (size < meanDraw || leftUnits <= 2) break;
    if (certainPages + size > want / 2) continue;
    certain.push(u);
    certainPages += size;
    leftUnits--;
    leftPages -= size;
  }
  const isCertain = new Set(certain);
  const rest = bySize.filter((u) => !isCertain.has(u)).sort((a, b) => a - b);
  const restPages = c.length - certainPages;
  const R = rest.length;
  const wanted = restPages === 0 ? 0 : Math.round((R * (want - certainPages)) / restPages);
  const n = Math.min(R, Math.max(Math.min(2, R), wanted));
  const rnd = seededRandom(seed);
  for (let i = R - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  const drawn = rest.slice(0, n);
  return {
    seed,
    budget,
    units,
    unitOfPage,
    chosen: [...certain, ...drawn].sort((a, b) => a - b),
    certain: certain.sort((a, b) => a - b),
    pi: R === 0 ? 1 : n / R,
    rest: { units: R, pages: restPages },
    population: { pages: c.length, bytes, sites: c.sites.length, units: N },
    mirroredSites: mirrored,
  };
}

/**
 * Units larger than `max` pages (more than half the budget: they could never be read whole) are cut by
 * the URLs' directories — the first path segment, then the first two, then three — the same directory
 * on each of a unit's mirror sites staying together. A directory still larger stays one unit.
 */
function splitLarge(c: DesignColumns, units: SampleUnit[], unitOfPage: Int32Array, max: number): void {
  const width = c.length + 1;
  for (let depth = 1; depth <= 3; depth++) {
    const large = new Set(units.filter((u) => u.pages > max).map((u) => u.id));
    if (large.size === 0) return;
    const dirs = c.dirs[depth - 1];
    const keys = new Set<number>();
    for (let i = 0; i < c.length; i++)
      if (large.has(unitOfPage[i])) keys.add(unitOfPage[i] * width + dirs[i]);
    // Pieces numbered by unit, then directory name (not by the order pages come in).
    const sorted = [...keys].sort((x, y) => {
      const ux = Math.floor(x / width);
      const uy = Math.floor(y / width);
      if (ux !== uy) return ux - uy;
      const nx = c.dirNames[x % width];
      const ny = c.dirNames[y % width];
      return nx < ny ? -1 : nx > ny ? 1 : 0;
    });
    const piece = new Map<number, number>();
    const kept = new Set<number>();
    for (const key of sorted) {
      const u = Math.floor(key / width);
      // The first piece keeps the unit's id; the others are new units.
      const id = kept.has(u) ? units.length : u;
      kept.add(u);
      piece.set(key, id);
      if (id !== u) units.push({ id, sites: units[u].sites, pages: 0, bytes: 0 });
    }
    for (let i = 0; i < c.length; i++) {
      const u = unitOfPage[i];
      if (large.has(u)) unitOfPage[i] = piece.get(u * width + dirs[i])!;
    }
    const touched = new Set<number>(piece.values());
    for (const id of touched) units[id].pages = 0;
    for (let i = 0; i < c.length; i++) if (touched.has(unitOfPage[i])) units[unitOfPage[i]].pages++;
  }
}

/** A unit's inclusion probability in the design (1 for a unit taken with certainty). */
export function unitPi(d: SampleDesign, unit: number): number {
  return d.certain.includes(unit) ? 1 : d.pi;
}

/** What the sample found in one chosen unit: its pages (x) and those with the property (y). */
export interface UnitCount {
  x: number;
  y: number;
}

/** Student's t quantile for a two-sided 95% interval (Cornish–Fisher from the normal quantile). */
export function t975(df: number): number {
  const z = 1.959963984540054;
  if (!(df > 0)) return Infinity;
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3)
  );
}

/**
 * The ratio estimate R̂ = Σy / Σx over the n chosen units of N, with X the population's total of x
 * (pages in the whole crawl): the rate with its 95% interval (clipped to [0, 1]) and the total R̂ · X.
 * `n` in each Estimate is the number of units behind it.
 */
export function ratioEstimate(
  counts: readonly UnitCount[],
  N: number,
  X: number,
): { rate: Estimate; total: Estimate } {
  const n = counts.length;
  let sy = 0;
  let sx = 0;
  for (const c of counts) {
    sy += c.y;
    sx += c.x;
  }
  if (n === 0 || sx === 0) {
    const none = { value: NaN, lo: 0, hi: 1, n };
    return { rate: none, total: { value: NaN, lo: 0, hi: X, n } };
  }
  const r = sy / sx;
  const f = N > 0 ? n / N : 1;
  let se = 0;
  if (n > 1 && f < 1) {
    // Jackknife (delete one unit): for a ratio over few, unequal units it is the more conservative of
    // the two usual estimators (Cochran §6.16), the linearised one undercovering on skewed site sizes.
    let sum = 0;
    let sum2 = 0;
    for (const c of counts) {
      const ri = sx - c.x > 0 ? (sy - c.y) / (sx - c.x) : r;
      sum += ri;
      sum2 += ri * ri;
    }
    const mean = sum / n;
    const v = (1 - f) * (n - 1) * Math.max(0, sum2 / n - mean * mean);
    se = Math.sqrt(v);
  }
  const half = se === 0 ? 0 : t975(n - 1) * se;
  const rate: Estimate = { value: r, lo: Math.max(0, r - half), hi: Math.min(1, r + half), n };
  return { rate, total: { value: r * X, lo: rate.lo * X, hi: rate.hi * X, n } };
}

/**
 * Pages that duplicate an earlier page of the whole crawl by payload digest: pages − distinct digests
 * (a page without a digest counts as distinct). Exact, from the index alone: no sampling error.
 */
export function exactDuplicates(input: DesignColumns | readonly DesignPage[]): number {
  const c = asColumns(input);
  const d = c.digest.filter((x) => !Number.isNaN(x)).sort();
  let dup = 0;
  for (let i = 1; i < d.length; i++) if (d[i] === d[i - 1]) dup++;
  return dup;
}

/**
 * Near-duplicate merges inside one unit read whole: its distinct digests minus the groups left when
 * pages of one digest and pages of one cluster (the engine's, on the sample) are joined. Each merge is
 * one more page removed than the digests alone say.
 */
export function unitMerges(pages: readonly { digest: string; cluster: number | null }[]): number {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const union = (a: string, b: string) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  let anon = 0;
  const digests = new Set<string>();
  for (const p of pages) {
    const d = p.digest ? 'd:' + p.digest : `p:${anon++}`;
    digests.add(d);
    if (!parent.has(d)) parent.set(d, d);
    if (p.cluster !== null) {
      const c = 'c:' + p.cluster;
      if (!parent.has(c)) parent.set(c, c);
      union(d, c);
    }
  }
  const groups = new Set<string>();
  for (const d of digests) groups.add(find(d));
  return digests.size - groups.size;
}

/**
 * Duplicates among some pages: the pages minus their groups, a group being the pages joined by one digest
 * or one cluster (a page without a digest is its own, unless a cluster joins it).
 */
export function duplicatesAmong(pages: readonly { digest: string; cluster: number | null }[]): number {
  const digests = pages.filter((p) => p.digest).map((p) => p.digest);
  return digests.length - new Set(digests).size + unitMerges(pages);
}

/**
 * The whole crawl's duplicates: the exact ones counted on the index, plus the near-duplicate merges
 * found in the units taken with certainty, plus those estimated from the drawn units (x: the unit's
 * pages in the index, y: its merges; N′ units and X′ pages drawn from), as a rate of the crawl's X pages
 * and as pages removed, with 95% intervals from the drawn units' estimate.
 */
export function duplicateEstimate(
  exact: number,
  certainMerges: number,
  drawn: readonly UnitCount[],
  rest: { units: number; pages: number },
  X: number,
): { rate: Estimate; removed: Estimate } {
  const n = drawn.length;
  const z =
    rest.units === 0 || rest.pages === 0
      ? { value: 0, lo: 0, hi: 0 }
      : ratioEstimate(drawn, rest.units, rest.pages).total;
  if (X === 0 || Number.isNaN(z.value))
    return { rate: { value: NaN, lo: 0, hi: 1, n }, removed: { value: NaN, lo: exact, hi: X, n } };
  const base = exact + certainMerges;
  const removed: Estimate = { value: base + z.value, lo: base + z.lo, hi: Math.min(X, base + z.hi), n };
  return { removed, rate: { value: removed.value / X, lo: removed.lo / X, hi: removed.hi / X, n } };
}
