/**
 * The project's one reader and writer of delimited text (CSV, TSV) after RFC 4180: fields separated by
 * `sep`, records by LF or CRLF, a field that starts with `"` is quoted — inside it `""` is one quote and
 * separators and line breaks are text. Used by the CSV/TSV importer (one line at a time) and by the
 * labels codec (whole files, where a URL may hold a comma, a quote or a line break).
 *
 * Lenient where files in the wild are: characters after a closing quote up to the next separator are
 * dropped, an unterminated quote runs to the end of the text, and with `trim` unquoted fields lose their
 * surrounding spaces (quoted ones never do: the quotes say what the field is).
 */
export interface DelimitedOptions {
  /** Field separator; ',' by default. */
  sep?: string;
  /** Trim spaces around unquoted fields. */
  trim?: boolean;
}

/** All records of `text`; a final line break does not open an empty record. */
export function parseDelimited(text: string, opts: DelimitedOptions = {}): string[][] {
  const sep = opts.sep ?? ',';
  const trim = opts.trim ?? false;
  const records: string[][] = [];
  let record: string[] = [];
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
    record.push(field);
    if (i < n && text[i] === sep) {
      i++;
      continue;
    }
    records.push(record);
    record = [];
    if (i >= n) break;
    i++; // the line break
    if (i >= n) break;
  }
  return records;
}

/** One field, quoted when it holds the separator, a quote or a line break. */
export function delimitedField(s: string, sep = ','): string {
  return s.includes(sep) || /["\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Records to text, one per line (LF), each field quoted as needed. */
export function formatDelimited(records: readonly (readonly string[])[], sep = ','): string {
  return records.map((r) => r.map((f) => delimitedField(f, sep)).join(sep)).join('\n') + '\n';
}
