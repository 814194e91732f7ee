/**
 * SURT keys (Sort-friendly URI Reordering Transform) as the Internet Archive writes them in CDX and
 * CDXJ indexes (its `surt` library with the default canonicaliser, Heritrix's and pywb's keys):
 *
 * - the scheme is dropped, and `user:pass@` with it: http and https of a page share a key;
 * - the host is lowercased, its trailing dots dropped, a leading `www` or `wwwN` label dropped (when
 *   more labels follow), its labels reversed and joined by commas, then `)`: `org,archive)`;
 * - the scheme's default port (80 for http, 443 for https) is dropped, another kept: `org,archive:8080)`;
 * - percent-escapes are decoded repeatedly and only bytes that need it written back (controls, space,
 *   non-ASCII, `#` and `%`), so `%7E` and `~` are one key;
 * - path and query are lowercased; a trailing `/` is dropped except from the root path; `//` runs
 *   collapse; `.` and `..` segments resolve;
 * - session ids are removed (jsessionid, phpsessid, sid of 32 hex digits, aspsessionid…, CFID/CFTOKEN,
 *   and ASP.NET's `/(S(…))/` path segments);
 * - the query's `&`-separated parts are sorted (byte order); an empty query and the fragment go.
 *
 * URLs that are not hierarchical web URLs (dns:, filedesc:, warcinfo:, mailto:, urn:) are their own
 * key, as in the IA's library. The key is for grouping captures as archives do, beside (never instead
 * of) the URL and the DUST canonical URL: conservative, not a deduplication rule.
 */

const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };

/** Query parameters that carry a session (the IA canonicaliser's list), matched case-insensitively. */
const QUERY_SESSION = [
  /^jsessionid=[0-9a-z]{32}$/i,
  /^phpsessid=[0-9a-z]{32}$/i,
  /^sid=[0-9a-f]{32}$/i,
  /^aspsessionid[a-z]{8}=[a-z]{24}$/i,
  /^cfid=[^&]+$/i,
  /^cftoken=[^&]+$/i,
];

/** ASP.NET cookieless sessions in the path: `/(S(…))/`, `/(…)/` and `/(a(…)S(…)f(…))/`. */
const PATH_SESSION = /^\/(?:\((?:[a-z]\([0-9a-z]{24}\))+\)|\([0-9a-z]{24}\))(\/[^?]*)/i;

/** Schemes whose URLs are their own key (the IA library's special cases). */
const AS_IS = /^(?:filedesc|warcinfo|dns|mailto|urn|data|javascript):/i;

export function surt(url: string): string {
  const u = url.trim().replace(/[\t\r\n]/g, '');
  if (u === '') return '-';
  if (AS_IS.test(u)) return u;
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?/i.exec(u);
  if (!m) return u;
  const scheme = m[1].toLowerCase();
  let authority = m[2];
  const at = authority.lastIndexOf('@');
  if (at >= 0) authority = authority.slice(at + 1);
  const hp = /^(.*?)(?::(\d*))?$/.exec(authority)!;
  let host = asciiHost(hp[1]).toLowerCase().replace(/\.+$/, '');
  const port = hp[2] && hp[2] !== DEFAULT_PORT[scheme] ? `:${hp[2]}` : '';
  host = host.replace(/^www\d*\./, '');
  const labels = host.split('.').filter((l) => l !== '');
  let path = minimalEscape(m[3] || '/');
  const sess = PATH_SESSION.exec(path);
  if (sess) path = sess[1];
  path = resolveDots(path.replace(/\/{2,}/g, '/')).toLowerCase();
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  let query = '';
  if (m[4] !== undefined) {
    const parts = minimalEscape(m[4])
      .toLowerCase()
      .split('&')
      .filter((p) => !QUERY_SESSION.some((re) => re.test(p)));
    // A query that had only session ids keeps nothing; one that had parts keeps them sorted.
    if (parts.some((p) => p !== '')) query = '?' + parts.sort(byteOrder).join('&');
  }
  return `${labels.reverse().join(',')}${port})${path}${query}`;
}

/** The host in ASCII: an internationalised name in punycode (as the URL parser writes it), else escaped. */
function asciiHost(raw: string): string {
  if (/^[\x21-\x7e]*$/.test(raw)) return minimalEscape(raw);
  try {
    return new URL(`http://${raw}/`).hostname;
  } catch {
    return minimalEscape(raw);
  }
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `.` and `..` segments resolved (RFC 3986 §5.2.4); the path starts with `/`. */
function resolveDots(path: string): string {
  if (!/(^|\/)\.{1,2}(\/|$)/.test(path)) return path;
  const out: string[] = [];
  const segs = path.split('/').slice(1);
  segs.forEach((s, i) => {
    const last = i === segs.length - 1;
    if (s === '.') {
      if (last) out.push('');
    } else if (s === '..') {
      out.pop();
      if (last) out.push('');
    } else out.push(s);
  });
  return '/' + out.join('/');
}

/**
 * Percent-escapes decoded until none is left to decode, then the bytes that need one escaped again
 * (≤ 0x20, ≥ 0x7F, `#`, `%`), in upper-case hex as the IA's canonicaliser writes them (the key is
 * lowercased afterwards, path and query alike).
 */
function minimalEscape(s: string): string {
  let bytes = utf8(s);
  for (let guard = 0; guard < 32; guard++) {
    const next = unescapeOnce(bytes);
    if (next.length === bytes.length) break;
    bytes = next;
  }
  let out = '';
  for (const b of bytes)
    out +=
      b <= 0x20 || b >= 0x7f || b === 0x23 || b === 0x25
        ? '%' + b.toString(16).toUpperCase().padStart(2, '0')
        : String.fromCharCode(b);
  return out;
}

function unescapeOnce(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length);
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    if (b[i] === 0x25 && i + 2 < b.length && isHex(b[i + 1]) && isHex(b[i + 2])) {
      out[n++] = (hexVal(b[i + 1]) << 4) | hexVal(b[i + 2]);
      i += 2;
    } else out[n++] = b[i];
  }
  return out.subarray(0, n);
}

const isHex = (c: number | undefined) =>
  c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
const hexVal = (c: number) => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);

const encoder = new TextEncoder();
function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}
