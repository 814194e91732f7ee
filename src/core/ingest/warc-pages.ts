/**
 * WARC records to pages (warc.ts parses the records): responses, resources, conversions (WET) and
 * revisits, the latter tied to their originals (origins.ts); a crawler's own files listed as skipped.
 */
import { headerValue } from './bytes';
import { buildPage } from './page-builder';
import { notWebScheme, parseHttpBlock } from './http';
import { Origins, type Original } from './origins';
import type { FormatReader, ReaderContext } from './reader';
import { WarcParser } from './warc';
import { MAX_BLOCK, targetUri } from './warc-record';
import type { PageRecord } from '../types';

/** What a revisit takes from its original (its own MIME type, when it has one, stays). */
export function revisitFields(
  orig: Original,
  mime: string,
): Pick<PageRecord, 'revisitOf' | 'title' | 'fingerprint' | 'textLength' | 'mime'> {
  return {
    revisitOf: orig.seq,
    title: orig.title,
    fingerprint: orig.fingerprint,
    textLength: orig.textLength,
    mime: mime || orig.mime,
  };
}

/**
 * WARC records to pages: response, resource, revisit and conversion records (a WET file's extracted
 * text, Common Crawl's layout: the text is the page, WARC-Target-URI its URL) are pages; the rest are
 * counted.
 */
export function createWarcReader(ctx: ReaderContext, compressed: boolean): FormatReader {
  const origins = new Origins();
  const parser = new WarcParser(
    (r) => {
      ctx.record(r.type || '(no WARC-Type)');
      const url = targetUri(r.headers);
      // Every record's stated digests, pages or not (as warcio check); none stated costs two look-ups.
      ctx.digests?.record({ type: r.type, headers: r.headers, block: r.block, offset: r.offset, url });
      if (r.type !== 'response' && r.type !== 'resource' && r.type !== 'revisit' && r.type !== 'conversion') {
        // A WAT file is all metadata records (JSON about the pages of a WARC): said so, by its type.
        const json = r.type === 'metadata' && /json/i.test(headerValue(r.headers, 'Content-Type') ?? '');
        ctx.skip(
          json
            ? 'metadata records in JSON (a WAT file: open its WARC or WET for the pages)'
            : `${r.type || 'untyped'} records (not pages)`,
        );
        return;
      }
      if (!url) {
        ctx.skip(`${r.type} records without WARC-Target-URI`);
        return;
      }
      if (url.startsWith('dns:')) {
        ctx.skip('dns: lookup records');
        return;
      }
      // Only web URLs are pages: a crawler's own files (wget's log and manifest as urn: or metadata://
      // resources, warcprox's metadata) are listed as skipped, by their scheme.
      const scheme = notWebScheme(url);
      if (scheme) {
        ctx.skip(`${r.type} records of ${scheme} URIs (not web pages)`);
        return;
      }
      if (r.block === null) {
        ctx.skip(`records over ${MAX_BLOCK >> 20} MiB (not read)`);
        return;
      }
      // A conversion record (WET) holds a page's text as extracted, a resource record a file as
      // fetched: neither has an HTTP header block.
      const isHttp = r.type !== 'resource' && r.type !== 'conversion';
      const http = isHttp ? parseHttpBlock(r.block) : null;
      const recordCt = headerValue(r.headers, 'Content-Type') ?? '';
      const contentType = http ? (headerValue(http.headers, 'Content-Type') ?? '') : recordCt;
      const digest = headerValue(r.headers, 'WARC-Payload-Digest') ?? '';
      const body = http ? http.body : r.block;
      const seq = ctx.nextSeq(r.offset);
      const built = buildPage(
        seq,
        {
          url,
          status: http?.status ?? 0,
          recordType: r.type,
          fetchedAt: headerValue(r.headers, 'WARC-Date') ?? '',
          headers: http && http.status ? [[':status', http.statusLine], ...http.headers] : r.headers,
          contentType,
          // Compressed bytes that could not be decoded are no text: kept out of the signatures.
          body: r.type === 'revisit' || http?.undecoded ? null : body,
          digest,
          size: r.type === 'revisit' ? -1 : body.length,
          offset: r.offset,
          note: http?.note ?? '',
        },
        ctx,
      );
      const page = built.page;
      if (r.type === 'revisit') {
        const refId = headerValue(r.headers, 'WARC-Refers-To');
        const refUri = headerValue(r.headers, 'WARC-Refers-To-Target-URI') ?? url;
        const orig = origins.find(refId ?? '', refUri, digest);
        if (orig) Object.assign(page, revisitFields(orig, page.mime));
        else {
          page.note = page.note || 'revisit of a record not in this file';
          ctx.unresolvedRevisit?.(seq, refUri, digest);
        }
      } else {
        origins.add(page, headerValue(r.headers, 'WARC-Record-ID') ?? '', url, digest);
      }
      ctx.page(built);
    },
    compressed,
    {
      offsetBase: ctx.offsetBase,
      onWarning: (reason, offset, kind) => ctx.warn(reason, offset, kind),
    },
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
