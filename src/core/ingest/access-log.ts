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
 * from the referers, per path (hostGuesser) — and the guess is said as a problem read past
 * (HOST_GUESSED), with the origins and how many URLs each got. In every mode a site is an origin:
 * scheme, host and port (several sites on one address by port stay several).
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

/** Requests of one URL (or of one path from one referer origin): statuses, hits, min–max size. */
interface Hits {
  statuses: number[];
  hits: number;
  min: number;
  max: number;
  /** The first request's date and line. */
  first: string;
  line: number;
}

interface UrlStats {
  path: string;
  /** The line's virtual host as an origin; '' when the log has none. */
  origin: string;
  /**
   * The requests by referer: its origin, or its origin and `/` when the referer is that ('' for none,
   * and for every line with a virtual host). A path that two sites of the log serve is split by who
   * referred to it (hostGuesser).
   */
  parts: Map<string, Hits>;
}

function addHit(h: Hits, status: number, size: number): void {
  if (!h.statuses.includes(status)) h.statuses.push(status);
  h.hits++;
  if (size >= 0 && status < 300) {
    h.min = h.min < 0 ? size : Math.min(h.min, size);
    h.max = Math.max(h.max, size);
  }
}

/**
 * A URL the log shows was served (a referer names it) but none of whose requests can be told from
 * another site's: no hits, size unknown, the statuses of the path.
 */
function unseen(all: readonly Hits[]): Hits {
  const h = mergeHits(all);
  return { ...h, hits: 0, min: -1, max: -1 };
}

/** Requests of several parts as one URL's. */
function mergeHits(parts: readonly Hits[]): Hits {
  const out: Hits = { statuses: [], hits: 0, min: -1, max: -1, first: '', line: Infinity };
  for (const h of parts) {
    for (const x of h.statuses) if (!out.statuses.includes(x)) out.statuses.push(x);
    out.hits += h.hits;
    if (h.min >= 0) out.min = out.min < 0 ? h.min : Math.min(out.min, h.min);
    out.max = Math.max(out.max, h.max);
    if (h.line < out.line) [out.first, out.line] = [h.first, h.line];
  }
  return out;
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
    if (!s) urls.set(key, (s = { path, origin, parts: new Map() }));
    let from = '';
    const ref = m[9];
    if (!origin && ref && ref !== '-') {
      try {
        const u = new URL(ref);
        if (u.origin !== 'null') {
          let paths = refererPaths.get(u.origin);
          if (!paths) refererPaths.set(u.origin, (paths = new Set()));
          if (paths.size < 10_000) paths.add(u.pathname + u.search);
          // A referer that is an origin's `/` is kept apart (hostGuesser): it may be an origin alone.
          from = u.pathname === '/' && !u.search ? `${u.origin}/` : u.origin;
        }
      } catch {
        /* not a URL: ignore */
      }
    }
    let h = s.parts.get(from);
    if (!h) s.parts.set(from, (h = { statuses: [], hits: 0, min: -1, max: -1, first: m[5], line: lineNo }));
    addHit(h, status, size);
  }, skipLongLines(ctx));
  const emit = (s: UrlStats, url: string, h: Hits, logged: boolean) => {
    const statuses = h.statuses.sort((a, b) => a - b);
    const built = buildPage(ctx.nextSeq(), {
      url,
      status: statuses.find((x) => x < 400) ?? statuses[0],
      recordType: 'log url',
      fetchedAt: clfDateToIso(h.first),
      headers: [['path', s.path]],
      contentType: '',
      body: null,
      digest: '',
      size: h.min,
      offset: h.line,
      note: statuses.some((x) => x >= 400)
        ? `error status seen: ${statuses.filter((x) => x >= 400).join(', ')}`
        : '',
    });
    built.page.statuses = statuses;
    built.page.hits = h.hits;
    built.page.sizeMax = h.max;
    // The path as logged, for a host the analyst may set later (db rebaseLogPages).
    if (logged) built.page.logPath = s.path;
    ctx.page(built);
  };
  const join = (base: string, path: string) =>
    base.replace(/\/$/, '') + (path.startsWith('/') ? '' : '/') + path;
  return {
    push: (c) => lines.push(c),
    gap: () => lines.gap(),
    get count() {
      return lines.count;
    },
    end() {
      lines.end();
      const guess = ctx.baseUrl ? null : hostGuesser(urls, refererPaths);
      const guessed = new Map<string, number>();
      for (const s of urls.values()) {
        const absolute = /^[a-z]+:\/\//i.test(s.path);
        const base = s.origin || ctx.baseUrl;
        if (absolute || base || !guess) {
          const url = absolute ? s.path : join(base || 'http://localhost', s.path);
          emit(s, url, mergeHits([...s.parts.values()]), !s.origin && !absolute);
          continue;
        }
        // The host guessed: the path's site, or its sites when it is a page of several (split by referer).
        for (const [site, parts] of guess.sitesOf(s)) {
          guessed.set(site, (guessed.get(site) ?? 0) + 1);
          const all = [...s.parts.values()];
          emit(s, join(site, s.path), parts.length > 0 ? mergeHits(parts) : unseen(all), true);
        }
      }
      if (guess && guessed.size > 0) ctx.warn(guessMessage(guessed, guess.members), 1, HOST_GUESSED);
    },
  };
}

