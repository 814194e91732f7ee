/**
 * Valid rules as URL-normalisation rules for crawlers: one ordered list of regex search/replace pairs,
 * the form Nutch's RegexURLNormalizer (regex-normalize.xml), StormCrawler's RegexURLNormalizer (the
 * same file) and Heritrix's RegexRule canonicalisation rules read. Java regex syntax (JavaScript reads
 * the patterns as they are; only a literal '$' in a replacement is spelled '\$' for Java).
 *
 * Applying the list — each pattern in order, every match replaced, the whole list repeated until the
 * URL no longer changes (at most maxIterations) — gives canonize()'s URL (§5.4). Each rule keeps its
 * site: a pattern starts with the site's origin guard (registrable domain and its sub-domains, or the
 * host, as the mining's site mode said), so a rule mined on one site never rewrites another.
 * Lookbehinds are bounded (Java requires it): query and path parts up to 4,096 characters.
 */
import { canonizationOrder } from './canonize';
import { wildcardKind } from './wildcards';
import type { Rule, RuleScope, SiteMode, SubstringRule } from './types';
import { originOf } from './sections';
import { applyRule, ruleSpelling } from './rules';

export interface RegexRule {
  /** The rule's id and spelling, for a comment beside the pattern. */
  id: number;
  rule: string;
  site: string;
  pattern: string;
  /** Java replacement syntax: $1 … for groups, '\$' for a literal '$'. */
  replacement: string;
}

const ESC = /[.*+?^${}()|[\]\\]/g;
const esc = (s: string) => s.replace(ESC, '\\$&');
const WORD = '[A-Za-z0-9]';

/** What a rule's site allows before the path: scheme, then the host (guarded), then optional port. */
function guard(site: string, mode: SiteMode): string {
  if (mode === 'list' || site === '') return '[A-Za-z][A-Za-z0-9+.-]{0,31}://[^/?#]{0,255}';
  if (mode === 'host') return `[A-Za-z][A-Za-z0-9+.-]{0,31}://${esc(site)}`;
  return `[A-Za-z][A-Za-z0-9+.-]{0,31}://(?:[^/?#@]{0,253}\\.)?${esc(site)}(?::[0-9]{1,5})?`;
}

/**
 * A scope's sections (scope.ts) as the start of a URL, for a lookahead at ^: an origin and its first
 * directory, any number for '{n}', or a file at the root (no '/' before the query).
 */
function scopeStart(scope: RuleScope): string {
  if (scope.sections.length === 0) return '(?!)';
  return `(?:${scope.sections.map((k) => sectionStart(k, '')).join('|')})`;
}

/** One section as a pattern; `rest` follows a directory (a bounded path, in a lookbehind). */
function sectionStart(key: string, rest: string): string {
  const o = originOf(key);
  const dir = key.slice(o.length + 1, -1);
  if (dir === '') return rest === '' ? `${esc(o)}/[^/?#]*(?:[?#]|$)` : `${esc(o)}/[^/?#]{0,4096}`;
  return `${esc(o)}/${dir === '{n}' ? '[0-9]{1,20}' : esc(dir)}/${rest}`;
}

/** The origin and path before the query, bounded for a lookbehind: the rule's site, or its scope. */
function pathBefore(r: Rule, g: string): string {
  if (!r.scope) return `${g}[^?]{0,4096}`;
  if (r.scope.sections.length === 0) return '(?!)';
  return `(?:${r.scope.sections.map((k) => sectionStart(k, '[^?]{0,4096}')).join('|')})`;
}

/** A literal replacement text in Java syntax. */
const lit = (s: string) => s.replace(/\\/g, '\\\\').replace(/\$/g, '\\$');

