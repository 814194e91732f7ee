/**
 * URLs listed side by side (a cluster's members, a pair, a rule's instances) shown by what tells them
 * apart: the origin once for the group when they share it (else each its own, the scheme dropped when
 * shared), the path's segments where they differ and the last one, the query whole, the segments every
 * URL of the group has in common before and after the differing ones elided ("…"). Never the differing
 * part: two different URLs always read differently (a URL the others' display would hide is shown
 * whole). Text only; the whole URL stays available to the reader (the UI's title and expand).
 */

interface Parts {
  scheme: string;
  host: string;
  segments: string[];
  /** '?…' or ''. */
  query: string;
}

function partsOf(url: string): Parts | null {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?/i.exec(url);
  if (!m) return null;
  const path = m[3] || '/';
  return { scheme: m[1], host: m[2], segments: path.split('/').slice(1), query: m[4] ?? '' };
}

export interface Distinguished {
  /** The origin every URL shares (shown once for the group), or null. */
  shared: string | null;
  /** Each URL's display, in the order given. */
  shown: string[];
}

export function distinguishing(urls: readonly string[]): Distinguished {
  const parts = urls.map(partsOf);
  const distinct = [...new Set(urls)];
  if (distinct.length < 2 || parts.some((p) => p === null)) return { shared: null, shown: [...urls] };
  const ps = parts as Parts[];
  const origins = new Set(ps.map((p) => `${p.scheme}://${p.host}`));
  const schemes = new Set(ps.map((p) => p.scheme));
  const shared = origins.size === 1 ? [...origins][0] : null;
  // Segments shared by every URL at the start, and at the end (before the last, always shown).
  let pre = 0;
  const minLen = Math.min(...ps.map((p) => p.segments.length));
  while (pre < minLen - 1 && ps.every((p) => p.segments[pre] === ps[0].segments[pre])) pre++;
  let post = 0;
  while (
    post < minLen - 1 - pre &&
    ps.every(
      (p) => p.segments[p.segments.length - 2 - post] === ps[0].segments[ps[0].segments.length - 2 - post],
    )
  )
    post++;
  const shown = ps.map((p, i) => {
    const origin = shared !== null ? '' : schemes.size === 1 ? p.host : `${p.scheme}://${p.host}`;
    const n = p.segments.length;
    const keep = p.segments.map((_, k) => k === n - 1 || (k >= pre && k < n - 1 - post));
    let path = '';
    let elided = false;
    for (let k = 0; k < n; k++) {
      if (keep[k]) {
        path += `/${p.segments[k]}`;
        elided = false;
      } else if (!elided) {
        path += '/…';
        elided = true;
      }
    }
    const text = `${origin}${path}${p.query}`;
    return text || urls[i];
  });
  // Two different URLs must never read alike (the fragment, say, or a scheme the shortening dropped).
  const byText = new Map<string, Set<string>>();
  shown.forEach((t, i) => byText.set(t, (byText.get(t) ?? new Set()).add(urls[i])));
  return { shared, shown: shown.map((t, i) => (byText.get(t)!.size > 1 ? urls[i] : t)) };
}

/**
 * Two URLs each shown by what tells it from the other, the origin kept (each reads on its own); none
 * when either is unknown.
 */
export function pairShown(
  a: string | undefined,
  b: string | undefined,
): [string, string] | [undefined, undefined] {
  if (a === undefined || b === undefined) return [undefined, undefined];
  const d = distinguishing([a, b]);
  return [`${d.shared ?? ''}${d.shown[0]}`, `${d.shared ?? ''}${d.shown[1]}`];
}