/** The HOST_GUESSED problem: the sites guessed with how many URLs each (and the origins read as one). */
function guessMessage(guessed: ReadonlyMap<string, number>, members: ReadonlyMap<string, string[]>): string {
  const list = [...guessed].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = list
    .slice(0, 5)
    .map(([o, n]) => {
      const also = (members.get(o) ?? []).filter((x) => x !== o);
      const urls = `${n} URL${n === 1 ? '' : 's'}`;
      return also.length > 0 ? `${o} (${urls}; with ${also.join(', ')}: the same pages)` : `${o} (${urls})`;
    })
    .join(', ');
  const more = list.length > 5 ? `, … ${list.length - 5} more` : '';
  return list.length === 1
    ? `the log has no host field: ${HOST_GUESSED}: ${shown}. Set the base URL if this is wrong.`
    : `the log has no host field: ${HOST_GUESSED}: ${shown}${more}: ${list.length} sites, one per origin, each path on the site whose pages refer to it. Set a base URL to put every path on one site.`;
}

/** A site of a log without a virtual host: an origin, and origins read as the same site. */
interface Site {
  origin: string;
  /** Its hostKey. */
  key: string;
  members: string[];
  /** The site's referring paths that the log requests: its pages. */
  pages: Set<string>;
  /** Requests referred by its origins. */
  total: number;
}

/** 'https://www.s.test' → 's.test', 'http://s.test:8080' → 's.test:8080': origins that may be one site. */
function hostKey(origin: string): string {
  const u = new URL(origin);
  return `${u.hostname.replace(/^www\./, '')}${u.port ? `:${u.port}` : ''}`;
}

/**
 * The host of a logged path, guessed from the referers. Sites of the log: referer origins whose
 * referring paths (other than `/` alone) the log requests — not an outside referer such as a search
 * engine, which browsers send as its origin (`/`, strict-origin-when-cross-origin). A site is an origin
 * (scheme, host and port): sites on one address by port are several. Two origins that differ only in
 * `www.` and the scheme (default ports) are one site when they refer from the same pages (half of the
 * smaller set of their requested referring paths or more): one site spelled two ways, put on the
 * origin that refers most; else they stay two sites. Other ports are never merged.
 *
 * A path's site, by evidence: the site it is a page of (a referer of that site names it), else the site
 * whose pages (not its `/` alone: a link across origins is sent as the origin) referred to it most. A
 * path that is a page of several sites (their `/`) is split: its requests referred by one of them are
 * that site's URL, the rest go to the one that referred most, and a site none of whose requests can be
 * told apart still gets its URL, without hits. A path with no such evidence gets the site most of its
 * script's paths (`/story.php` for `/story.php?id=3`) went to, else of its deepest directory (not `/`);
 * else the site whose `/` referred to it most; else the log's most referring site.
 */
