/**
 * DustBuster's answer on a generated world (dust-world.ts) scored against the world's construction:
 * per true rule, the share of its instances found (the valid rules' canonisation sends the alias and
 * another URL of its page to one URL, or one valid rule relates them), found by one rule, merged by
 * canonisation (the alias and the URL it was made from get one canonical form); rows listed against the rules
 * a person would write; precision@k; true rules refuted and wrong rules made valid.
 */
import { applyRule, DUST_DEFAULTS, ruleSpelling, type DustResult, type Rule } from '../../src/core/dust';
import {
  jsReplacement,
  passesNeeded,
  renamedAsRegex,
  rulesAsRegex,
  type RegexRule,
} from '../../src/core/dust/regex-export';
import { normaliseUrl } from '../../src/core/url/normalize';
import type { TrueRule, World } from './dust-world';

/** A true rule needs this many instances to be expected (MS = 3 of them likely similar, plus validation). */
export const MIN_INSTANCES = 6;

export interface RuleScore {
  rule: TrueRule;
  instances: number;
  found: number;
  direct: number;
  merged: number;
  mergeable: number;
  /** The valid rules that relate most instances, spelled. */
  by: string[];
}

export interface WorldScore {
  rules: RuleScore[];
  /** True rules with enough instances to be expected. */
  expected: number;
  rows: number;
  validRows: number;
  precisionAt10: number | null;
  /**
   * Listed rules refuted although every instance of theirs in the list relates two aliases of one
   * page (no counterexample: a rule with a few real negatives, /tide/ and /tide being two pages, is
   * rightly refuted at ε).
   */
  refutedTrue: string[];
  /** Valid rules listed whose instances are mostly different pages. */
  wrongValid: string[];
}

export function scoreWorld(world: World, dust: DustResult): WorldScore {
  const norm = (u: string) => normaliseUrl(u).href;
  const canonicalOf = new Map(world.urls.map((u) => [norm(u.url), norm(u.canonical)]));
  const crawled = new Set(dust.canonical.keys());
  const group = new Map<string, string[]>();
  for (const [u, c] of canonicalOf) if (crawled.has(u)) group.set(c, [...(group.get(c) ?? []), u]);
  const c = (u: string) => dust.canonical.get(u) ?? u;
  const valid = dust.rules.filter((r) => r.status === 'valid');
  const sameGroup = (a: string, b: string) => canonicalOf.get(a) === canonicalOf.get(b);

  const rules: RuleScore[] = world.rules.map((rule) => {
    const s: RuleScore = { rule, instances: 0, found: 0, direct: 0, merged: 0, mergeable: 0, by: [] };
    const used = new Map<string, number>();
    for (const w of world.urls) {
      if (w.rule !== rule.id) continue;
      const u = norm(w.url);
      if (!crawled.has(u)) continue;
      const members = (group.get(canonicalOf.get(u)!) ?? []).filter((x) => x !== u);
      if (members.length === 0) continue;
      s.instances++;
      const r = valid.find((v: Rule) => {
        const t = applyRule(v, u);
        if (t !== null && t !== u && crawled.has(t) && sameGroup(t, u)) return true;
        return members.some((x) => applyRule(v, x) === u);
      });
      if (r) {
        s.direct++;
        used.set(ruleSpelling(r), (used.get(ruleSpelling(r)) ?? 0) + 1);
      }
      if (r || members.some((x) => c(x) === c(u))) s.found++;
      // Canonisation must send the alias and the URL it was made from to one URL.
      const base = norm(w.base);
      if (crawled.has(base) && base !== u) {
        s.mergeable++;
        if (c(base) === c(u)) s.merged++;
      }
    }
    s.by = [...used].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} (${n})`);
    return s;
  });

  // A listed rule's instances over the whole list: how many relate two URLs of one page.
  const urls = [...crawled];
  const trueShare = (r: Rule): number => {
    let all = 0;
    let same = 0;
    for (const u of urls) {
      const v = applyRule(r, u);
      if (v === null || !crawled.has(v)) continue;
      all++;
      if (sameGroup(u, v)) same++;
    }
    return all === 0 ? 1 : same / all;
  };
  const m = dust.metrics.precision;
  return {
    rules,
    expected: rules.filter((r) => r.instances >= MIN_INSTANCES).length,
    rows: dust.rules.length,
    validRows: valid.length,
    precisionAt10: m.length === 0 ? null : m[Math.min(10, m.length) - 1],
    refutedTrue: dust.rules
      .filter((r) => r.status === 'refuted' && trueShare(r) === 1)
      .map((r) => ruleSpelling(r)),
    wrongValid: valid.filter((r) => trueShare(r) < 0.5).map((r) => ruleSpelling(r)),
  };
}

/** Whether the DUST outputs are safe to act on: canonical URLs and crawler rules land on fetched URLs. */
export interface Safety {
  /** Crawled 2xx URLs, and those whose canonical URL is a URL the crawl fetched with a 2xx. */
  urls: number;
  canonicalFetched: number;
  /** Crawled 2xx URLs the exported crawler regex file sends to a URL the crawl did not fetch. */
  crawlerUnfetched: number;
  /** The same with the file's rules alone (without the classes named by a fetched member). */
  rulesAloneUnfetched: number;
  /** Literal lines naming a class by a fetched member (the file's last part). */
  renamed: number;
  /** URLs the file's answer differs from the workbench's canonical URL. */
  differ: number;
}

/** Applies a regex list once, as Nutch's and StormCrawler's normalisers do (Java's replaceAll). */
function applyList(url: string, list: readonly { re: RegExp; to: string }[]): string {
  let c = url;
  for (const { re, to } of list) c = c.replace(re, to);
  return c;
}

const compile = (list: readonly RegexRule[]) =>
  list.map((r) => ({ re: new RegExp(r.pattern, 'g'), to: jsReplacement(r.replacement) }));

export function safetyOf(fetched: ReadonlySet<string>, dust: DustResult): Safety {
  const once = rulesAsRegex(dust.rules, DUST_DEFAULTS.site);
  const passes = passesNeeded(once, dust.ruleForm);
  const rules = compile(Array.from({ length: passes }, () => once).flat());
  const renamed = compile(renamedAsRegex(dust.renamed));
  const s: Safety = {
    urls: 0,
    canonicalFetched: 0,
    crawlerUnfetched: 0,
    rulesAloneUnfetched: 0,
    renamed: renamed.length,
    differ: 0,
  };
  for (const [u, c] of dust.canonical) {
    if (!fetched.has(u)) continue;
    s.urls++;
    if (fetched.has(c)) s.canonicalFetched++;
    const alone = applyList(u, rules);
    if (!fetched.has(alone)) s.rulesAloneUnfetched++;
    const file = applyList(alone, renamed);
    if (!fetched.has(file)) s.crawlerUnfetched++;
    if (file !== c) s.differ++;
  }
  return s;
}

/** The world's URLs fetched with a 2xx, normalised. */
export function fetchedUrls(world: World): Set<string> {
  return new Set(
    world.urls.filter((u) => u.status >= 200 && u.status < 300).map((u) => normaliseUrl(u.url).href),
  );
}
