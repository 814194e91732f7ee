/**
 * The copy kept in a cluster, by the one documented rule the batch's SQL applies (sql/dedup.sql `kept`,
 * README "Decisions"), in this order: the page whose URL is its own DUST canonical form; a 2xx status;
 * the earliest capture (an unknown time last); the shortest URL (in characters); the URL; the page
 * number. Strings compare by code point, which is the byte order of their UTF-8 (as both SQL engines
 * compare them).
 */
export interface Capture {
  /** The page's number in its dataset (the batch's page id). */
  id: number;
  url: string;
  status: number;
  /** ISO 8601; '' unknown. */
  fetchedAt: string;
  /** The URL is its own DUST canonical form (true for every page when no rules were mined). */
  isCanonical: boolean;
}

/** Negative when a is kept before b. */
export function keepBefore(a: Capture, b: Capture): number {
  const ok = (p: Capture) => (p.status >= 200 && p.status <= 299 ? 0 : 1);
  return (
    Number(b.isCanonical) - Number(a.isCanonical) ||
    ok(a) - ok(b) ||
    Number(a.fetchedAt === '') - Number(b.fetchedAt === '') ||
    byCodePoint(a.fetchedAt, b.fetchedAt) ||
    codePoints(a.url) - codePoints(b.url) ||
    byCodePoint(a.url, b.url) ||
    a.id - b.id
  );
}

/** The member kept: the first by keepBefore (members non-empty). */
export function keptOf(members: readonly number[], capture: (i: number) => Capture): number {
  let best = members[0];
  let bestCapture = capture(best);
  for (let k = 1; k < members.length; k++) {
    const c = capture(members[k]);
    if (keepBefore(c, bestCapture) < 0) {
      best = members[k];
      bestCapture = c;
    }
  }
  return best;
}

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) n++;
    else {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      n++;
    }
  }
  return n;
}

/** Code point order (UTF-16 order differs only where a surrogate pair meets U+E000–U+FFFF). */
function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
