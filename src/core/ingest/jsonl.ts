import { buildPage } from './page-builder';
import { FormatFault } from './errors';
import { LineReader, skipLongLines, type FormatReader, type ReaderContext } from './reader';

/**
 * One page per line: {"url", "html" | "text", "status"?, "size"?, "links"?, "fetched_at"?}. A Parquet
 * table's rows come as such lines too (parquet.ts), with their own record type and wording.
 */
export function createJsonlReader(
  ctx: ReaderContext,
  as: { record: string; line: string } = { record: 'jsonl line', line: 'JSON line' },
): FormatReader {
  return new LineReader((line, lineNo) => {
    if (line.trim() === '') return;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch (e) {
      throw new FormatFault(`not valid JSON (${(e as Error).message})`, { line: lineNo });
    }
    if (!o || typeof o !== 'object' || typeof o.url !== 'string') {
      throw new FormatFault(`a ${as.line} without a "url" string`, { line: lineNo });
    }
    ctx.record(as.record);
    const html = typeof o.html === 'string' ? o.html : undefined;
    const text = typeof o.text === 'string' ? o.text : undefined;
    const links = Array.isArray(o.links)
      ? o.links.filter((l): l is string => typeof l === 'string')
      : undefined;
    const size =
      typeof o.size === 'number' ? o.size : html !== undefined ? html.length : (text?.length ?? -1);
    ctx.page(
      buildPage(
        ctx.nextSeq(),
        {
          url: o.url,
          status: typeof o.status === 'number' ? o.status : 0,
          recordType: as.record,
          fetchedAt: typeof o.fetched_at === 'string' ? o.fetched_at : '',
          headers: [],
          contentType: html !== undefined ? 'text/html' : text !== undefined ? 'text/plain' : '',
          body: null,
          html,
          text,
          links,
          digest: '',
          size,
          offset: lineNo,
          note: '',
        },
        ctx,
      ),
    );
  }, skipLongLines(ctx));
}
