/**
 * Wildcards in substring rules, and rules with several varying tokens found as one. Not in the paper:
 * Definition 3.1's α → β is a literal substitution, so a blog whose posts live at /2024/04/14/1234/
 * and ?p=1234 gives one rule per date (one per value of every token that varies), each with the few
 * instances of its date. Here such rules are one rule, /2024/{m}/{d}/{n}/$ → /?p={n}$, whose support
 * is counted over all its instances.
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
 *
 * Generalisation is anti-unification of rule spellings: candidates are grouped by shape (separators
 * kept, words replaced by a class, β's words that repeat one of α's marked so), and in a group the
 * positions where the words differ become wildcards, those where they agree stay literal. A position
 * must show at least minValues different words (MS), so two versions (v1, v2) never become "any
 * word"; a word of β that varies without being carried from α makes the group no rule at all.
 */
import { tokenizeUrl } from './url-list';

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
const DIGITS = /^[0-9]+$/;

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

/** Whether every wildcard of `to` is bound by `from` (a rule from → to can be applied). */
export function bindsAll(from: readonly string[], to: readonly string[]): boolean {
  return to.every((t) => wildcardKind(t) === null || from.includes(t));
}

// ---------------------------------------------------------------------------------------------------
// Generalisation

/** A side as elements: a separator token, or a word (a token, or a slug 'a-b-c' of several). */
function elementsOf(side: readonly string[]): { el: string[]; word: boolean[] } {
  const el: string[] = [];
  const word: boolean[] = [];
  for (let i = 0; i < side.length; i++) {
    if (!isWordToken(side[i]) || wildcardKind(side[i]) !== null) {
      el.push(side[i]);
      word.push(false);
      continue;
    }
    let j = i + 1;
    while (j + 1 < side.length && side[j] === '-' && isWordToken(side[j + 1])) j += 2;
    el.push(side.slice(i, j).join(''));
    word.push(true);
    i = j - 1;
  }
  return { el, word };
}

export interface Candidate {
  alpha: readonly string[];
  beta: readonly string[];
  /** Pairs or instances behind the candidate (summed per general rule, for ranking only). */
  count: number;
}

export interface GeneralRule {
  alpha: string[];
  beta: string[];
  /** Distinct candidate spellings the rule stands for, and their summed counts. */
  members: number;
  count: number;
}

const SEP = '\u0001';

interface Shaped {
  alpha: string[];
  alphaWord: boolean[];
  beta: string[];
  /** Per β element: the α element it repeats (-1: none), or -2 for a separator. */
  ref: number[];
  count: number;
}

function shape(c: Candidate): { key: string; s: Shaped } | null {
  if (runInfo(c.alpha).wild || runInfo(c.beta).wild) return null;
  const a = elementsOf(c.alpha);
  const b = elementsOf(c.beta);
  // α's words by class (digits, one word, a slug): /node/613 and /2023/a-slug are not one rule.
  const wordClass = (e: string) => (DIGITS.test(e) ? '\u0002d' : e.includes('-') ? '\u0002s' : '\u0002w');
  const key: string[] = a.el.map((e, i) => (a.word[i] ? wordClass(e) : e));
  key.push('\u0003');
  const ref = b.el.map((e, j) => {
    if (!b.word[j]) return -2;
    const i = a.el.indexOf(e);
    return i >= 0 && a.word[i] && a.el.indexOf(e, i + 1) < 0 ? i : -1;
  });
  // β's words not carried from α are literal in the key: β must be a function of α, so spellings
  // that differ there (.htm, .html) are other rules, not one group that fails.
  b.el.forEach((e, j) => key.push(ref[j] === -1 ? `\u0004${e}` : ref[j] === -2 ? e : `=${ref[j]}`));
  const s = {
    alpha: a.el,
    alphaWord: a.word,
    beta: b.el,
    ref,
    count: c.count,
  };
  return { key: key.join(SEP), s };
}

const literal = (e: string): string[] => tokenizeUrl(e).slice(1, -1);

/** Reading names for digit wildcards: a year, then its month and day; else n, n2, … */
function digitName(values: Set<string>, previous: string): string {
  const nums = [...values].map(Number);
  if ([...values].every((v) => v.length === 4) && nums.every((x) => x >= 1900 && x < 2100)) return 'y';
  if (previous === 'y' && [...values].every((v) => v.length <= 2) && nums.every((x) => x >= 1 && x <= 12))
    return 'm';
  if (previous === 'm' && [...values].every((v) => v.length <= 2) && nums.every((x) => x >= 1 && x <= 31))
    return 'd';
  return 'n';
}

