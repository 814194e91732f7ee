/**
 * Reading a designed sample by byte ranges: from a crawl's index and the design (core/eval/
 * sample-design.ts), which records of which file to read, cut as ranges of the files — adjacent
 * records joined into one range — and, for each file, the map from a position in its ranges read one
 * after the other back to the offset in the file. A .warc.gz's records are gzip members, so the ranges
 * read one after the other are a multi-member gzip stream the core reads as any other.
 */
import { designSample, type SampleDesign } from '../eval/sample-design';
import {
  duplicatesAmong,
  duplicateEstimate,
  exactDuplicates,
  unitMerges,
  type UnitCount,
} from '../eval/whole-crawl';
import type { Estimate } from '../eval/estimators';
import type { IndexEntry } from './crawl-index';
import { baseName, indexPages, type IndexPages } from './index-pages';

export interface FileRanges {
  /** The file's name as the index gives it. */
  filename: string;
  /** [start, end) byte ranges of the file, ascending, not touching. */
  ranges: [number, number][];
}

/** What a dataset read as a sample keeps of its design (Dataset.sample). */
export interface SampleInfo {
  index: string;
  budget: number;
  seed: number;
  /** The index's pages (HTML captures with a place in a file) and their record bytes. */
  population: { pages: number; bytes: number; sites: number; units: number };
  /** Units taken whole with certainty; the others drawn with probability pi of rest.units. */
  certain: number[];
  chosen: number[];
  pi: number;
  rest: { units: number; pages: number };
  /** Pages of each chosen unit in the index (by unit id). */
  unitPages: Record<number, number>;
  /** Sites of each chosen unit (by unit id). */
  unitSites: Record<number, string[]>;
  /** Exact duplicates of the whole index (pages − distinct payload digests). */
  exactDuplicates: number;
  mirroredSites: number;
  /** Index lines read, and lines that could not be read. */
  lines: number;
  badLines: number;
  /** The crawl's files as chosen (not the index): what the batch reads for the whole crawl. */
  crawlFiles: string[];
  /** Record bytes the sample reads, and the index files they are in that were not given. */
  bytesRead: number;
  missingFiles: string[];
  /**
   * The files the URL layer's captures are in, by the number each layer line gives (url-layer.ts):
   * where a partner of a sampled URL is read from (dust/partners.ts). Absent: a layer stored without
   * places (read before partners were read).
   */
  layerFiles?: string[];
}

export interface SamplePlan {
  design: SampleDesign;
  files: FileRanges[];
  info: SampleInfo;
  /** Unit of a sampled record, by file name and offset in that file. */
  unitOf(filename: string, offset: number): number | undefined;
}

/** The plan for `budget` pages of the index's pages; `given`: the names of the files at hand. */
export function planSample(
  index: IndexPages | readonly IndexEntry[],
  budget: number,
  seed: number,
  given: readonly string[],
  meta: { index: string; lines: number; badLines: number },
): SamplePlan {
  const pages = Array.isArray(index) ? indexPages(index as readonly IndexEntry[]) : (index as IndexPages);
  const design = designSample(pages.design, budget, seed);
  const chosen = new Uint8Array(design.units.length);
  for (const u of design.chosen) chosen[u] = 1;
  const have = new Set(given.map(baseName));
  const byFile = new Map<number, [number, number][]>();
  const units = new Map<string, number>();
  const missing = new Set<string>();
  let bytesRead = 0;
  for (let i = 0; i < pages.design.length; i++) {
    const u = design.unitOfPage[i];
    if (!chosen[u]) continue;
    const f = pages.file[i];
    const name = pages.files[f];
    if (!have.has(name)) {
      missing.add(name);
      continue;
    }
    let list = byFile.get(f);
    if (!list) byFile.set(f, (list = []));
    list.push([pages.offset[i], pages.offset[i] + pages.length[i]]);
    units.set(`${name} ${pages.offset[i]}`, u);
    bytesRead += pages.length[i];
  }
  const files: FileRanges[] = [];
  for (const [f, list] of [...byFile].sort((a, b) =>
    pages.files[a[0]] < pages.files[b[0]] ? -1 : pages.files[a[0]] > pages.files[b[0]] ? 1 : 0,
  ))
    files.push({ filename: pages.files[f], ranges: mergeRanges(list) });
  const unitPages: Record<number, number> = {};
  const unitSites: Record<number, string[]> = {};
  for (const u of design.chosen) {
    unitPages[u] = design.units[u].pages;
    unitSites[u] = design.units[u].sites;
  }
  return {
    design,
    files,
    unitOf: (filename, offset) => units.get(`${baseName(filename)} ${offset}`),
    info: {
      index: meta.index,
      budget,
      seed,
      population: design.population,
      certain: design.certain,
      chosen: design.chosen,
      pi: design.pi,
      rest: design.rest,
      unitPages,
      unitSites,
      exactDuplicates: exactDuplicates(pages.design),
      mirroredSites: design.mirroredSites,
      lines: meta.lines,
      badLines: meta.badLines,
      crawlFiles: [...given],
      bytesRead,
      missingFiles: [...missing].sort(),
    },
  };
}

