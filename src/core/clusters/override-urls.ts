/**
 * The analyst's decisions by URL (issue "The analyst's decisions persist"): as the profile carries them,
 * `"overrides": { "mustLink": [[urlA, urlB], …], "cannotLink": [[urlA, urlB], …] }`, so they apply to
 * another crawl of the same site, and placed on a crawl's pages again: a URL names the page of that
 * normalised URL, else a page of the same DUST-canonical URL (an alias the other crawl fetched instead).
 */
import { normaliseUrl } from '../url/normalize';
import type { Links } from './overrides';

export interface UrlOverrides {
  mustLink: [string, string][];
  cannotLink: [string, string][];
}

export const NO_URL_OVERRIDES: UrlOverrides = { mustLink: [], cannotLink: [] };

/** Decisions as rows (kind and the two URLs) to the profile's lists, each pair once, in row order. */
export function urlOverrides(
  rows: Iterable<{ kind: 'must' | 'cannot'; urlA: string; urlB: string }>,
): UrlOverrides {
  const out: UrlOverrides = { mustLink: [], cannotLink: [] };
  const seen = new Set<string>();
  for (const r of rows) {
    const [a, b] = r.urlA < r.urlB ? [r.urlA, r.urlB] : [r.urlB, r.urlA];
    const k = `${r.kind} ${a} ${b}`;
    if (seen.has(k) || a === b) continue;
    seen.add(k);
    (r.kind === 'must' ? out.mustLink : out.cannotLink).push([a, b]);
  }
  return out;
}

const norm = (u: string): string => {
  try {
    return normaliseUrl(u).href;
  } catch {
    return u;
  }
};

/**
 * The decisions on a crawl's pages: `urls[i]` is page i's normalised URL; `canonical` (optional) the
 * DUST canonisation the profile carries. A URL the crawl does not hold (by either) is left out and
 * counted in `unplaced`.
 */
export function placeOverrides(
  o: UrlOverrides,
  urls: readonly string[],
  canonical?: (normUrl: string) => string,
): { links: Links; unplaced: number } {
  const byUrl = new Map<string, number>();
  urls.forEach((u, i) => {
    if (!byUrl.has(u)) byUrl.set(u, i);
  });
  let byCanon: Map<string, number> | null = null;
  const at = (url: string): number | undefined => {
    const u = norm(url);
    const i = byUrl.get(u);
    if (i !== undefined || !canonical) return i;
    if (!byCanon) {
      byCanon = new Map();
      urls.forEach((x, k) => {
        const c = canonical(x);
        if (!byCanon!.has(c)) byCanon!.set(c, k);
      });
    }
    return byCanon.get(canonical(u));
  };
  let unplaced = 0;
  const place = (list: [string, string][]) =>
    list.flatMap(([x, y]) => {
      const i = at(x);
      const j = at(y);
      if (i === undefined || j === undefined || i === j) {
        unplaced++;
        return [];
      }
      return [[i, j] as [number, number]];
    });
  return { links: { must: place(o.mustLink), cannot: place(o.cannotLink) }, unplaced };
}

/** Checks a profile's `overrides` field; returns the message of the first fault, or null. */
export function overridesFault(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return 'expected { "mustLink": [[urlA, urlB], …], "cannotLink": [[urlA, urlB], …] }';
  for (const k of ['mustLink', 'cannotLink'] as const) {
    const list = (v as Record<string, unknown>)[k];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return `${k}: expected a list of [urlA, urlB]`;
    for (let i = 0; i < list.length; i++) {
      const p = list[i] as unknown;
      if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || typeof p[1] !== 'string')
        return `${k}[${i}]: expected [urlA, urlB], two URLs`;
    }
  }
  return null;
}
