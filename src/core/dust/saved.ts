import { canonizationOrder, canonize } from './canonize';
import { normaliseUrl } from '../url/normalize';
import { siteOf, tokenizeUrl } from './url-list';
import type { DustParams, Rule, SiteMode } from './types';

/**
 * URLs each rule saves, every URL counted once across all rules, so the column adds up to §6's
 * discovered redundancy (U_b − U_a: unique URLs before and after canonisation). A class of URLs
 * with one canonical form keeps one URL — the canonical URL itself when it was crawled, else the
 * first of the class in list order — and every other member is saved by the first rule its own
 * canonisation applied. Only rules canonisation applies count (valid, not made redundant by the
 * others: redundant-valid.ts markRedundantValid); other rules save nothing and are absent.
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
  for (const url of urls) {
    const c = canonical.get(url) ?? url;
    if (kept.get(c) === url) continue;
    const mine = bySite.get(siteOfUrl(url, params.site)) ?? [];
    const used = new Set<number>();
    canonize(url, mine, params.maxIterations, tokenizeUrl(url), used);
    // A Set keeps insertion order: the first id is the first rule that rewrote the URL.
    const first = used.values().next();
    if (!first.done) saved[first.value]++;
  }
  return saved;
}

function siteOfUrl(url: string, mode: SiteMode): string {
  return siteOf({ host: normaliseUrl(url).host }, mode);
}
