/**
 * Wildcards in substring rules, and rules with several varying tokens found as one (generalise.ts).
 * Not in the paper: Definition 3.1's α → β is a literal substitution, so a blog whose posts live at
 * /2024/04/14/1234/ and ?p=1234 gives one rule per date (one per value of every token that varies),
 * each with the few instances of its date. Here such rules are one rule, /2024/{m}/{d}/{n}/$ → /?p={n}$,
 * whose support is counted over all its instances.
 *
 * Wildcard tokens: '{' kind [digits] '}'. No URL token is spelled so (a token is one alphanumeric run
 * or one other character, §3), so a wildcard never matches itself by accident. Kinds:
 *   x        one alphanumeric token (GAP, the carried token of rules from pairs)
 *   n y m d  one run of digits (y, m, d name a date's year, month and day, for reading only)
 *   s        a slug: alphanumeric tokens joined by '-' (greedy: as many as follow)
 *   o        an origin, scheme://host[:port], right after ^ (origins.ts: a rule that holds on every
 *            host and scheme of its site)
 * In α each wildcard occurs once and binds what it matched; β repeats bound wildcards. A rule whose
 * β holds a wildcard that α does not bind does not apply (its reverse, when α binds more than β
 * repeats, is such a rule: /2024/{m}/{d}/{s}/ → /{s}/ has no reverse).
 */

const WORD_START = /^[\p{L}\p{N}]/u;

/** Whether a URL token is an alphanumeric run (the only kind {x} matches). */
export function isWordToken(t: string): boolean {
  const c = t.charCodeAt(0);
  if (c < 0x80) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return WORD_START.test(t);
}

/** The origin wildcard: scheme://host[:port] right after ^. */
export const ORIGIN = '{o}';

const WILD = /^\{([xnymdso])(\d*)\}$/;
export const DIGITS = /^[0-9]+$/;

export type WildKind = 'x' | 'n' | 's' | 'o';

/** The matching kind of a wildcard token, or null for a literal token. */
export function wildcardKind(t: string): WildKind | null {
  if (t.length < 3 || t.charCodeAt(0) !== 123) return null;
  const m = WILD.exec(t);
  if (!m) return null;
  return m[1] === 'x' ? 'x' : m[1] === 's' ? 's' : m[1] === 'o' ? 'o' : 'n';
}

export function isWildcard(t: string): boolean {
  return wildcardKind(t) !== null;
}

interface RunInfo {
  /** Whether the run holds any wildcard (else the fixed-length fast path of rules.ts applies). */
  wild: boolean;
  kinds: (WildKind | null)[];
  /** Every element matches exactly one token (no {s}, no {o}). */
  fixed: boolean;
}

/** matchWildRun's span buffer, reused (it was most of the allocations of a DUST run). */
let scratch = new Int32Array(64);

const infos = new WeakMap<readonly string[], RunInfo>();

/** Whether a run holds a wildcard: a scan for '{' (cheaper than a lookup on the hot paths). */
export function hasWildcard(run: readonly string[]): boolean {
  for (let i = 0; i < run.length; i++) if (run[i].charCodeAt(0) === 123 && run[i].length >= 3) return true;
  return false;
}

export function runInfo(run: readonly string[]): RunInfo {
  let info = infos.get(run);
  if (!info) {
    const kinds = run.map(wildcardKind);
    info = { wild: kinds.some((k) => k !== null), kinds, fixed: kinds.every((k) => k !== 's' && k !== 'o') };
    infos.set(run, info);
  }
  return info;
}

export interface RunMatch {
  at: number;
  /** One past the last token matched. */
  end: number;
  /** Wildcard → the tokens it matched. */
  bind: Map<string, string[]>;
}

/**
 * {o}: an origin, scheme://host[:port] — a word, ':', '/', '/', then every token up to the path's first
 * '/' (or '?', '#', the end); only right after the start frame.
 */
function originLength(tokens: readonly string[], i: number, last: number): number {
  if (i !== 1 || i + 4 >= last || !isWordToken(tokens[i])) return 0;
  if (tokens[i + 1] !== ':' || tokens[i + 2] !== '/' || tokens[i + 3] !== '/') return 0;
  let j = i + 4;
  while (j < last && tokens[j] !== '/' && tokens[j] !== '?' && tokens[j] !== '#') j++;
  return j > i + 4 ? j - i : 0;
}

/** Tokens a wildcard of kind k matches at tokens[i]: their count, 0 when it does not match. */
function wildLength(kind: WildKind, tokens: readonly string[], i: number, last: number): number {
  if (i >= last) return 0;
  const t = tokens[i];
  if (kind === 'n') return DIGITS.test(t) ? 1 : 0;
  if (kind === 'o') return originLength(tokens, i, last);
  if (!isWordToken(t)) return 0;
  if (kind === 'x') return 1;
  let j = i + 1;
  while (j + 1 < last && tokens[j] === '-' && isWordToken(tokens[j + 1])) j += 2;
  return j - i;
}

/**
 * The leftmost match of a run holding wildcards at or after from, with rules.ts findRun's frames: a
 * leading '^' matches only the start frame, a trailing '$' only the end frame.
 */
export function matchWildRun(tokens: readonly string[], run: readonly string[], from = 0): RunMatch | null {
  const n = run.length;
  if (n === 0) return null;
  const info = runInfo(run);
  const { kinds } = info;
  const last = tokens.length - 1;
  const anchoredStart = run[0] === '^';
  const anchoredEnd = run[n - 1] === '$';
  let lo = anchoredStart ? from : Math.max(from, 1);
  let hi = anchoredStart ? Math.min(0, last) : last;
  // A run that ends at $ with one token per element can start at one place only.
  if (anchoredEnd && !anchoredStart && info.fixed) lo = hi = Math.max(lo, tokens.length - n);
  const t0 = anchoredStart ? 1 : 0;
  // Where each wildcard's match starts and ends; the bindings are built for the match found only.
  if (scratch.length < 2 * n) scratch = new Int32Array(4 * n);
  const spans = scratch;
  for (let k = lo; k <= hi; k++) {
    // Most start positions fail on a literal first token: skip them without a call.
    if (!anchoredStart && kinds[0] === null && tokens[k] !== run[0]) continue;
    let i = anchoredStart ? 1 : k;
    let t = t0;
    for (; t < n; t++) {
      if (t === n - 1 && anchoredEnd) {
        if (i !== last) break;
        i++;
        continue;
      }
      const kind = kinds[t];
      if (kind === null) {
        if (i >= last || tokens[i] !== run[t]) break;
        i++;
        continue;
      }
      const len = wildLength(kind, tokens, i, last);
      if (len === 0) break;
      spans[2 * t] = i;
      spans[2 * t + 1] = i + len;
      i += len;
    }
    if (t < n) continue;
    const bind = new Map<string, string[]>();
    for (let w = 0; w < n; w++)
      if (kinds[w] !== null) bind.set(run[w], tokens.slice(spans[2 * w], spans[2 * w + 1]));
    return { at: k, end: i, bind };
  }
  return null;
}

/** β with its wildcards replaced by what α bound; null when β repeats a wildcard α did not bind. */
export function fillWildcards(beta: readonly string[], bind: ReadonlyMap<string, string[]>): string[] | null {
  const out: string[] = [];
  for (const t of beta) {
    if (wildcardKind(t) === null) {
      out.push(t);
      continue;
    }
    const got = bind.get(t);
    if (!got) return null;
    out.push(...got);
  }
  return out;
}
