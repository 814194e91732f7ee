/**
 * The project's one reader and writer of delimited text (CSV, TSV) after RFC 4180: fields separated by
 * `sep`, records by LF or CRLF, a field that starts with `"` is quoted — inside it `""` is one quote and
 * separators and line breaks are text. Used by the CSV/TSV importer (one line at a time), by the labels
 * codec (whole files, where a URL may hold a comma, a quote or a line break) and by every CSV export.
 *
 * Lenient where files in the wild are: characters after a closing quote up to the next separator are
 * dropped, an unterminated quote runs to the end of the text, and with `trim` unquoted fields lose their
 * surrounding spaces (quoted ones never do: the quotes say what the field is).
 *
 * Exports are safe to open in a spreadsheet (OWASP, "CSV Injection"): a cell that begins with `=`, `+`,
 * `-`, `@`, tab or carriage return is a formula to Excel, LibreOffice and Google Sheets
 * (`=HYPERLINK(…)`, `+cmd|' /C calc'!A0`), and crawled URLs and titles can begin so. Such a cell is
 * written with a single quote before it and quoted (`"'=HYPERLINK(…)"`), which spreadsheets show as
 * text. The rule looks at a cell's text only, not at where it came from: any cell that is not a plain
 * decimal number is neutralised, so `-0.5` in a numeric column (or a crawled `-5`, which a spreadsheet
 * reads as the same number) stays a number, and a caller cannot leak a formula by forgetting to say a
 * cell is crawled. Readers of files the product wrote pass `restore` to take the quote off again.
 */
export interface DelimitedOptions {
  /** Field separator; ',' by default. */
  sep?: string;
  /** Trim spaces around unquoted fields. */
  trim?: boolean;
  /** Undo the neutralising quote the writer puts before a formula-like cell (files this project wrote). */
  restore?: boolean;
}

/** All records of `text` and the 1-based line each starts on; a final line break opens no record. */
export function parseDelimitedLines(
  text: string,
  opts: DelimitedOptions = {},
): { records: string[][]; lines: number[] } {
  const sep = opts.sep ?? ',';
  const trim = opts.trim ?? false;
  const restore = opts.restore ?? false;
  const records: string[][] = [];
  const lines: number[] = [];
  let record: string[] = [];
  let line = 1;
  let recordStart = 0;
  let i = 0;
  const n = text.length;
  // Each pass reads one field, then the separator or record end that follows it.
  for (;;) {
    let field: string;
    if (text[i] === '"') {
      field = '';
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          field += text.slice(i);
          i = n;
          break;
        }
        field += text.slice(i, q);
        if (text[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      // Skip anything between the closing quote and the end of the field.
      while (i < n && text[i] !== sep && text[i] !== '\n') i++;
    } else {
      let end = i;
      while (end < n && text[end] !== sep && text[end] !== '\n') end++;
      field = text.slice(i, end);
      if (text[end] === '\n' && field.endsWith('\r')) field = field.slice(0, -1);
      if (trim) field = field.trim();
      i = end;
    }
    record.push(restore ? restoreCell(field) : field);
    if (i < n && text[i] === sep) {
      i++;
      continue;
    }
    records.push(record);
    lines.push(line);
    record = [];
    if (i >= n) break;
    i++; // the line break
    for (let k = recordStart; k < i; k++) if (text.charCodeAt(k) === 10) line++;
    recordStart = i;
    if (i >= n) break;
  }
  return { records, lines };
}

/** All records of `text`; a final line break does not open an empty record. */
export function parseDelimited(text: string, opts: DelimitedOptions = {}): string[][] {
  return parseDelimitedLines(text, opts).records;
}

/** OWASP's formula starters: `=`, `+`, `-`, `@`, tab (0x09), carriage return (0x0D). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal number, as the product writes them (`-0.5`, `3`, `1e-7`): a spreadsheet reads a value. */
const PLAIN_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * A cell as a spreadsheet may safely read it: a formula-like text gets a leading `'`. A cell that
 * already begins with `'` and a formula starter (or a second `'`) gets one too, so that `restoreCell`,
 * which takes one such quote off, gives back exactly what was written.
 */
export function neutraliseCell(s: string): string {
  if (FORMULA_START.test(s)) return PLAIN_NUMBER.test(s) ? s : `'${s}`;
  return s.charCodeAt(0) === 39 && (FORMULA_START.test(s.slice(1)) || s.charCodeAt(1) === 39) ? `'${s}` : s;
}

/** The cell `neutraliseCell` was given: one leading `'` before a formula starter or a `'` comes off. */
export function restoreCell(s: string): string {
  return s.charCodeAt(0) === 39 && (FORMULA_START.test(s.slice(1)) || s.charCodeAt(1) === 39)
    ? s.slice(1)
    : s;
}

/** A cell to write: text, or a number the product computed (written as `String(n)`). */
export type Cell = string | number;

/**
 * One field, neutralised when formula-like, quoted when it holds the separator, a quote or a line
 * break, or when it was neutralised (OWASP: prefix a quote and quote the cell).
 */
export function delimitedField(v: Cell, sep = ','): string {
  const s = typeof v === 'number' ? String(v) : v;
  const safe = neutraliseCell(s);
  return safe !== s || s.includes(sep) || /["\n\r]/.test(s) ? `"${safe.replace(/"/g, '""')}"` : s;
}

/** Records to text, one per line (LF), each field neutralised and quoted as needed. */
export function formatDelimited(records: readonly (readonly Cell[])[], sep = ','): string {
  return records.map((r) => r.map((f) => delimitedField(f, sep)).join(sep)).join('\n') + '\n';
}
