import { buildPage } from './page-builder';
import { LineReader, skipLongLines, type FormatReader, type ReaderContext } from './reader';

/** A plain list of URLs, one per line; blank lines and # comments are ignored. */
export function createUrlListReader(ctx: ReaderContext): FormatReader {
  return new LineReader((line, lineNo) => {
    const url = line.trim();
    if (url === '' || url.startsWith('#')) return;
    ctx.record('url');
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
      ctx.skip('lines that are not absolute URLs');
      return;
    }
    ctx.page(
      buildPage(ctx.nextSeq(), {
        url,
        status: 0,
        recordType: 'url',
        fetchedAt: '',
        headers: [],
        contentType: '',
        body: null,
        digest: '',
        size: -1,
        offset: lineNo,
        note: '',
      }),
    );
  }, skipLongLines(ctx));
}
