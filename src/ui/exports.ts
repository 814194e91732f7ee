import type { MethodId, Thresholds } from '../core/candidates/methods';
import { clusterParameters, methodThresholds } from '../core/clusters/export';
import type { DustParams } from '../core/dust';
import { useAnalysis } from '../state/analysis';
import { useDatasets } from '../state/datasets';
import { APP_NAME, APP_VERSION } from './version';
import { selectedDataset } from '../state/selectors';

/**
 * What every export says about itself: a file name that carries the dataset and the parameters its
 * content depends on (`sample.warc.gz_minhash_jaccard-0.8_star_clusters.json`), and in JSON a `source`
 * block with the dataset, those parameters and the app's version. A file found in a download folder
 * weeks later then tells which crawl and which settings it holds.
 */

/** Where a JSON export came from: the dataset, the parameters of its content, the app that wrote it. */
export type ExportSource = {
  app: string;
  version: string;
  /** The dataset's name in the workbench (its file name unless renamed). */
  dataset: string;
  pages: number | null;
  /** ISO 8601 time of export. */
  exported: string;
  parameters: Record<string, unknown>;
};

/** The selected dataset's name and pages ('dataset' when none is selected). */
function shownDataset(): { name: string; pages: number | null } {
  const d = selectedDataset(useDatasets.getState());
  return d ? { name: d.name, pages: d.pages } : { name: 'dataset', pages: null };
}

/** The selected dataset's name, as exports name it. */
export function datasetName(): string {
  return shownDataset().name;
}

export function exportSource(parameters: Record<string, unknown>, now = new Date()): ExportSource {
  const d = shownDataset();
  return {
    app: APP_NAME,
    version: APP_VERSION,
    dataset: d.name,
    pages: d.pages,
    exported: now.toISOString(),
    parameters,
  };
}

/** Longest dataset part of a file name: file systems allow 255 bytes for the whole name. */
const MAX_DATASET = 80;

/**
 * A part of a file name in characters every file system and browser keeps: letters, digits, `.`, `-`
 * and `_` (`_` only between parts); anything else becomes `-`, runs of it one, none at the ends.
 */
export function fileNamePart(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off their letters: ü → u
    .replace(/[^A-Za-z0-9.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}

/**
 * `<dataset>_<tags…>_<what>.<ext>`: the selected dataset's name, then what the content depends on
 * (method, thresholds, …), then what it is.
 */
export function exportFileName(tags: readonly string[], what: string, ext: string): string {
  const dataset = fileNamePart(shownDataset().name).slice(0, MAX_DATASET) || 'dataset';
  const parts = [dataset, ...tags.map(fileNamePart), fileNamePart(what)].filter(Boolean);
  return `${parts.join('_')}.${ext}`;
}

/** A threshold in a file name: at most 4 decimals, no trailing zeros (0.022, 1, 0.8). */
const num = (v: number) => String(+v.toFixed(4));

/** The method and the thresholds it reads, as file-name tags: `minhash`, `jaccard-0.8`. */
export function methodTags(method: MethodId, t: Thresholds): string[] {
  const tags: string[] = [method];
  for (const [k, v] of Object.entries(methodThresholds(method, t))) {
    if (typeof v === 'number') tags.push(`${k}-${num(v)}`);
    else if (k === 'fcLengthCheck') tags.push(v ? 'length-check' : 'no-length-check');
  }
  return tags;
}

/** DustBuster's run as file-name tags: its support and refutation thresholds and what a site is. */
export function dustTags(p: DustParams): string[] {
  return ['dustbuster', `MS-${p.MS}`, `eps-${num(p.epsilon)}`, `J-${num(p.dustJaccard)}`, `site-${p.site}`];
}

/**
 * Labels belong to the dataset's pages, not to a method: their file is named by the dataset alone. Their
 * source names the candidate pairs they were drawn from (the signature parameters) and the method and
 * thresholds the workbench estimated at when they were exported.
 */
export function labelsFileName(ext: string): string {
  return exportFileName([], 'labels', ext);
}

export function labelsSource(): ExportSource {
  const { method, thresholds, mode, analysis, params } = useAnalysis.getState();
  return exportSource(clusterParameters(method, thresholds, mode, analysis?.params ?? params));
}

/** JSON as every export writes it: two-space indented, one final newline. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** A file name as one shell word (quoted when it holds anything but safe characters). */
export function shellWord(name: string): string {
  return /^[\w@%+=:,./-]+$/.test(name) ? name : `'${name.replace(/'/g, `'\\''`)}'`;
}
