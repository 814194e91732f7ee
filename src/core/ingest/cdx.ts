import { arcDateToIso } from './arc';
import { FormatFault } from './errors';
import { buildPage } from './page-builder';
import { LineReader, skipLongLines, type FormatReader, type ReaderContext } from './reader';

/**
 * CDX and CDXJ indexes (what wget --warc-cdx, pywb and cdx-indexer write next to a WARC): one line per
 * capture with URL, timestamp, MIME, status, digest and record length — a URL list with sizes, enough
 * for DUST rules and exact-digest groups, without page text.
 *   CDX:  " CDX a b m s k r M S V g" header naming the fields, then space-separated values.
 *   CDXJ: "surt timestamp {json}" with url, mime, status, digest, length, offset, filename.
 */
interface Capture {
  url: string;
  date: string;
  mime: string;
  status: string;
  digest: string;
  length: string;
}

export function createCdxReader(ctx: ReaderContext): FormatReader {
  let fields: string[] | null = null;
  return new LineReader((line, lineNo) => {
    if (line.trim() === '') return;
    if (line.startsWith(' CDX ') || line.startsWith('CDX ')) {
      fields = line.trim().split(/\s+/).slice(1);
      return;
    }
    let c: Capture;
    const json = line.indexOf(' {');
    if (json > 0 && fields === null) {
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(line.slice(json + 1)) as Record<string, unknown>;
      } catch (e) {
        throw new FormatFault(`CDXJ line whose JSON does not parse (${(e as Error).message})`, {
          line: lineNo,
        });
      }
      const parts = line.slice(0, json).split(' ');
      const s = (k: string) => (typeof o[k] === 'string' || typeof o[k] === 'number' ? String(o[k]) : '');
      c = {
        url: s('url'),
        date: parts[1] ?? '',
        mime: s('mime'),
        status: s('status'),
        digest: s('digest'),
        length: s('length'),
      };
    } else {
      if (!fields)
        throw new FormatFault('CDX line before the " CDX …" header that names the fields', {
          line: lineNo,
        });
      const v = line.trim().split(/\s+/);
      const at = (letter: string) => {
        const i = fields!.indexOf(letter);
        return i >= 0 && v[i] !== undefined && v[i] !== '-' ? v[i] : '';
      };
      c = {
        url: at('a') || at('A'),
        date: at('b'),
        mime: at('m'),
        status: at('s'),
        digest: at('k'),
        length: at('S'),
      };
    }
    ctx.record('cdx line');
    if (!c.url) {
      ctx.skip('index lines without a URL');
      return;
    }
    const revisit = c.mime === 'warc/revisit';
    const built = buildPage(ctx.nextSeq(), {
      url: c.url,
      status: Number(c.status) || 0,
      recordType: revisit ? 'revisit' : 'cdx line',
      fetchedAt: arcDateToIso(c.date),
      headers: [],
      contentType: revisit || c.mime === '-' ? '' : c.mime,
      body: null,
      digest: c.digest ? (c.digest.includes(':') ? c.digest : `sha1:${c.digest}`) : '',
      size: c.length ? Number(c.length) : -1,
      offset: lineNo,
      note: '',
    });
    ctx.page(built);
  }, skipLongLines(ctx));
}
