/**
 * The index's pages as the sample design reads them (sample-design.ts): sites, payload digests, record bytes
 * and directories in columns — typed arrays and the distinct strings, not an object a page — and the site
 * groups the design samples: a site (its host, `www.` dropped) joined with every site the index shows to
 * mirror it (they share payload digests: at least MIRROR.minShared of them and MIRROR.minShare of the
 * smaller site's distinct digests; a digest held by more than MIRROR.maxSites sites — an empty page, a
 * shared error page — is no evidence).
 */
import { hash64Into } from '../hash';

/** Mirror evidence between two sites, from their payload digests in the index. */
export const MIRROR = {
  /** Digests two sites must share at least (or all of the smaller site's, when it has fewer). */
  minShared: 3,
  /** Share of the smaller site's distinct digests that the two must share. */
  minShare: 0.2,
  /** A digest found on more sites than this says nothing about mirroring (empty or error pages). */
  maxSites: 20,
} as const;

/** The page a design needs from an index entry. */
export interface DesignPage {
  url: string;
  digest: string;
  /** Bytes of its record in the file. */
  bytes: number;
}

/** A URL's site: its host in lower case without a leading `www.`, with a port other than 80/443 ('' when it has none). */
export function siteOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/:?#]+)(?::(\d+))?/i.exec(url);
  if (!m) return '';
  const host = m[1].toLowerCase().replace(/^www\./, '');
  // Another port is another site (docsite's three sites are 127.0.0.1:18081, :18082, :18083); the
  // default ports are the host's own.
  return m[2] && m[2] !== '80' && m[2] !== '443' ? `${host}:${m[2]}` : host;
}

/**
 * The index's pages as the design reads them: a column per field, so a crawl of millions of pages costs
 * a few typed arrays and its distinct sites and directories as strings, not an object per page.
 */
export interface DesignColumns {
  length: number;
  /** Site of each page (an index into `sites`). */
  site: Int32Array;
  sites: string[];
  /** A 52-bit hash of each page's payload digest; NaN when it has none. */
  digest: Float64Array;
  bytes: Float64Array;
  /** Directory of each page's path at depth 1, 2, 3: ids of path prefixes, the same on every site. */
  dirs: [Int32Array, Int32Array, Int32Array];
  /** The path prefix of each directory id. */
  dirNames: string[];
}

/** Builds DesignColumns a page at a time (arrays grown by doubling). */
export class DesignColumnsBuilder {
  private n = 0;
  private site = new Int32Array(1024);
  private digest = new Float64Array(1024);
  private bytes = new Float64Array(1024);
  private dirs: [Int32Array, Int32Array, Int32Array] = [
    new Int32Array(1024),
    new Int32Array(1024),
    new Int32Array(1024),
  ];
  private readonly siteIds = new Map<string, number>();
  private readonly dirIds = new Map<string, number>();
  private readonly h = new Uint32Array(2);

  add(url: string, digest: string, bytes: number): void {
    if (this.n === this.site.length) this.grow();
    const i = this.n++;
    const s = siteOf(url);
    let id = this.siteIds.get(s);
    if (id === undefined) this.siteIds.set(s, (id = this.siteIds.size));
    this.site[i] = id;
    if (digest) {
      hash64Into(digest, this.h);
      this.digest[i] = (this.h[0] & 0xfffff) * 4294967296 + this.h[1];
    } else this.digest[i] = NaN;
    this.bytes[i] = Math.max(0, bytes);
    const segs = pathDirs(url);
    for (let d = 0; d < 3; d++) {
      const key = segs.slice(0, d + 1).join('/');
      let k = this.dirIds.get(key);
      if (k === undefined) this.dirIds.set(key, (k = this.dirIds.size));
      this.dirs[d][i] = k;
    }
  }

  finish(): DesignColumns {
    const n = this.n;
    return {
      length: n,
      site: this.site.slice(0, n),
      sites: [...this.siteIds.keys()],
      digest: this.digest.slice(0, n),
      bytes: this.bytes.slice(0, n),
      dirs: [this.dirs[0].slice(0, n), this.dirs[1].slice(0, n), this.dirs[2].slice(0, n)],
      dirNames: [...this.dirIds.keys()],
    };
  }

