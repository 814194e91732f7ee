/**
 * A designed sample of a large crawl (its estimates for the whole crawl: whole-crawl.ts).
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
 */
import { seededRandom } from '../random';
import { siteGroups, type DesignColumns, type DesignPage } from './design-columns';

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
