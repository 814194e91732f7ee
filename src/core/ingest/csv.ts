import { buildPage } from './page-builder';
import { FormatFault } from './errors';
import { LineReader, type FormatReader, type ReaderContext } from './reader';

/** Split one CSV/TSV line (RFC 4180 quoting; quoted fields may not span lines). */
export function splitDelimited(line: string, sep: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) {
          v += line.slice(i);
          i = line.length;
          break;
        }
        v += line.slice(i, q);
        if (line[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(v);
      const next = line.indexOf(sep, i);
      i = next < 0 ? line.length + 1 : next + 1;
    } else {
      const next = line.indexOf(sep, i);
      out.push((next < 0 ? line.slice(i) : line.slice(i, next)).trim());
      i = next < 0 ? line.length + 1 : next + 1;
    }
  }
  return out;
}

/** CSV or TSV with a header row naming a "url" column, optionally "status" and "size". */
export function createCsvReader(ctx: ReaderContext, sep: ',' | '\t'): FormatReader {
  let cols: { url: number; status: number; size: number } | null = null;
  return new LineReader((line, lineNo) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const f = splitDelimited(line, sep);
    if (!cols) {
      const names = f.map((x) => x.trim().toLowerCase());
      cols = { url: names.indexOf('url'), status: names.indexOf('status'), size: names.indexOf('size') };
      if (cols.url < 0) throw new FormatFault('the header row has no "url" column', { line: lineNo });
      return;
    }
    ctx.record('row');
    const url = f[cols.url] ?? '';
    if (!url) {
      ctx.skip('rows without a URL');
      return;
    }
    const status = cols.status >= 0 ? Number(f[cols.status]) : 0;
    const size = cols.size >= 0 && f[cols.size] !== '' ? Number(f[cols.size]) : -1;
    ctx.page(
      buildPage(ctx.nextSeq(), {
        url,
        status: Number.isFinite(status) ? status : 0,
        recordType: 'row',
        fetchedAt: '',
        headers: [],
        contentType: '',
        body: null,
        digest: '',
        size: Number.isFinite(size) ? size : -1,
        offset: lineNo,
        note: '',
      }),
    );
  });
}