/** Records' [start, end) ranges of one file, ascending, those that overlap or touch joined (one read). */
export function mergeRanges(list: readonly [number, number][]): [number, number][] {
  const sorted = [...list].sort((a, b) => a[0] - b[0]);
  const ranges: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else ranges.push([s, e]);
  }
  return ranges;
}

/**
 * Position in a file's ranges read one after the other → offset in the file (positions ask in any
 * order; a binary search over the ranges' starts).
 */
export function rangeOffsets(ranges: readonly [number, number][]): (position: number) => number {
  const at: number[] = [];
  let total = 0;
  for (const [s, e] of ranges) {
    at.push(total);
    total += e - s;
  }
  return (position) => {
    let lo = 0;
    let hi = at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (at[mid] <= position) lo = mid;
      else hi = mid - 1;
    }
    return at.length === 0 ? position : ranges[lo][0] + (position - at[lo]);
  };
}

/** A unit's inclusion probability in a stored sample (1 for a unit taken with certainty). */
export function samplePi(info: SampleInfo, unit: number): number {
  return info.certain.includes(unit) ? 1 : info.pi;
}

/** The sample's own duplicates and the whole crawl's, estimated (sample-design.ts duplicateEstimate). */
export interface SampleEstimates {
  whole: { rate: Estimate; removed: Estimate; pages: number };
  sample: { pages: number; duplicates: number };
}

/**
 * Estimates from a stored sample: its pages (digest, unit) and the engine's clusters on them
 * (`clusterOf`: a page's cluster, by seq). A chosen unit none of whose pages was read counts 0 merges.
 */
export function sampleEstimates(
  info: SampleInfo,
  pages: readonly { seq: number; digest: string; sampleUnit?: number }[],
  clusterOf: (seq: number) => number | null,
): SampleEstimates {
  const byUnit = new Map<number, { digest: string; cluster: number | null }[]>();
  const all: { digest: string; cluster: number | null }[] = [];
  for (const p of pages) {
    const row = { digest: p.digest, cluster: clusterOf(p.seq) };
    all.push(row);
    if (p.sampleUnit === undefined || p.sampleUnit < 0) continue;
    let list = byUnit.get(p.sampleUnit);
    if (!list) byUnit.set(p.sampleUnit, (list = []));
    list.push(row);
  }
  const certain = new Set(info.certain);
  let certainMerges = 0;
  const drawn: UnitCount[] = [];
  for (const u of info.chosen) {
    const y = unitMerges(byUnit.get(u) ?? []);
    if (certain.has(u)) certainMerges += y;
    else drawn.push({ x: info.unitPages[u] ?? 0, y });
  }
  const est = duplicateEstimate(info.exactDuplicates, certainMerges, drawn, info.rest, info.population.pages);
  return {
    whole: { ...est, pages: info.population.pages },
    // The sample's own: its pages minus its groups (one digest, or one cluster, is one group).
    sample: { pages: pages.length, duplicates: duplicatesAmong(all) },
  };
}

/**
 * The design's inclusion probability of a pair of sampled pages (by their units): π of their unit when
 * they share one; across units, both units' — for two drawn units, n(n − 1) / (N′(N′ − 1)) (a draw
 * without replacement), for a certain unit 1 times the other's. 1 for a page outside the design.
 */
export function pairPi(info: SampleInfo, unitA: number | undefined, unitB: number | undefined): number {
  if (unitA === undefined || unitB === undefined || unitA < 0 || unitB < 0) return 1;
  const a = samplePi(info, unitA);
  if (unitA === unitB) return a;
  const b = samplePi(info, unitB);
  if (a === 1 || b === 1) return a * b;
  const N = info.rest.units;
  const n = Math.round(info.pi * N);
  return N > 1 ? (n * (n - 1)) / (N * (N - 1)) : a * b;
}
