import { parseDelimited } from '../csv';
import { buildPage } from './page-builder';
import { FormatFault } from './errors';
import { LineReader, skipLongLines, type FormatReader, type ReaderContext } from './reader';

/** Split one CSV/TSV line (RFC 4180 quoting, unquoted fields trimmed): the shared reader on one line. */
export function splitDelimited(line: string, sep: string): string[] {
  return parseDelimited(line, { sep, trim: true })[0] ?? [''];
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
  }, skipLongLines(ctx));
}