function substringRegex(r: SubstringRule, g: string): Omit<RegexRule, 'id' | 'rule' | 'site'> | null {
  const a = r.alpha;
  const b = r.beta;
  if ((a[0] === '^') !== (b[0] === '^') || (a[a.length - 1] === '$') !== (b[b.length - 1] === '$'))
    return null;
  const anchored = a[0] === '^';
  const groups = new Map<string, number>();
  let n = anchored ? 0 : 1;
  const start = r.scope ? scopeStart(r.scope) : `${g}(?:[/?#]|$)`;
  let pattern = anchored ? `^(?=${start})` : `^((?=${start}).*?)`;
  const isWord = (t: string) =>
    /^[\p{L}\p{N}]/u.test(t) || (wildcardKind(t) !== null && wildcardKind(t) !== 'o');
  const body = a.filter((t, i) => !((i === 0 && t === '^') || (i === a.length - 1 && t === '$')));
  if (body.length > 0 && isWord(body[0]) && !anchored) pattern += `(?<!${WORD})`;
  for (const t of body) {
    const k = wildcardKind(t);
    if (k === null) pattern += esc(t);
    else {
      groups.set(t, ++n);
      pattern +=
        k === 'x'
          ? `(${WORD}+)(?!${WORD})`
          : k === 'n'
            ? `([0-9]+)(?!${WORD})`
            : k === 's'
              ? `(${WORD}+(?:-${WORD}+)*)(?!${WORD}|-${WORD})`
              : `(${WORD}+://[^/?#]+)`;
    }
  }
  const last = body[body.length - 1];
  if (last !== undefined && isWord(last) && wildcardKind(last) === null) pattern += `(?!${WORD})`;
  if (a[a.length - 1] === '$') pattern += '$';
  let replacement = anchored ? '' : '$1';
  for (const [i, t] of b.entries()) {
    if ((i === 0 && t === '^') || (i === b.length - 1 && t === '$')) continue;
    if (wildcardKind(t) === null) replacement += lit(t);
    else {
      const k = groups.get(t);
      if (k === undefined) return null;
      replacement += `$${k}`;
    }
  }
  return { pattern, replacement };
}

/** The regex rules of one rule (a parameter drop takes three: a later piece, the first, the only one). */
function regexesOf(r: Rule, mode: SiteMode): Omit<RegexRule, 'id' | 'rule' | 'site'>[] {
  // A rule applied to named URLs only (scope.ts: it rewrites its own rewrites): each, whole.
  if (r.scope?.urls)
    return r.scope.urls.flatMap((u) => {
      const to = applyRule(r, u);
      return to === null ? [] : [{ pattern: `^${esc(u)}$`, replacement: lit(to) }];
    });
  const g = guard(r.site, mode);
  if (r.kind === 'substring') {
    const one = substringRegex(r, g);
    return one ? [one] : [];
  }
  const name = esc(r.param);
  const path = pathBefore(r, g);
  if (r.kind === 'path-param-drop') return [{ pattern: `(?<=^${path});${name}=[^;/?#]*`, replacement: '' }];
  if (r.kind === 'param-default')
    return [
      {
        pattern: `(?<=^${path}\\?(?:[^#]{0,4096}&)?)${name}(?:=[^&]*)?(?=&|$)`,
        replacement: `${lit(r.param)}=${lit(r.value)}`,
      },
    ];
  return [
    { pattern: `(?<=^${path}\\?[^#]{0,4096})&${name}(?:=[^&]*)?(?=&|$)`, replacement: '' },
    { pattern: `^(${path})\\?${name}(?:=[^&]*)?&`, replacement: '$1?' },
    { pattern: `^(${path})\\?${name}(?:=[^&]*)?$`, replacement: '$1' },
  ];
}

/** The rules canonisation applies (valid, not made redundant), as ordered regex rules. */
export function rulesAsRegex(rules: readonly Rule[], mode: SiteMode): RegexRule[] {
  const applied = canonizationOrder(rules.filter((r) => r.status === 'valid' && !r.coveredBy));
  return applied.flatMap((r) =>
    regexesOf(r, mode).map((x) => ({ id: r.id, rule: ruleSpelling(r), site: r.site, ...x })),
  );
}

/**
 * Where one pass over the rules' passes leaves a crawled URL elsewhere than the workbench's canonical
 * URL — a class named by a fetched member other than its rule form (representatives.ts), or rules
 * that undo each other within one of canonisation's iterations — the file's answer → the canonical
 * URL, for every URL of the list. An answer two URLs reach with different canonical URLs cannot be
 * mended by name and is left (counted in `conflicts`).
 */
