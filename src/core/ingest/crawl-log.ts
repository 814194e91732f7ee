import { buildPage } from './page-builder';
import { FormatFault } from './errors';
import { LineReader, type FormatReader, type ReaderContext } from './reader';

/**
 * Heritrix crawl.log: one line per fetch attempt, space-aligned fields —
 * timestamp, status, size, URI, discovery path, via, MIME, thread, fetch time+duration, digest, source, annotations.
 * Negative status codes are Heritrix's own (−1 DNS failure, −9998 robots.txt precluded, …).
 */
export function createCrawlLogReader(ctx: ReaderContext): FormatReader {
  return new LineReader((line, lineNo) => {
    if (line.trim() === '') return;
    const f = line.trim().split(/\s+/);
    if (f.length < 7 || !/^-?\d+$/.test(f[1])) {
      throw new FormatFault(`not a crawl.log line (expected "timestamp status size URI path via MIME …")`, {
        line: lineNo,
      });
    }
    ctx.record('crawl-log line');
    const url = f[3];
    if (url.startsWith('dns:')) {
      ctx.skip('dns: lookups');
      return;
    }
    const size = f[2] === '-' ? -1 : Number(f[2]);
    const raw = f[9] && f[9] !== '-' ? f[9] : '';
    const digest = raw === '' ? '' : raw.includes(':') ? raw : `sha1:${raw}`;
    const { page, content } = buildPage(ctx.nextSeq(), {
      url,
      status: Number(f[1]),
      recordType: 'crawl-log line',
      fetchedAt: f[0],
      headers: [
        ['discovery-path', f[4]],
        ['via', f[5]],
        ['thread', f[7] ?? ''],
        ['fetch-time', f[8] ?? ''],
        ['annotations', f.slice(11).join(' ')],
      ],
      contentType: f[6] === '-' ? '' : f[6],
      body: null,
      digest,
      size,
      offset: lineNo,
      note: '',
    });
    ctx.page({ page, content });
  });
}