  private grow(): void {
    const m = this.site.length * 2;
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(m);
      b.set(a);
      return b;
    };
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(m);
      b.set(a);
      return b;
    };
    this.site = i32(this.site);
    this.digest = f64(this.digest);
    this.bytes = f64(this.bytes);
    this.dirs = [i32(this.dirs[0]), i32(this.dirs[1]), i32(this.dirs[2])];
  }
}

/** The columns of a list of pages (tests, small indexes). */
export function columnsOf(pages: readonly DesignPage[]): DesignColumns {
  const b = new DesignColumnsBuilder();
  for (const p of pages) b.add(p.url, p.digest, p.bytes);
  return b.finish();
}

export const asColumns = (x: DesignColumns | readonly DesignPage[]): DesignColumns =>
  Array.isArray(x) ? columnsOf(x as readonly DesignPage[]) : (x as DesignColumns);

/** The directories of a URL's path (its segments but the last, the page itself). */
function pathDirs(url: string): string[] {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url);
  const segs = (m ? m[1] : '').split('/').filter((x) => x !== '');
  return segs.slice(0, Math.max(0, segs.length - 1));
}

/** Pages with a digest, ordered by (digest, site): runs of one digest. */
function byDigest(c: DesignColumns): Uint32Array {
  let k = 0;
  for (let i = 0; i < c.length; i++) if (!Number.isNaN(c.digest[i])) k++;
  const order = new Uint32Array(k);
  k = 0;
  for (let i = 0; i < c.length; i++) if (!Number.isNaN(c.digest[i])) order[k++] = i;
  return order.sort((a, b) => c.digest[a] - c.digest[b] || c.site[a] - c.site[b]);
}

/**
 * Site groups: sites joined when the index shows they mirror each other (see MIRROR). `unitOfSite`
 * by site id (an index into `columns.sites`); `mirrored`: sites in a group of more than one.
 */
export function siteGroups(input: DesignColumns | readonly DesignPage[]): {
  columns: DesignColumns;
  unitOfSite: Int32Array;
  mirrored: number;
} {
  const c = asColumns(input);
  const n = c.sites.length;
  const distinct = new Int32Array(n);
  const shared = new Map<number, number>();
  const order = byDigest(c);
  const run: number[] = [];
  const flush = () => {
    for (const s of run) distinct[s]++;
    if (run.length >= 2 && run.length <= MIRROR.maxSites)
      for (let i = 0; i < run.length; i++)
        for (let j = i + 1; j < run.length; j++) {
          const key = run[i] * n + run[j];
          shared.set(key, (shared.get(key) ?? 0) + 1);
        }
    run.length = 0;
  };
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (k > 0 && c.digest[order[k - 1]] !== c.digest[i]) flush();
    // Sites ascend within a run: each is added once.
    if (run.length === 0 || run[run.length - 1] !== c.site[i]) run.push(c.site[i]);
  }
  flush();
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const [key, count] of shared) {
    const a = Math.floor(key / n);
    const b = key % n;
    const smaller = Math.min(distinct[a], distinct[b]);
    if (count >= Math.min(MIRROR.minShared, smaller) && count >= MIRROR.minShare * smaller) {
      const ra = find(a);
      const rb = find(b);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
  const unitOfRoot = new Map<number, number>();
  const unitOfSite = new Int32Array(n);
  const size = new Map<number, number>();
  // Units are numbered in the order of their sites' names, not of the index's lines: the same crawl
  // gives the same units (and the same draw for a seed) whatever order its index or files list it in.
  const byName = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    c.sites[a] < c.sites[b] ? -1 : c.sites[a] > c.sites[b] ? 1 : 0,
  );
  for (const id of byName) {
    const r = find(id);
    let u = unitOfRoot.get(r);
    if (u === undefined) unitOfRoot.set(r, (u = unitOfRoot.size));
    unitOfSite[id] = u;
    size.set(u, (size.get(u) ?? 0) + 1);
  }
  let mirrored = 0;
  for (const s of size.values()) if (s > 1) mirrored += s;
  return { columns: c, unitOfSite, mirrored };
}
