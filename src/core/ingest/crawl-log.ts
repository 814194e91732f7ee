import { buildPage } from './page-builder';
import { FormatFault } from './errors';
import { LineReader, skipLongLines, type FormatReader, type ReaderContext } from './reader';

/**
 * Heritrix's own fetch status codes (org.archive.modules.fetcher.FetchStatusCodes, Heritrix 1.x and 3.x):
 * a crawl.log line with one of these was never fetched, so it is not a page. The analyst sees each code
 * with its meaning and how many lines had it.
 */
export const HERITRIX_STATUS: Readonly<Record<number, string>> = {
  0: 'not attempted',
  1: 'DNS lookup succeeded',
  [-1]: 'DNS lookup failed',
  [-2]: 'connect failed',
  [-3]: 'connection broken',
  [-4]: 'timed out',
  [-5]: 'runtime exception',
  [-6]: 'DNS prerequisite failed (domain unresolvable)',
  [-7]: 'URI unsupported or invalid',
  [-8]: 'retries exhausted',
  [-50]: 'deferred, awaiting a prerequisite',
  [-60]: 'could not be queued',
  [-61]: 'robots.txt prerequisite failed',
  [-62]: 'other prerequisite failed',
  [-63]: 'prerequisite could not be scheduled',
  [-404]: 'deemed not found',
  [-3000]: 'severe Java error',
  [-4000]: 'deemed chaff (crawler trap)',
  [-4001]: 'too many link hops',
  [-4002]: 'too many embed hops',
  [-4003]: 'out of scope on re-examination',
  [-4004]: 'blocked by a custom processor',
  [-5000]: 'blocked by user setting',
  [-5001]: 'blocked by a custom processor',
  [-5002]: 'blocked by a mixed-content processor',
  [-5003]: 'blocked by quota',
  [-5004]: 'blocked by runtime limit',
  [-6000]: 'deleted from the frontier by user',
  [-7000]: 'processing thread killed',
  [-9998]: 'robots.txt precluded',
};

/** "−5003 blocked by quota": the key a not-fetched line is counted under (dataset `skipped`). */
export function heritrixStatusLabel(code: number): string {
  return `status ${code}: ${HERITRIX_STATUS[code] ?? 'Heritrix code not in the table'}`;
}

/** Lines that are not crawl.log lines listed one by one before they are only counted. */
const LISTED_BAD_LINES = 20;

/**
 * Heritrix crawl.log: one line per fetch attempt, space-aligned fields —
 * timestamp, status, size, URI, discovery path, via, MIME, thread, fetch time+duration, digest, source, annotations.
 *
 * Only fetched URLs (status > 0, not the dns: lookups) become pages; lines with Heritrix's own codes
 * (0, negative) are counted by code under `skipped`. A line that is not a log line at all (a stray ARC
 * header left by an extraction, a truncated line) is listed as a problem with its line number and read
 * past; a file in which no line is a log line is not a crawl.log.
 */
export function createCrawlLogReader(ctx: ReaderContext): FormatReader {
  let good = 0;
  let bad = 0;
  let firstBad = -1;
  const lines = new LineReader((line, lineNo) => {
    if (line.trim() === '') return;
    const f = line.trim().split(/\s+/);
    if (f.length < 7 || !/^-?\d+$/.test(f[1])) {
      bad++;
      if (firstBad < 0) firstBad = lineNo;
      const shown = line.length > 80 ? `${line.slice(0, 80)}…` : line;
      // Offsets of line formats are line numbers (see the pipeline's warningInfo).
      if (bad <= LISTED_BAD_LINES)
        ctx.warn(`not a crawl.log line, skipped: "${shown}"`, lineNo, `bad line ${lineNo}`);
      else ctx.warn('more lines that are not crawl.log lines, skipped', lineNo, 'bad lines');
      return;
    }
    good++;
    ctx.record('crawl-log line');
    const url = f[3];
    if (url.startsWith('dns:')) {
      ctx.skip('dns: lookups');
      return;
    }
    const status = Number(f[1]);
    if (status <= 0) {
      ctx.skip(heritrixStatusLabel(status));
      return;
    }
    const size = f[2] === '-' ? -1 : Number(f[2]);
    const raw = f[9] && f[9] !== '-' ? f[9] : '';
    const digest = raw === '' ? '' : raw.includes(':') ? raw : `sha1:${raw}`;
    const { page, content } = buildPage(ctx.nextSeq(), {
      url,
      status,
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
  }, skipLongLines(ctx));
  return {
    push: (chunk) => lines.push(chunk),
    gap: () => lines.gap(),
    end() {
      lines.end();
      if (good === 0 && bad > 0)
        throw new FormatFault(
          `not a crawl.log: none of its ${bad.toLocaleString('en-US')} lines is a crawl.log line (expected "timestamp status size URI path via MIME …")`,
          { line: firstBad },
        );
    },
    get count() {
      return lines.count;
    },
  };
}