export function fileFixes(
  urls: readonly string[],
  canonical: ReadonlyMap<string, string>,
  rules: readonly Rule[],
  mode: SiteMode,
  ruleForm: Iterable<[string, string]>,
): { fixes: [string, string][]; conflicts: number } {
  const list = rulesAsRegex(rules, mode);
  const passes = passesNeeded(list, ruleForm);
  const compiled = list.map((r) => ({ re: new RegExp(r.pattern, 'g'), to: jsReplacement(r.replacement) }));
  const fixes = new Map<string, string>();
  const bad = new Set<string>();
  for (const u of urls) {
    let x = u;
    for (let k = 0; k < passes; k++) for (const { re, to } of compiled) x = x.replace(re, to);
    const c = canonical.get(u) ?? u;
    if (x === c) continue;
    const had = fixes.get(x);
    if (had === undefined) fixes.set(x, c);
    else if (had !== c) bad.add(x);
  }
  for (const x of bad) fixes.delete(x);
  return { fixes: [...fixes], conflicts: bad.size };
}

/** fileFixes as literal rules: the rules' answer, whole, → the canonical URL. They end the file. */
export function renamedAsRegex(renamed: readonly [string, string][]): RegexRule[] {
  return renamed.map(([form, name]) => ({
    id: -1,
    rule: 'the rules’ answer named as the workbench names it',
    site: originOf(form),
    pattern: `^${esc(form)}$`,
    replacement: lit(name),
  }));
}

/** Java's replacement string as JavaScript's String.replace reads it ('\$' → '$$'). */
export function jsReplacement(replacement: string): string {
  return replacement.replace(/\\\$/g, '$$$$').replace(/\\\\/g, '\\');
}

/**
 * How many times the list must be applied, once each rule in order, for every URL to reach its
 * canonical form (canonisation repeats its rules until nothing changes, §5.4; a crawler's regex
 * normaliser applies its list once): the exported file holds the list that many times.
 */
export function passesNeeded(
  list: readonly RegexRule[],
  changed: Iterable<[string, string]>,
  max = 10,
): number {
  const compiled = list.map((r) => ({ re: new RegExp(r.pattern, 'g'), to: jsReplacement(r.replacement) }));
  let passes = 1;
  for (const [url, canonical] of changed) {
    let current = url;
    for (let k = 1; k <= max; k++) {
      for (const { re, to } of compiled) current = current.replace(re, to);
      if (current === canonical) {
        passes = Math.max(passes, k);
        break;
      }
    }
  }
  return passes;
}

/**
 * Nutch / StormCrawler regex-normalize.xml: the list `passes` times over (passesNeeded), then the
 * answers the rules leave elsewhere than the workbench's canonical URL (fileFixes, renamedAsRegex), once.
 */
export function nutchRegexXml(
  list: readonly RegexRule[],
  passes = 1,
  renamed: readonly RegexRule[] = [],
): string {
  const x = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = list
    .map(
      (r) =>
        `  <!-- #${r.id} ${x(r.site)}: ${x(r.rule).replace(/--/g, '- -')} -->\n  <regex>\n    <pattern>${x(r.pattern)}</pattern>\n    <substitution>${x(r.replacement)}</substitution>\n  </regex>`,
    )
    .join('\n');
  const passBodies = Array.from(
    { length: passes },
    (_, k) => `  <!-- pass ${k + 1} of ${passes} -->\n${body}`,
  );
  const literal = renamed.map(
    (r) =>
      `  <regex>\n    <pattern>${x(r.pattern)}</pattern>\n    <substitution>${x(r.replacement)}</substitution>\n  </regex>`,
  );
  if (literal.length > 0)
    passBodies.push(
      `  <!-- ${literal.length} crawled URLs' answers named as the workbench names them (chiefly classes named by the URL the crawl fetched, not by their rule form) -->\n${literal.join('\n')}`,
    );
  const all = passBodies.join('\n');
  return `<?xml version="1.0"?>\n<!-- DUST rules mined by Dedup Workbench (DustBuster), in order: one pass over this file gives each crawled URL its canonical URL -->\n<regex-normalize>\n${all}\n</regex-normalize>\n`;
}