/** §5.3's α ≻ β (rules.ts compareSides): longer, or as long and later in lexicographic order. */
function shrinks(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return a.length > b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}

/**
 * Rules with wildcards that stand for several candidates differing only in their varying words.
 * Groups of fewer than two distinct spellings, or with a position of fewer than minValues words,
 * give nothing.
 */
export function generalise(candidates: readonly Candidate[], minValues: number): GeneralRule[] {
  const groups = new Map<string, Map<string, Shaped>>();
  // Both orientations: a side that varies in words the other does not carry (a permalink's date,
  // /2019/{s} ↔ /articles/{s}.html) can only be α, whichever side is longer.
  for (const c of candidates) {
    for (const o of [c, { alpha: c.beta, beta: c.alpha, count: c.count }]) {
      const sh = shape(o);
      if (!sh) continue;
      let g = groups.get(sh.key);
      if (!g) groups.set(sh.key, (g = new Map()));
      const spelled = sh.s.alpha.join('') + SEP + sh.s.beta.join('');
      const seen = g.get(spelled);
      if (seen) seen.count += sh.s.count;
      else g.set(spelled, sh.s);
    }
  }
  const out: GeneralRule[] = [];
  for (const g of groups.values()) {
    if (g.size < 2) continue;
    const members = [...g.values()];
    const first = members[0];
    const values = first.alpha.map((_, i) => new Set(members.map((m) => m.alpha[i])));
    // β's words not carried from α must agree across the group: else β is not a function of α.
    const betaFixed = first.beta.every(
      (_, j) => first.ref[j] !== -1 || new Set(members.map((m) => m.beta[j])).size === 1,
    );
    if (!betaFixed) continue;
    const varying = values.map((v, i) => first.alphaWord[i] && v.size > 1);
    if (!varying.some(Boolean) || values.some((v, i) => varying[i] && v.size < minValues)) continue;
    // A parameter's name is a key, not a value: ?{x}={x2} would drop any one parameter.
    if (varying.some((v, i) => v && (first.alpha[i + 1] === '=' || first.alpha[i - 1] === '&'))) continue;
    const names = new Map<number, string>();
    const used = new Map<string, number>();
    let previous = '';
    values.forEach((v, i) => {
      if (!first.alphaWord[i]) return;
      if (!varying[i]) {
        // A literal year before a month still names the month.
        previous = v.size === 1 && digitName(v, '') === 'y' ? 'y' : '';
        return;
      }
      const all = [...v];
      const letter = all.every((x) => DIGITS.test(x))
        ? digitName(v, previous)
        : all.every((x) => literal(x).length === 1)
          ? 'x'
          : 's';
      previous = letter;
      const k = (used.get(letter) ?? 0) + 1;
      used.set(letter, k);
      names.set(i, `{${letter}${k > 1 ? k : ''}}`);
    });
    const alpha = first.alpha.flatMap((e, i) => {
      const name = names.get(i);
      return name ? [name] : first.alphaWord[i] ? literal(e) : [e];
    });
    const beta = first.beta.flatMap((e, j) => {
      const r = first.ref[j];
      if (r === -2) return [e];
      const name = r >= 0 ? names.get(r) : undefined;
      return name ? [name] : literal(e);
    });
    out.push({ alpha, beta, members: members.length, count: members.reduce((a, m) => a + m.count, 0) });
  }
  // One rule per spelling; of a rule and its reverse (both functions: ids carried both ways) the
  // shrinking one (§5.3).
  const spelled = new Map<string, GeneralRule>();
  const key = (a: readonly string[], b: readonly string[]) => a.join('') + SEP + b.join('');
  for (const r of out) {
    const k = key(r.alpha, r.beta);
    const seen = spelled.get(k);
    if (seen) {
      seen.members += r.members;
      seen.count += r.count;
      continue;
    }
    const back = spelled.get(key(r.beta, r.alpha));
    if (back) {
      if (shrinks(r.alpha, r.beta)) {
        spelled.delete(key(r.beta, r.alpha));
        spelled.set(k, r);
      }
      continue;
    }
    spelled.set(k, r);
  }
  return [...spelled.values()];
}
