import { BUDGET, mib } from '../codecs/budget';
import { ArcParser, arcDateToIso } from './arc';
import { headerValue } from './bytes';
import { buildPage } from './page-builder';
import { notWebScheme, parseHttpBlock } from './http';
import type { FormatReader, ReaderContext } from './reader';

/**
 * ARC records to pages: the version block, records over the budget, dns: lookups and URIs that are not
 * web URLs are skipped (counted).
 */
export function createArcReader(ctx: ReaderContext, compressed: boolean): FormatReader {
  const parser = new ArcParser(
    (r) => {
      ctx.record(r.type === 'over-budget' ? 'response' : r.type);
      if (r.type === 'filedesc') {
        ctx.skip('ARC version block (not a page)');
        return;
      }
      if (r.type === 'over-budget') {
        ctx.skip(`records over ${mib(BUDGET.recordBytes)} (not read)`);
        return;
      }
      if (r.url.startsWith('dns:')) {
        ctx.skip('dns: lookup records');
        return;
      }
      // Only web URLs are pages: a crawler's own files (wget's log and manifest as urn: or metadata://
      // resources, warcprox's metadata) are listed as skipped, by their scheme.
      const scheme = notWebScheme(r.url);
      if (scheme) {
        ctx.skip(`records of ${scheme} URIs (not web pages)`);
        return;
      }
      const http = parseHttpBlock(r.block);
      ctx.page(
        buildPage(
          ctx.nextSeq(r.offset),
          {
            url: r.url,
            status: http.status,
            recordType: 'response',
            fetchedAt: arcDateToIso(r.date),
            headers: http.status ? [[':status', http.statusLine], ...http.headers] : [],
            contentType: headerValue(http.headers, 'Content-Type') ?? r.mime,
            body: http.undecoded ? null : http.body,
            digest: '',
            size: http.body.length,
            offset: r.offset,
            note: http.note,
          },
          ctx,
        ),
      );
    },
    compressed,
    ctx.offsetBase,
    (reason, offset, kind) => ctx.warn(reason, offset, kind),
  );
  return {
    push: (chunk, off) => parser.push(chunk, off),
    end: () => parser.end(),
    gap: () => parser.gap(),
    get count() {
      return parser.records;
    },
  };
}
