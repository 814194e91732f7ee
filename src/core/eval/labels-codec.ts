import { formatDelimited, parseDelimitedLines } from '../csv';
import type { LabelValue } from './estimators';
import type { Strategy } from './sampling';
import type { LabelProblem, LabelRecord } from './label-record';
import { dedupeTraining, SPLINK_COLUMNS, splinkLabels } from './labels-foreign';

/**
 * The one labels file format, JSON or CSV, for the workbench's export and import and for the CLI's
 * `--labels`. Columns: a, b (page seqs in the dataset the labels came from), url_a, url_b, label
 * (dup | not | unsure), strategy, pi (inclusion probability; an empty cell, JSON null, for picks that
 * are not a probability sample), at (ISO time). CSV goes through the shared RFC 4180 codec, so a URL
 * holding a comma, a quote or a line break keeps its label, and a URL that begins like a formula is
 * written neutralised and read back as it was. A row that cannot be read is reported with its record
 * number, line and reason, never guessed: π weighs every estimate (1/π), so a π that is not a finite
 * number in (0, 1] is refused, never read as NaN or Infinity.
 */
export const LABEL_COLUMNS = ['a', 'b', 'url_a', 'url_b', 'label', 'strategy', 'pi', 'at'] as const;

const LABELS: readonly LabelValue[] = ['dup', 'not', 'unsure'];
/** Other spellings of the three labels: dedupe's console keys (y, n, u) and words. */
const LABEL_ALIASES: Record<string, LabelValue> = {
  y: 'dup',
  yes: 'dup',
  duplicate: 'dup',
  match: 'dup',
  n: 'not',
  no: 'not',
  distinct: 'not',
  u: 'unsure',
};
const STRATEGIES: readonly Strategy[] = ['stratified', 'near-threshold', 'random'];

export function encodeLabelsCsv(rows: readonly LabelRecord[]): string {
  return formatDelimited([
    [...LABEL_COLUMNS],
    ...rows.map((r) => [
      Number.isFinite(r.a) ? r.a : '',
      Number.isFinite(r.b) ? r.b : '',
      r.urlA,
      r.urlB,
      r.label,
      r.strategy,
      Number.isFinite(r.pi) ? r.pi : '',
      r.at,
    ]),
  ]);
}

/**
 * Labels as JSON: an array of records, or with `source` (where they were exported: the dataset, the
 * parameters, the app's version) an object `{ source, labels: [records] }`; decodeLabels reads both.
 */
export function encodeLabelsJson(rows: readonly LabelRecord[], source?: Record<string, unknown>): string {
  const labels = rows.map((r) => ({
    a: Number.isFinite(r.a) ? r.a : null,
    b: Number.isFinite(r.b) ? r.b : null,
    url_a: r.urlA,
    url_b: r.urlB,
    label: r.label,
    strategy: r.strategy,
    pi: Number.isFinite(r.pi) ? r.pi : null,
    at: r.at,
    ...(r.origin ? { origin: r.origin } : {}),
    ...(r.evidence ? { evidence: r.evidence } : {}),
  }));
  return JSON.stringify(source ? { source, labels } : labels, null, 2) + '\n';
}

type Field = (typeof LABEL_COLUMNS)[number];

/**
 * π from a field. No π column is a hand-made file of uniformly drawn pairs (π = 1). A pick that is not a
 * probability sample (near-threshold, a cluster's pairs) has none: an empty cell or JSON null, or "NaN"
 * as exports before this codec wrote it; π is never a weight there. Any other π must be a finite number
 * in (0, 1]: NaN, Infinity, "1e999" (Infinity once read) or an empty cell would make 1/π poison every
 * weighted estimate, so they are refused.
 */
function piOf(v: unknown, has: boolean, sampled: boolean): number | string {
  if (!has || v === undefined) return 1;
  const s = v === null ? '' : String(v).trim();
  if (!sampled && (s === '' || s.toLowerCase() === 'nan')) return NaN;
  const pi = typeof v === 'number' ? v : s === '' ? NaN : Number(s);
  if (!Number.isFinite(pi))
    return `pi ${v === null ? 'is null' : s === '' ? 'is empty' : `"${s}" is not a finite number`}`;
  return pi > 0 && pi <= 1 ? pi : `pi "${s}" is not in (0, 1]`;
}

