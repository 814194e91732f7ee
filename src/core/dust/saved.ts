import { canonizationOrder, canonize } from './canonize';
import { normaliseUrl } from '../url/normalize';
import { siteOf, tokenizeUrl } from './url-list';
import type { DustParams, Rule, SiteMode } from './types';

/**
 * URLs each rule saves, every URL counted once across all rules, so the column adds up to §6's
 * discovered redundancy (U_b − U_a: unique URLs before and after canonisation). A class of URLs
 * with one canonical URL keeps one URL — the canonical URL itself when it was crawled, else the
 * first of the class in list order — and every other member is saved by the first rule its own
 * canonisation applied; the class's rule form, when a fetched member names the class instead
 * (representatives.ts), by the first rule that takes the name to it. Only rules canonisation
 * applies count (valid, not made redundant by the others: redundant-valid.ts markRedundantValid);
 * other rules save nothing and are absent. What a rule adds beyond the others: urlsOnlyBy.
 */
export function urlsSaved(
  rules: readonly Rule[],
  urls: readonly string[],
  canonical: ReadonlyMap<string, string>,
  params: Pick<DustParams, 'site' | 'maxIterations'>,
): Record<number, number> {
  const saved: Record<number, number> = {};
  const applied = rules.filter((r) => r.status === 'valid' && !r.coveredBy);
  for (const r of applied) saved[r.id] = 0;
  const bySite = new Map<string, Rule[]>();
  for (const r of canonizationOrder(applied)) bySite.set(r.site, [...(bySite.get(r.site) ?? []), r]);
  const inList = new Set(urls);
  const kept = new Map<string, string>();
  for (const u of urls) {
    const c = canonical.get(u) ?? u;
    if (!kept.has(c)) kept.set(c, inList.has(c) ? c : u);
  }
  const firstRule = (url: string): number | undefined => {
    const mine = bySite.get(siteOfUrl(url, params.site)) ?? [];
    const used = new Set<number>();
    canonize(url, mine, params.maxIterations, tokenizeUrl(url), used);
    // A Set keeps insertion order: the first id is the first rule that rewrote the URL.
    return used.values().next().value;
  };
  for (const url of urls) {
    const c = canonical.get(url) ?? url;
    const k = kept.get(c)!;
    if (k === url) continue;
    const first = firstRule(url) ?? firstRule(k);
    if (first !== undefined && first in saved) saved[first]++;
  }
  return saved;
}

/**
 * What each applied rule adds beyond the others: the URLs canonisation would keep apart without it
 * (U_a without the rule − U_a with all of them). A rule whose every merge another rule also makes
 * adds 0, however many URLs it rewrites first. Only the classes where the rule rewrote a member can
 * split without it, so only those are canonised again.
 */
export function urlsOnlyBy(
  rules: readonly Rule[],
  urls: readonly string[],
  canonical: ReadonlyMap<string, string>,
  params: Pick<DustParams, 'site' | 'maxIterations'>,
): Record<number, number> {
  const applied = rules.filter((r) => r.status === 'valid' && !r.coveredBy);
  const bySite = new Map<string, Rule[]>();
  for (const r of canonizationOrder(applied)) bySite.set(r.site, [...(bySite.get(r.site) ?? []), r]);
  const classes = new Map<string, string[]>();
  const touched = new Map<number, Set<string>>();
  for (const r of applied) touched.set(r.id, new Set());
  for (const url of urls) {
    const c = canonical.get(url) ?? url;
    classes.set(c, [...(classes.get(c) ?? []), url]);
    const used = new Set<number>();
    canonize(
      url,
      bySite.get(siteOfUrl(url, params.site)) ?? [],
      params.maxIterations,
      tokenizeUrl(url),
      used,
    );
    for (const id of used) touched.get(id)?.add(c);
  }
  const only: Record<number, number> = {};
  for (const r of applied) {
    const others = (bySite.get(r.site) ?? []).filter((x) => x.id !== r.id);
    let split = 0;
    for (const c of touched.get(r.id)!) {
      const members = classes.get(c)!;
      if (members.length < 2) continue;
      const forms = new Set(members.map((u) => canonize(u, others, params.maxIterations).url));
      split += forms.size - 1;
    }
    only[r.id] = split;
  }
  return only;
}

function siteOfUrl(url: string, mode: SiteMode): string {
  return siteOf({ host: normaliseUrl(url).host }, mode);
}
