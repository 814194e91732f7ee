/**
 * A URL's parameters read and edited: the query's pieces 'name=value' (dropParam, setParam) and RFC 3986
 * path parameters ';name=value' (pathParamNames, dropPathParam). Parameter substitution rules
 * (param-rules.ts) are detected and applied with them.
 */
interface Query {
  base: string;
  /** The query's pieces 'name=value' (or 'name'), in order. */
  pieces: string[];
}

export function parseQuery(url: string): Query | null {
  const q = url.indexOf('?');
  if (q < 0) return null;
  return { base: url.slice(0, q), pieces: url.slice(q + 1).split('&') };
}

export function nameOf(piece: string): string {
  const eq = piece.indexOf('=');
  return eq < 0 ? piece : piece.slice(0, eq);
}

export function valueOf(piece: string): string {
  const eq = piece.indexOf('=');
  return eq < 0 ? '' : piece.slice(eq + 1);
}

export function build(base: string, pieces: string[]): string {
  return pieces.length === 0 ? base : `${base}?${pieces.join('&')}`;
}

/** url without parameter name (every occurrence); null when url does not carry it. */
export function dropParam(url: string, name: string): string | null {
  const q = parseQuery(url);
  if (!q) return null;
  const rest = q.pieces.filter((p) => nameOf(p) !== name);
  return rest.length === q.pieces.length ? null : build(q.base, rest);
}

/** url with parameter name set to value where it occurs; null when it does not occur. */
export function setParam(url: string, name: string, value: string): string | null {
  const q = parseQuery(url);
  if (!q || !q.pieces.some((p) => nameOf(p) === name)) return null;
  return build(
    q.base,
    q.pieces.map((p) => (nameOf(p) === name ? `${name}=${value}` : p)),
  );
}

/**
 * RFC 3986 §3.3 path parameters: ';name=value' inside a path segment (Java servlets' ;jsessionid=,
 * ;sid=, ;phpsessid=). The value runs to the next ';', '/', '?' or '#'.
 */
export const PATH_PARAM = /;([^;=/?#]+)=([^;/?#]*)/g;

/** Where the path starts and ends (after the authority, before '?' or '#'). */
export function pathSpan(url: string): [number, number] {
  const scheme = url.indexOf('://');
  const start = scheme < 0 ? 0 : url.indexOf('/', scheme + 3);
  if (start < 0) return [url.length, url.length];
  let end = url.length;
  for (const c of ['?', '#']) {
    const at = url.indexOf(c, start);
    if (at >= 0 && at < end) end = at;
  }
  return [start, end];
}

/** The names of url's path parameters, each once. */
export function pathParamNames(url: string): string[] {
  const [a, b] = pathSpan(url);
  if (url.indexOf(';', a) < 0) return [];
  const names = new Set<string>();
  for (const m of url.slice(a, b).matchAll(PATH_PARAM)) names.add(m[1]);
  return [...names];
}

/** url without its path parameter name (every occurrence); null when url does not carry it. */
export function dropPathParam(url: string, name: string): string | null {
  const [a, b] = pathSpan(url);
  if (url.indexOf(';', a) < 0) return null;
  const path = url.slice(a, b);
  const out = path.replace(PATH_PARAM, (all, n: string) => (n === name ? '' : all));
  return out === path ? null : url.slice(0, a) + out + url.slice(b);
}
