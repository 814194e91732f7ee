/**
 * Reading a designed sample by byte ranges: from a crawl's index and the design (core/eval/
 * sample-design.ts), which records of which file to read, cut as ranges of the files — adjacent
 * records joined into one range — and, for each file, the map from a position in its ranges read one
 * after the other back to the offset in the file. A .warc.gz's records are gzip members, so the ranges
 * read one after the other are a multi-member gzip stream the core reads as any other.
 */
import {
  designSample,
  duplicateEstimate,
  exactDuplicates,
  unitMerges,
  type SampleDesign,
  type UnitCount,
} from '../eval/sample-design';
import type { Estimate } from '../eval/estimators';
import { isPageEntry, type IndexEntry } from './crawl-index';

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
}

export interface SamplePlan {
  design: SampleDesign;
  files: FileRanges[];
  info: SampleInfo;
  /** Unit of a sampled record, by file name and offset in that file. */
  unitOf(filename: string, offset: number): number | undefined;
}

/** The file name an index gives, without its directories (a WACZ's index says archive/…). */
export function baseName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** The plan for `budget` pages of the index's `entries`; `given`: the names of the files at hand. */
export function planSample(
  entries: readonly IndexEntry[],
  budget: number,
  seed: number,
  given: readonly string[],
  meta: { index: string; lines: number; badLines: number },
): SamplePlan {
  const pages = entries.filter(isPageEntry);
  const design = designSample(
    pages.map((e) => ({ url: e.url, digest: e.digest, bytes: e.length })),
    budget,
    seed,
  );
  const chosen = new Set(design.chosen);
  const have = new Set(given.map(baseName));
  const byFile = new Map<string, [number, number][]>();
  const units = new Map<string, number>();
  const missing = new Set<string>();
  let bytesRead = 0;
  pages.forEach((e, i) => {
    const u = design.unitOfPage[i];
    if (!chosen.has(u)) return;
    const name = baseName(e.filename);
    if (!have.has(name)) {
      missing.add(name);
      return;
    }
    let list = byFile.get(name);
    if (!list) byFile.set(name, (list = []));
    list.push([e.offset, e.offset + e.length]);
    units.set(`${name} ${e.offset}`, u);
    bytesRead += e.length;
  });
  const files: FileRanges[] = [];
  for (const [filename, list] of [...byFile].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    list.sort((a, b) => a[0] - b[0]);
    const ranges: [number, number][] = [];
    for (const [s, e] of list) {
      const last = ranges[ranges.length - 1];
      if (last && s <= last[1]) last[1] = Math.max(last[1], e);
      else ranges.push([s, e]);
    }
    files.push({ filename, ranges });
  }
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
      exactDuplicates: exactDuplicates(pages.map((e) => ({ url: e.url, digest: e.digest, bytes: e.length }))),
      mirroredSites: design.mirroredSites,
      lines: meta.lines,
      badLines: meta.badLines,
      crawlFiles: [...given],
      bytesRead,
      missingFiles: [...missing].sort(),
    },
  };
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
  // The sample's own: its pages minus its groups (one digest, or one cluster, is one group).
  const digests = all.filter((r) => r.digest).map((r) => r.digest);
  const exactInSample = digests.length - new Set(digests).size;
  return {
    whole: { ...est, pages: info.population.pages },
    sample: { pages: pages.length, duplicates: exactInSample + unitMerges(all) },
  };
}
