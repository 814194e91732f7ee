/**
 * Access logs of several sites on one address, told apart by port (`http://127.0.0.1:28431`, `:28432`,
 * …), written without a virtual-host field: what one server process logs for the sites it serves. The
 * sites are those of a generated DUST world (dust-world.ts), each moved onto its own port (a site's
 * host aliases — www, scheme, mirror hosts — fall onto its one origin), and every site also serves the
 * paths sites share: `/`, `/about/`, `/static/site.css`, `/favicon.ico`.
 *
 * Requests are interleaved over the sites as a server logs them, 1–3 per URL. Their referers are what
 * browsers send: a page of the same site, in full (a click on the site; a fifth of them on its `/`); the other site's origin only
 * (a link across origins: browsers send `strict-origin-when-cross-origin` by default, and another
 * port is another origin); a search engine's origin; an outside page in full; or none. Which origin
 * served each request is known, so a reader's guess can be checked per path.
 */
import { generateWorld } from './dust-world.ts';
import { pick, randInt, seededRandom, shuffle } from './prng.ts';

export interface PortsLog {
  seed: number;
  /** The sites' origins, in port order. */
  origins: string[];
  /** The log (Combined Log Format, no virtual host). */
  text: string;
  /** Per origin, the path (with query) of every URL it served, with its request count. */
  served: Map<string, Map<string, number>>;
  /** Log lines. */
  lines: number;
}

/** Shares of a request's referer kinds (the rest: none). */
const SAME_SITE = 0.55;
/** Share of the same-site referers that are the site's `/`. */
const HOME = 0.2;
const OTHER_SITE = 0.08;
const SEARCH = 0.12;
const OUTSIDE = 0.08;
const SEARCH_ORIGINS = ['https://www.google.com/', 'https://www.bing.com/', 'https://duckduckgo.com/'];
const SHARED = ['/', '/about/', '/static/site.css', '/favicon.ico'];

export function portsAccessLog(
  seed: number,
  opts: { sites?: number; address?: string; firstPort?: number; scale?: number } = {},
): PortsLog {
  const { sites = 3, address = '127.0.0.1', firstPort = 28431, scale = 0.3 } = opts;
  const world = generateWorld(seed, scale, sites);
  const rng = seededRandom(seed ^ 0x2f6b1a3d);
  const origins = world.sites.map((_, k) => `http://${address}:${firstPort + k}`);
  const served = new Map<string, Map<string, number>>(origins.map((o) => [o, new Map()]));
  type Url = { origin: string; path: string; status: number; size: number; page: boolean };
  const urls: Url[] = [];
  const add = (origin: string, path: string, status: number, size: number) => {
    const paths = served.get(origin)!;
    if (paths.has(path)) return;
    paths.set(path, 0);
    const page = status === 200 && !/\.(css|ico|png|js)$/.test(path);
    urls.push({ origin, path, status, size, page });
  };
  // A URL's site: the one its canonical URL is on (every alias is made from a page of its own site).
  const siteOf = new Map(world.sites.map((s, k) => [new URL(s.origin).origin, k]));
  const canonical = new Map(world.urls.map((u) => [u.url, u.canonical]));
  for (const r of world.records) {
    const k = siteOf.get(new URL(canonical.get(r.url) ?? r.url).origin);
    if (k === undefined) throw new Error(`${r.url}: no site of the world (seed ${seed})`);
    const u = new URL(r.url);
    const size = r.sizeMin === undefined || r.sizeMin < 0 ? 0 : r.sizeMin;
    add(origins[k], `${u.pathname}${u.search}`, r.status ?? 200, size);
  }
  for (const o of origins)
    for (const p of SHARED) add(o, p, 200, p === '/' ? randInt(rng, 3000, 9000) : randInt(rng, 200, 2000));

  const pages = new Map<string, string[]>(origins.map((o) => [o, []]));
  for (const u of urls) if (u.page) pages.get(u.origin)!.push(u.path);
  const referer = (u: Url): string => {
    const x = rng();
    // A site's home page is the page most clicks start from.
    if (x < SAME_SITE) return u.origin + (rng() < HOME ? '/' : pick(rng, pages.get(u.origin)!));
    if (x < SAME_SITE + OTHER_SITE && origins.length > 1)
      return `${pick(
        rng,
        origins.filter((o) => o !== u.origin),
      )}/`;
    if (x < SAME_SITE + OTHER_SITE + SEARCH) return pick(rng, SEARCH_ORIGINS);
    if (x < SAME_SITE + OTHER_SITE + SEARCH + OUTSIDE)
      return `https://news.example.net/story/${randInt(rng, 1, 500)}`;
    return '-';
  };
  const requests: Url[] = [];
  for (const u of urls) for (let h = randInt(rng, 1, 3); h > 0; h--) requests.push(u);
  const lines = shuffle(rng, requests).map((u, k) => {
    const counts = served.get(u.origin)!;
    counts.set(u.path, counts.get(u.path)! + 1);
    const t = new Date(Date.UTC(2024, 0, 15, 10, 0, 0) + k * 1000);
    const stamp = `${String(t.getUTCDate()).padStart(2, '0')}/Jan/2024:${t.toISOString().slice(11, 19)} +0000`;
    const size = u.size + (rng() < 0.2 ? randInt(rng, 1, 3) : 0);
    return `192.0.2.${1 + (k % 200)} - - [${stamp}] "GET ${u.path} HTTP/1.1" ${u.status} ${size} "${referer(u)}" "Mozilla/5.0 (ports)"`;
  });
  return { seed, origins, text: lines.join('\n') + '\n', served, lines: lines.length };
}
