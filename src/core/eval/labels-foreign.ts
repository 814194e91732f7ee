/**
 * Labels made in other tools, read into the labels codec's records (labels-codec.ts decodeLabels
 * hands them here by their shape): dedupe's `training.json` and Splink's labels table.
 */
import { parquetReadObjects } from 'hyparquet';
import type { LabelValue } from './estimators';
import type { LabelProblem, LabelRecord } from './label-record';
import type { Strategy } from './sampling';

/**
 * Labels made in other tools are counted, never weighed as a sample: their pairs were not drawn with a
 * known probability (dedupe's active learner asks about the pairs it is least sure of), so they are
 * read as near-threshold picks (π unknown), which the estimates list apart from the weighted ones.
 */
const FOREIGN = { strategy: 'near-threshold' as Strategy, pi: NaN, at: '' };
const DEDUPE = { ...FOREIGN, origin: 'dedupe' as const };
const SPLINK = { ...FOREIGN, origin: 'splink' as const };

/**
 * dedupe's `training.json` ({ "match": [[record, record], …], "distinct": […] }, records as dicts of
 * fields): a pair's pages are found by its records' `url` field (any case of the name).
 */
export function dedupeTraining(o: Record<string, unknown>): {
  rows: LabelRecord[];
  problems: LabelProblem[];
} {
  const rows: LabelRecord[] = [];
  const problems: LabelProblem[] = [];
  const urlOf = (r: unknown): string => {
    if (!r || typeof r !== 'object') return '';
    const k = Object.keys(r).find((key) => key.toLowerCase() === 'url');
    const v = k === undefined ? undefined : (r as Record<string, unknown>)[k];
    return typeof v === 'string' ? v.trim() : '';
  };
  let row = 0;
  for (const [key, label] of [
    ['match', 'dup'],
    ['distinct', 'not'],
  ] as const) {
    const list = o[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      problems.push({ row: 0, reason: `"${key}" is not an array of pairs` });
      continue;
    }
    for (const pair of list) {
      row++;
      const [ra, rb] = Array.isArray(pair) ? pair : [];
      const urlA = urlOf(ra);
      const urlB = urlOf(rb);
      if (!urlA || !urlB)
        problems.push({ row, reason: `a "${key}" pair whose two records do not both have a url field` });
      else rows.push({ a: NaN, b: NaN, urlA, urlB, label, ...DEDUPE });
    }
  }
  return { rows, problems };
}

/** The columns of Splink's labels table (`linker.table_management.register_labels_table`). */
export const SPLINK_COLUMNS = ['unique_id_l', 'unique_id_r', 'clerical_match_score'] as const;

/**
 * Splink's labels table: unique_id_l, unique_id_r (page seqs when whole numbers, else URLs) and
 * clerical_match_score in [0, 1], read as dup above 0.5, not below, unsure at 0.5.
 */
export function splinkLabels(
  cols: string[],
  records: string[][],
  lines: number[],
): { rows: LabelRecord[]; problems: LabelProblem[] } {
  const rows: LabelRecord[] = [];
  const problems: LabelProblem[] = [];
  const at = (c: string) => cols.indexOf(c);
  records.forEach((f, i) => {
    if (f.length === 1 && f[0].trim() === '') return;
    const row = i + 1;
    const l = (f[at('unique_id_l')] ?? '').trim();
    const r = (f[at('unique_id_r')] ?? '').trim();
    const scoreText = (f[at('clerical_match_score')] ?? '').trim();
    const score = Number(scoreText);
    if (!l || !r) return problems.push({ row, line: lines[row], reason: 'no unique_id_l or unique_id_r' });
    if (scoreText === '' || !(score >= 0 && score <= 1))
      return problems.push({
        row,
        line: lines[row],
        reason: `clerical_match_score "${scoreText}" is not in [0, 1]`,
      });
    const label: LabelValue = score > 0.5 ? 'dup' : score < 0.5 ? 'not' : 'unsure';
    const seqs = /^\d+$/.test(l) && /^\d+$/.test(r);
    rows.push({
      a: seqs ? Number(l) : NaN,
      b: seqs ? Number(r) : NaN,
      urlA: seqs ? '' : l,
      urlB: seqs ? '' : r,
      label,
      ...SPLINK,
    });
  });
  return { rows, problems };
}

/**
 * Splink's labels table kept as Parquet (as Splink writes its tables): read whole with hyparquet (a
 * labels table is small), its values as text, then as the CSV table is.
 */
export async function splinkLabelsParquet(
  file: ArrayBuffer,
): Promise<{ rows: LabelRecord[]; problems: LabelProblem[] }> {
  let objects: Record<string, unknown>[];
  try {
    objects = (await parquetReadObjects({ file })) as Record<string, unknown>[];
  } catch (e) {
    return {
      rows: [],
      problems: [{ row: 0, reason: `not a readable Parquet file: ${(e as Error).message}` }],
    };
  }
  const cols = Object.keys(objects[0] ?? {}).map((c) => c.toLowerCase());
  if (objects.length > 0 && !SPLINK_COLUMNS.every((c) => cols.includes(c)))
    return {
      rows: [],
      problems: [
        {
          row: 0,
          reason: `a Parquet table without Splink's columns (${SPLINK_COLUMNS.join(', ')}): its columns are ${cols.join(', ')}`,
        },
      ],
    };
  const keys = Object.keys(objects[0] ?? {});
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const records = objects.map((o) => keys.map((k) => text(o[k])));
  // Rows of a table have no line numbers: its row numbers stand for them.
  return splinkLabels(
    cols,
    records,
    Array.from({ length: records.length + 1 }, (_, i) => i),
  );
}
