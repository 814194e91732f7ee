import { registrableDomain } from '../url/site';
import { buildPage } from './page-builder';
import { LineReader, skipLongLines, type FormatReader, type ReaderContext } from './reader';

/**
 * Common and Combined Log Format (Apache, nginx): host ident user [date] "request" status bytes
 * ["referer" "agent"], optionally led by the virtual host (Apache's vhost_combined, `%v:%p`, or nginx's
 * `$host`). Lines become a URL list: per URL the statuses seen, hits and the min–max size (DustBuster
 * §3 uses exactly this size range for LikelySimilar). 4xx/5xx are kept and marked.
 *
 * Where a URL's host comes from: the line's virtual host when the log has one (several virtual hosts
 * stay several sites); else the base URL given (CLI --base, the workbench's "Base URL"); else a guess
 * from the referers, per path — the site whose own pages link to it most (a referer is the site's own
 * when its path is requested in the log too), else the log's most linking site — and the guess is
 * said as a problem read past (HOST_GUESSED), with the origins and how many URLs each got.
 */
const LINE =
  /^(?:(\S+) )?(\S+) (\S+) (\S+) \[([^\]]+)\] "((?:[^"\\]|\\.)*)" (\d{3}) (\d+|-)(?: "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)")?/;

/** The reason of the problem that says a log's host was guessed (the workbench offers a base URL then). */
export const HOST_GUESSED = 'host guessed from the referers';

/** A virtual host field (`name`, `name:port`) as an origin: port 443 is https, others http. */
export function vhostOrigin(v: string): string {
  const m = /^([^:]+)(?::(\d+))?$/.exec(v);
  if (!m) return `http://${v}`;
  const [, host, port] = m;
  if (port === '443') return `https://${host}`;
  if (port === '8443') return `https://${host}:8443`;
  return port && port !== '80' ? `http://${host}:${port}` : `http://${host}`;
}
const MONTHS: Record<string, string> = {
  Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06',
  Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12',
}; // prettier-ignore

interface UrlStats {
  path: string;
  /** The line's virtual host as an origin; '' when the log has none. */
  origin: string;
  /** Referer origins of the requests for this URL, with counts (logs without a virtual host). */
  referers: Map<string, number> | null;
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
  // Referer URLs by origin and path: an origin whose referring paths the log requests is a site of it.
  const refererPaths = new Map<string, Set<string>>();
  const lines = new LineReader((line, lineNo) => {
    if (line.trim() === '') return;
    const m = LINE.exec(line);
    if (!m) {
      ctx.record('unparsed line');
      ctx.skip('lines not in Common/Combined Log Format');
      return;
    }
    ctx.record('log line');
    const vhost = m[1] ?? '';
    const req = m[6].split(' ');
    if (req.length < 2 || !/^[A-Z]+$/.test(req[0])) {
      ctx.skip('malformed request lines');
      return;
    }
    if (req[0] !== 'GET' && req[0] !== 'HEAD') {
      ctx.skip(`${req[0]} requests (not page fetches)`);
      return;
    }
    const path = req[1];
    const status = Number(m[7]);
    const size = m[8] === '-' ? -1 : Number(m[8]);
    const origin = vhost && vhost !== '-' ? vhostOrigin(vhost) : '';
    const key = origin ? `${origin} ${path}` : path;
    let s = urls.get(key);
    if (!s) {
      s = {
        path,
        origin,
        referers: origin ? null : new Map(),
        statuses: new Set(),
        hits: 0,
        min: -1,
        max: -1,
        first: m[5],
        line: lineNo,
      };
      urls.set(key, s);
    }
    s.statuses.add(status);
    s.hits++;
    if (size >= 0 && status < 300) {
      s.min = s.min < 0 ? size : Math.min(s.min, size);
      s.max = Math.max(s.max, size);
    }
    const ref = m[9];
    if (s.referers && ref && ref !== '-') {
      try {
        const u = new URL(ref);
        s.referers.set(u.origin, (s.referers.get(u.origin) ?? 0) + 1);
        let paths = refererPaths.get(u.origin);
        if (!paths) refererPaths.set(u.origin, (paths = new Set()));
        if (paths.size < 10_000) paths.add(u.pathname + u.search);
      } catch {
        /* not a URL: ignore */
      }
    }
  }, skipLongLines(ctx));
  return {
    push: (c) => lines.push(c),
    get count() {
      return lines.count;
    },
    end() {
      lines.end();
      const guess = ctx.baseUrl ? null : hostGuesser(urls, refererPaths);
      const guessed = new Map<string, number>();
      for (const s of urls.values()) {
        const absolute = /^[a-z]+:\/\//i.test(s.path);
        let base = s.origin || ctx.baseUrl;
        if (!base && !absolute && guess) {
          base = guess(s);
          guessed.set(base, (guessed.get(base) ?? 0) + 1);
        }
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
        // The path as logged, for a host the analyst may set later (db rebaseLogPages).
        if (!s.origin && !absolute) built.page.logPath = s.path;
        ctx.page(built);
      }
      if (guessed.size > 0) {
        const list = [...guessed].sort((a, b) => b[1] - a[1]);
        const shown = list
          .slice(0, 5)
          .map(([o, n]) => `${o} (${n} URL${n === 1 ? '' : 's'})`)
          .join(', ');
        ctx.warn(
          `the log has no host field: ${HOST_GUESSED}: ${shown}${list.length > 5 ? `, … ${list.length - 5} more` : ''}. Set the base URL if this is wrong.`,
          1,
          HOST_GUESSED,
        );
      }
    },
  };
}

