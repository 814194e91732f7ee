/**
 * Rules with several varying tokens found as one rule with wildcards (wildcards.ts: what the wildcard
 * tokens are and how they match).
 *
 * Generalisation is anti-unification of rule spellings: candidates are grouped by shape (separators
 * kept, words replaced by their type, β's words that repeat one of α's marked so), and in a group the
 * positions where the words differ become wildcards, those where they agree stay literal. Digits, hex
 * ids and slugs are values: they may differ at two values (a daily blog over two years shows two
 * years); a plain word must show at least minValues different words (MS), so two versions (v1, v2)
 * never become "any word"; a word of β that varies without being carried from α makes other groups.
 * The groups are formed before any support threshold, their counts summed (generalise).
 */
import { tokenizeUrl } from './url-list';
import { DIGITS, isWordToken, runInfo, wildcardKind } from './wildcards';

/** A side as elements: a separator token, or a word (a token, or a slug 'a-b-c' of several). */
function elementsOf(side: readonly string[]): { el: string[]; word: boolean[] } {
  const el: string[] = [];
  const word: boolean[] = [];
  const origin = originEnd(side);
  for (let i = 0; i < side.length; i++) {
    if (i < origin || !isWordToken(side[i]) || wildcardKind(side[i]) !== null) {
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

/**
 * Where a side's spelled origin ends (^scheme://host[:port], up to the path's first '/'), or 0. An
 * origin is a name, never a value: sites by port on one address (:8081, :8082) are other sites, and
 * a family over their ports would carry one site's rule to the others (each is found on its own, and
 * origins.ts finds a rule that holds on every origin of a site as ^{o}).
 */
function originEnd(side: readonly string[]): number {
  if (side[0] !== '^' || side[2] !== ':' || side[3] !== '/' || side[4] !== '/') return 0;
  const end = side.indexOf('/', 5);
  return end < 0 ? side.length : end;
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

/**
 * A word's type: digits (n), a hex id (h: six or more hex digits, a digit and a letter among them,
 * one case), a slug (s: words joined by '-'), or a plain word (w). Digits, hex ids and slugs are
 * values (a date is three runs of digits): a family of rules that differ only in them is one rule
 * however few values a position shows. A plain word is a name (v1, latest, print, en).
 */
export type WordType = 'n' | 'h' | 's' | 'w';
const HEX = /^(?:[0-9a-f]{6,}|[0-9A-F]{6,})$/;
const HAS_DIGIT = /[0-9]/;
const HAS_HEX_LETTER = /[a-fA-F]/;

export function wordType(e: string): WordType {
  if (DIGITS.test(e)) return 'n';
  if (e.includes('-')) return 's';
  if (HEX.test(e) && HAS_DIGIT.test(e) && HAS_HEX_LETTER.test(e)) return 'h';
  return 'w';
}

function shape(c: Candidate): { key: string; s: Shaped } | null {
  if (runInfo(c.alpha).wild || runInfo(c.beta).wild) return null;
  const a = elementsOf(c.alpha);
  const b = elementsOf(c.beta);
  // α's words by type (digits, a hex id, a slug, a word): /node/613 and /2023/a-slug are not one rule.
  const key: string[] = a.el.map((e, i) => (a.word[i] ? `\u0002${wordType(e)}` : e));
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
 * Families of candidates, before any support threshold (the rules from pairs of a daily blog, one
 * article per date, are hundreds of spellings of count 1). Candidates are grouped by shape: α's words
 * by type, β's words carried from α marked so, every other token of β literal. In a shape, a position
 * of α varies when its words differ: a typed word (digits, hex id, slug) as soon as two values show,
 * a plain word when minValues (MS) values or more show, so two versions (v1, v2) never become "any
 * word"; a parameter's name never varies (?{x}={x2} would drop any one parameter). A shape whose
 * plain words or parameter names differ without varying so is several rules, each found on its own,
 * and gives nothing; else it is one family, whose count is the sum of its members' counts. A family
 * of two spellings or more whose count reaches minValues is one rule, its varying positions wildcards.
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
    const count = members.reduce((a, m) => a + m.count, 0);
    if (count < minValues) continue;
    const { alpha, alphaWord } = members[0];
    const sizes = alpha.map((_, i) => (alphaWord[i] ? new Set(members.map((m) => m.alpha[i])).size : 1));
    const varying = alpha.map(
      (e, i) =>
        alphaWord[i] &&
        alpha[i + 1] !== '=' &&
        alpha[i - 1] !== '&' &&
        sizes[i] >= (wordType(e) === 'w' ? minValues : 2),
    );
    if (!varying.some(Boolean) || sizes.some((n, i) => n > 1 && !varying[i])) continue;
    out.push(ruleOf(members, varying, count));
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

/** A family's rule: its varying positions as wildcards named by what they hold, the rest literal. */
function ruleOf(members: readonly Shaped[], varying: readonly boolean[], count: number): GeneralRule {
  const first = members[0];
  const values = first.alpha.map((_, i) => new Set(members.map((m) => m.alpha[i])));
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
  return { alpha, beta, members: members.length, count };
}