function hostGuesser(
  urls: ReadonlyMap<string, UrlStats>,
  refererPaths: ReadonlyMap<string, Set<string>>,
): {
  /** The sites of a path (with the requests each gets): one, or each site it is a page of. */
  sitesOf: (s: UrlStats) => Map<string, Hits[]>;
  members: Map<string, string[]>;
} {
  const requested = new Set<string>();
  for (const s of urls.values()) if (!s.origin) requested.add(s.path);
  const ownPaths = new Map<string, Set<string>>();
  for (const [o, paths] of refererPaths) {
    const mine = new Set<string>();
    for (const p of paths) if (requested.has(p)) mine.add(p);
    if (mine.size > 0) ownPaths.set(o, mine);
  }
  // An origin that refers from `/` only may be any site linking here (browsers send a cross-origin
  // referer as the origin alone); it is a site of the log only when no origin shows more.
  const strong = [...ownPaths].filter(([, p]) => p.size > 1 || !p.has('/'));
  const own = strong.length > 0 ? new Map(strong) : ownPaths;
  // Part keys (UrlStats.parts) to origins: 'https://s.test/' (the referer was the origin's `/`) too.
  const originOf = (k: string) => (k.endsWith('/') ? k.slice(0, -1) : k);
  const totals = new Map<string, number>();
  for (const s of urls.values())
    for (const [k, h] of s.parts) if (k) totals.set(originOf(k), (totals.get(originOf(k)) ?? 0) + h.hits);

  const sites: Site[] = [];
  const siteByOrigin = new Map<string, Site>();
  for (const o of [...own.keys()].sort(
    (a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0) || (a < b ? -1 : 1),
  )) {
    const paths = own.get(o)!;
    const key = hostKey(o);
    const same = sites.find((x) => {
      if (x.key !== key) return false;
      let n = 0;
      for (const p of paths) if (x.pages.has(p)) n++;
      return n >= 0.5 * Math.min(paths.size, x.pages.size);
    });
    const site = same ?? { origin: o, key, members: [], pages: new Set<string>(), total: 0 };
    if (!same) sites.push(site);
    site.members.push(o);
    for (const p of paths) site.pages.add(p);
    site.total += totals.get(o) ?? 0;
    siteByOrigin.set(o, site);
  }
  const bySize = (a: Site, b: Site) => b.total - a.total || (a.origin < b.origin ? -1 : 1);
  const pageOf = new Map<string, Site[]>();
  for (const site of sites)
    for (const p of site.pages) {
      const list = pageOf.get(p);
      if (list) list.push(site);
      else pageOf.set(p, [site]);
    }
  for (const list of pageOf.values()) list.sort(bySize);
  const best = (counts: ReadonlyMap<Site, number>, among?: readonly Site[]): Site | undefined => {
    let top: Site | undefined;
    let n = 0;
    for (const [site, c] of counts)
      if ((!among || among.includes(site)) && (c > n || (c === n && top && bySize(site, top) < 0)))
        [top, n] = [site, c];
    return top ?? among?.[0];
  };
  /** Requests of a path by the site that referred them: from its pages, or from its `/` (root). */
  const referredBy = (s: UrlStats, root: boolean): Map<Site, number> => {
    const m = new Map<Site, number>();
    for (const [k, h] of s.parts) {
      if (k.endsWith('/') !== root) continue;
      const site = siteByOrigin.get(originOf(k));
      if (site) m.set(site, (m.get(site) ?? 0) + h.hits);
    }
    return m;
  };
  // A path's site by evidence: the site it is a page of, else the site whose pages (not its `/`)
  // referred to it most.
  const main = new Map<string, Site>();
  for (const s of urls.values()) {
    if (s.origin) continue;
    const site = best(referredBy(s, false), pageOf.get(s.path));
    if (site) main.set(s.path, site);
  }
  // Else: the site that serves most of the paths of its script (the path without its query or path
  // parameters), else of its deepest directory where a site was found (not `/`); the site whose `/` referred to it most (that
  // `/` may be any page of the site linking across origins); the log's most referring site.
  const bare = (path: string) => /^[^?;#]*/.exec(path)![0];
  const dirsOf = (path: string): string[] => {
    const b = bare(path);
    const parts = b.split('/');
    // The script of a query (/article.php?id=N) before the directories.
    const out: string[] = b !== path ? [b] : [];
    for (let k = parts.length - 1; k > 1; k--) out.push(parts.slice(0, k).join('/') + '/');
    return out;
  };
  const byDir = new Map<string, Map<Site, number>>();
  for (const [path, site] of main)
    for (const d of dirsOf(path)) {
      let m = byDir.get(d);
      if (!m) byDir.set(d, (m = new Map()));
      m.set(site, (m.get(site) ?? 0) + 1);
    }
  let fallback = [...sites].sort(bySize)[0]?.origin;
  if (!fallback) {
    let n = 0;
    for (const [o, c] of totals) if (c > n || (c === n && fallback && o < fallback)) [fallback, n] = [o, c];
  }
  const siteOfPath = (s: UrlStats): string => {
    const site = main.get(s.path) ?? main.get(bare(s.path));
    if (site) return site.origin;
    for (const d of dirsOf(s.path)) {
      const m = byDir.get(d);
      if (m) return best(m)!.origin;
    }
    return best(referredBy(s, true))?.origin ?? fallback ?? 'http://localhost';
  };
  const members = new Map(sites.map((x) => [x.origin, x.members]));
  return {
    members,
    sitesOf: (s) => {
      const out = new Map<string, Hits[]>();
      const shared = pageOf.get(s.path);
      if (shared && shared.length > 1) for (const site of shared) out.set(site.origin, []);
      let rest: string | undefined;
      for (const [from, h] of s.parts) {
        const referrer = siteByOrigin.get(originOf(from));
        const site =
          shared && shared.length > 1 && referrer && shared.includes(referrer)
            ? referrer.origin
            : (rest ??= siteOfPath(s));
        const list = out.get(site);
        if (list) list.push(h);
        else out.set(site, [h]);
      }
      return out;
    },
  };
}