/**
 * The host of a logged path, guessed from the referers. Sites of the log: referer origins whose own
 * referring paths are requested in the log (external referers — a search engine — are not). A path
 * gets the site that referred to it most; a path no site referred to, the site that serves most of its
 * first directory, else the log's most referring site. A site is a registrable domain (www.s and s are
 * one), put on the origin of it that refers most.
 */
function hostGuesser(
  urls: ReadonlyMap<string, UrlStats>,
  refererPaths: ReadonlyMap<string, Set<string>>,
): (s: UrlStats) => string {
  const requested = new Set<string>();
  for (const s of urls.values()) if (!s.origin) requested.add(s.path);
  const own = new Map<string, number>();
  for (const [o, paths] of refererPaths) {
    let n = 0;
    for (const p of paths) if (requested.has(p)) n++;
    if (n > 0) own.set(o, n);
  }
  const totals = new Map<string, number>();
  for (const s of urls.values())
    for (const [o, n] of s.referers ?? []) totals.set(o, (totals.get(o) ?? 0) + n);
  const rank = (m: ReadonlyMap<string, number>, keep: (o: string) => boolean): string => {
    let best = '';
    let n = 0;
    for (const [o, c] of m) if (keep(o) && (c > n || (c === n && o < best))) [best, n] = [o, c];
    return best;
  };
  // One origin per site: www.s and s (http and https) referring to the log's paths are one site, the
  // origin that refers most; else a page would land on www.s or s by who linked to it.
  const siteOrigin = new Map<string, string>();
  const domainOf = (o: string) => {
    try {
      return registrableDomain(new URL(o).host);
    } catch {
      return o;
    }
  };
  for (const o of [...own.keys()].sort(
    (a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0) || (a < b ? -1 : 1),
  )) {
    const d = domainOf(o);
    if (!siteOrigin.has(d)) siteOrigin.set(d, o);
  }
  const toSite = (o: string) => (o ? (siteOrigin.get(domainOf(o)) ?? o) : o);
  const fallback = toSite(rank(totals, (o) => own.has(o))) || rank(totals, () => true) || 'http://localhost';
  const byReferers = (s: UrlStats) => toSite((s.referers && rank(s.referers, (o) => own.has(o))) || '');
  // A path no site links to goes with the site that serves most of its first directory.
  const dirOf = (path: string) => /^\/[^/?]*\/?/.exec(path)?.[0] ?? '/';
  const byDir = new Map<string, Map<string, number>>();
  for (const s of urls.values()) {
    const o = byReferers(s);
    if (!o) continue;
    const d = dirOf(s.path);
    let m = byDir.get(d);
    if (!m) byDir.set(d, (m = new Map()));
    m.set(o, (m.get(o) ?? 0) + 1);
  }
  return (s) => {
    const o = byReferers(s);
    if (o) return o;
    const m = byDir.get(dirOf(s.path));
    return (m && rank(m, () => true)) || fallback;
  };
}
