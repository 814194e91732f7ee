import { decodeLabels, describeProblems } from '../../core/eval/labels-codec';
import type { LabelProblem, LabelRecord } from '../../core/eval/label-record';
import { normaliseUrl } from '../../core/url/normalize';
import type { StoredLabel } from '../../db/schema';
import { plural } from '../format';

/**
 * The workbench's side of the labels codec: stored labels (page seqs) to file records with their URLs,
 * and file records back to stored labels of this dataset. A record is placed by its URLs first (seqs
 * belong to the copy of the crawl it was exported from), by its seqs when it has no URLs.
 */
export function toRecords(
  rows: readonly StoredLabel[],
  urlOf: (seq: number) => string | undefined,
  /** The pair's evidence (the JSON export carries it; CSV has no column for it). */
  evidenceOf?: (seqA: number, seqB: number) => LabelRecord['evidence'],
): LabelRecord[] {
  return rows.map((r) => {
    const evidence = evidenceOf?.(r.a, r.b);
    return {
      a: r.a,
      b: r.b,
      urlA: urlOf(r.a) ?? '',
      urlB: urlOf(r.b) ?? '',
      label: r.label,
      strategy: r.strategy,
      pi: r.pi,
      at: r.at,
      ...(r.origin ? { origin: r.origin } : {}),
      ...(evidence ? { evidence } : {}),
    };
  });
}

export interface ImportResult {
  rows: StoredLabel[];
  /** What else the analyst reads after an import: records not placed, records skipped (or ''). */
  notes: string;
}

/** What an import changed (state/labels.ts importLabels), said with the file's other notes. */
export interface ImportDiff {
  added: number;
  changed: number;
  unchanged: number;
}

/** "Imported 30 new labels, 2 changed; 4 were already so." — or that nothing changed. */
export function importMessage(d: ImportDiff, notes: string): string {
  const read = d.added + d.changed + d.unchanged;
  const head =
    read === 0
      ? 'No label imported'
      : d.added + d.changed === 0
        ? `Nothing changed: the ${plural(read, 'label')} read ${read === 1 ? 'is' : 'are'} already here`
        : [
            d.added > 0 ? `Imported ${plural(d.added, 'new label')}` : 'No new label',
            d.changed > 0 ? `${fmtCount(d.changed)} changed` : '',
            d.unchanged > 0 ? `${fmtCount(d.unchanged)} already so` : '',
          ]
            .filter(Boolean)
            .join(', ');
  return `${head}${notes ? `; ${notes}` : ''}.`;
}

const fmtCount = (n: number) => n.toLocaleString('en-US');

export function fromFile(
  text: string,
  datasetId: number,
  seqOfUrl: (url: string) => number | undefined,
  hasSeq: (seq: number) => boolean,
): ImportResult {
  return fromDecoded(decodeLabels(text), datasetId, seqOfUrl, hasSeq);
}

/** fromFile for labels already decoded (Splink's table kept as Parquet: splinkLabelsParquet). */
export function fromDecoded(
  { rows, problems }: { rows: LabelRecord[]; problems: LabelProblem[] },
  datasetId: number,
  seqOfUrl: (url: string) => number | undefined,
  hasSeq: (seq: number) => boolean,
): ImportResult {
  const out: StoredLabel[] = [];
  let unmatched = 0;
  for (const r of rows) {
    const byUrl = (u: string) => (u ? (seqOfUrl(u) ?? seqOfUrl(normaliseUrl(u).href)) : undefined);
    let a = byUrl(r.urlA);
    let b = byUrl(r.urlB);
    if (!r.urlA && !r.urlB && hasSeq(r.a) && hasSeq(r.b)) [a, b] = [r.a, r.b];
    if (a === undefined || b === undefined || a === b) {
      unmatched++;
      continue;
    }
    out.push({
      datasetId,
      a: Math.min(a, b),
      b: Math.max(a, b),
      label: r.label,
      strategy: r.strategy,
      pi: r.pi,
      at: r.at || new Date().toISOString(),
      // A workbench file's labels were made in a workbench, maybe this one on another copy of the crawl.
      origin: r.origin ?? 'workbench',
    });
  }
  const parts: string[] = [];
  if (unmatched) parts.push(`${unmatched} name pages not in this dataset`);
  const skipped = describeProblems(problems);
  if (skipped) parts.push(skipped);
  return { rows: out, notes: parts.join('; ') };
}
