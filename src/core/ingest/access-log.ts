import { buildPage } from './page-builder';
import { LineReader, type FormatReader, type ReaderContext } from './reader';

/**
 * Common and Combined Log Format (Apache, nginx): host ident user [date] "request" status bytes
 * ["referer" "agent"]. Lines become a URL list: per URL the statuses seen, hits and the min–max size
 * (DustBuster §3 uses exactly this size range for LikelySimilar). 4xx/5xx are kept and marked.
 */
const LINE =
  /^(\S+) (\S+) (\S+) \[([^\]]+)\] "((?:[^"\\]|\\.)*)" (\d{3}) (\d+|-)(?: "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)")?/;
const MONTHS: Record<string, string> = {
  Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06',
  Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12',
}; // prettier-ignore

interface UrlStats {
  path: string;
  statuses: Set<number>;
  hits: number;
  min: number;
  max: number;
  first: string;
  line: number;
}

/** "17/May/2015:10:05:03 +0000" → ISO 8601 in UTC ('' when malformed). */
export function clfDateToIso(d: string): string {
  const m = /^(\d\d)\/(\w{3})\/(\d{4}):(\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)$/.exec(d);
  if (!m || !MONTHS[m[2]]) return '';
  const t = Date.parse(`${m[3]}-${MONTHS[m[2]]}-${m[1]}T${m[4]}:${m[5]}:${m[6]}${m[7]}${m[8]}:${m[9]}`);
  return Number.isNaN(t) ? '' : new Date(t).toISOString();
}

export function createAccessLogReader(ctx: ReaderContext): FormatReader {
  const urls = new Map<string, UrlStats>();
  const refererOrigins = new Map<string, number>();
  const lines = new LineReader((line, lineNo) => {
    if (line.trim() === '') return;
    const m = LINE.exec(line);
    if (!m) {
      ctx.record('unparsed line');
      ctx.skip('lines not in Common/Combined Log Format');
      return;
    }
    ctx.record('log line');
    const req = m[5].split(' ');
    if (req.length < 2 || !/^[A-Z]+$/.test(req[0])) {
      ctx.skip('malformed request lines');
      return;
    }
    if (req[0] !== 'GET' && req[0] !== 'HEAD') {
      ctx.skip(`${req[0]} requests (not page fetches)`);
      return;
    }
    const path = req[1];
    const status = Number(m[6]);
    const size = m[7] === '-' ? -1 : Number(m[7]);
    let s = urls.get(path);
    if (!s) {
      s = { path, statuses: new Set(), hits: 0, min: -1, max: -1, first: m[4], line: lineNo };
      urls.set(path, s);
    }
    s.statuses.add(status);
    s.hits++;
    if (size >= 0 && status < 300) {
      s.min = s.min < 0 ? size : Math.min(s.min, size);
      s.max = Math.max(s.max, size);
    }
    const ref = m[8];
    if (ref && ref !== '-') {
      try {
        const o = new URL(ref).origin;
        refererOrigins.set(o, (refererOrigins.get(o) ?? 0) + 1);
      } catch {
        /* not a URL: ignore */
      }
    }
  });
  return {
    push: (c) => lines.push(c),
    get count() {
      return lines.count;
    },
    end() {
      lines.end();
      const base = ctx.baseUrl || inferBase(refererOrigins);
      for (const s of urls.values()) {
        const absolute = /^[a-z]+:\/\//i.test(s.path);
        const url = absolute
          ? s.path
          : base.replace(/\/$/, '') + (s.path.startsWith('/') ? '' : '/') + s.path;
        const statuses = [...s.statuses].sort((a, b) => a - b);
        const built = buildPage(ctx.nextSeq(), {
          url,
          status: statuses.find((x) => x < 400) ?? statuses[0],
          recordType: 'log url',
          fetchedAt: clfDateToIso(s.first),
          headers: [['path', s.path]],
          contentType: '',
          body: null,
          digest: '',
          size: s.min,
          offset: s.line,
          note: statuses.some((x) => x >= 400)
            ? `error status seen: ${statuses.filter((x) => x >= 400).join(', ')}`
            : '',
        });
        built.page.statuses = statuses;
        built.page.hits = s.hits;
        built.page.sizeMax = s.max;
        ctx.page(built);
      }
    },
  };
}

/** The site a log belongs to, guessed from the origin most referers name (logs carry paths only). */
function inferBase(origins: Map<string, number>): string {
  let best = '';
  let n = 0;
  for (const [o, c] of origins) if (c > n) [best, n] = [o, c];
  return best || 'http://localhost';
}