/** One record from its fields by column name; a reason string when it cannot be read. */
function record(get: (c: Field) => unknown, has: (c: Field) => boolean): LabelRecord | string {
  const text = (c: Field) => {
    const v = get(c);
    return v === undefined || v === null ? '' : String(v).trim();
  };
  const given = text('label').toLowerCase();
  const label = LABEL_ALIASES[given] ?? given;
  if (!LABELS.includes(label as LabelValue))
    return given ? `label "${given}" is not dup, not or unsure (nor y, n, u)` : 'no label';
  // A seq is a whole number ≥ 0 or not given (missing, null, ""); anything else is refused.
  const seq = (c: Field): number | string => {
    const v = get(c);
    if (v === undefined || v === null || text(c) === '') return NaN;
    const n = typeof v === 'number' ? v : Number(text(c));
    return Number.isInteger(n) && n >= 0 ? n : `${c} "${text(c)}" is not a page number (a whole number ≥ 0)`;
  };
  const a = seq('a');
  if (typeof a === 'string') return a;
  const b = seq('b');
  if (typeof b === 'string') return b;
  const urlA = text('url_a');
  const urlB = text('url_b');
  if (!(Number.isFinite(a) && Number.isFinite(b)) && !(urlA && urlB))
    return 'neither page seqs (a, b) nor URLs (url_a, url_b)';
  const strategy = text('strategy');
  if (strategy && !STRATEGIES.includes(strategy as Strategy))
    return `strategy "${strategy}" is not stratified, near-threshold or random`;
  const pi = piOf(get('pi'), has('pi'), strategy !== 'near-threshold');
  if (typeof pi === 'string') return pi;
  return {
    a,
    b,
    urlA,
    urlB,
    label: label as LabelValue,
    strategy: (strategy || 'random') as Strategy,
    pi,
    at: text('at'),
  };
}

/**
 * Labels from a file's text: JSON when it is a JSON array (or an object whose `labels` is one, as the
 * workbench exports with its source, or dedupe's training.json with `match` and `distinct`), CSV with
 * a header row otherwise (this codec's columns, or Splink's labels table).
 */
export function decodeLabels(text: string): { rows: LabelRecord[]; problems: LabelProblem[] } {
  const body = text.replace(/^\uFEFF/, '');
  const rows: LabelRecord[] = [];
  const problems: LabelProblem[] = [];
  const add = (row: number, r: LabelRecord | string, line?: number) => {
    if (typeof r === 'string')
      problems.push(line === undefined ? { row, reason: r } : { row, line, reason: r });
    else rows.push(r);
  };
  const start = body.trimStart()[0];
  if (start === '[' || start === '{') {
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch (e) {
      return { rows, problems: [{ row: 0, reason: `not valid JSON: ${(e as Error).message}` }] };
    }
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      const o = data as Record<string, unknown>;
      if (!('labels' in o) && (Array.isArray(o.match) || Array.isArray(o.distinct))) return dedupeTraining(o);
      data = o.labels;
    }
    if (!Array.isArray(data))
      return {
        rows,
        problems: [{ row: 0, reason: 'not a JSON array of labels (nor an object with one in "labels")' }],
      };
    data.forEach((o: unknown, i) => {
      if (!o || typeof o !== 'object') return add(i + 1, 'not an object');
      const obj = o as Record<string, unknown>;
      add(
        i + 1,
        record(
          (c) => obj[c],
          (c) => c in obj,
        ),
      );
    });
    return { rows, problems };
  }
  const { records: all, lines } = parseDelimitedLines(body, { restore: true });
  const [head, ...records] = all;
  const cols = (head ?? []).map((c) => c.trim().toLowerCase());
  if (SPLINK_COLUMNS.every((c) => cols.includes(c))) return splinkLabels(cols, records, lines);
  if (!cols.includes('label'))
    return {
      rows,
      problems: [
        {
          row: 0,
          reason: `the header row has no "label" column (nor Splink's ${SPLINK_COLUMNS.join(', ')})`,
        },
      ],
    };
  records.forEach((f, i) => {
    if (f.length === 1 && f[0].trim() === '') return; // a blank line
    add(
      i + 1,
      record(
        (c) => {
          const at = cols.indexOf(c);
          return at < 0 ? undefined : f[at];
        },
        (c) => cols.includes(c),
      ),
      lines[i + 1],
    );
  });
  return { rows, problems };
}

/** "3 rows skipped: row 4 (line 5): label "dpu" is not …; row 9 …" (the first few), or '' when none. */
export function describeProblems(problems: readonly LabelProblem[], max = 3): string {
  if (problems.length === 0) return '';
  const shown = problems
    .slice(0, max)
    .map((p) =>
      p.row > 0 ? `row ${p.row}${p.line === undefined ? '' : ` (line ${p.line})`}: ${p.reason}` : p.reason,
    )
    .join('; ');
  return `${problems.length} row${problems.length === 1 ? '' : 's'} skipped: ${shown}${problems.length > max ? '; …' : ''}`;
}
