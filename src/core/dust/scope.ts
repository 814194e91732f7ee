/**
 * Where a valid rule holds. Validation (Fig. 3) judges a rule on a sample of its instances wherever
 * they fall; a rule seen only in one section of a site (`.html →` where one directory's server
 * answers both spellings) would still rewrite every URL of the site its α matches — to URLs the site
 * never served. So each valid rule carries the sections of its site where it was seen to hold: a
 * section is an origin (as the site's origin rules lead it) and the first directory of the path
 * ('{n}' when that directory is a number: /2024/…, /2025/… are one section), or the files at the
 * root. A section holds the rule when, of its URLs the rule rewrites, at least `scopeLanding` (by
 * default half, and at least one) are rewritten to a page of the crawl with a similar document
 * (after the site's parameter rules: /print/x?fbclid=1 lands on /x). `.html$ → $`, validated in the one section whose
 * server answers both spellings, holds there and nowhere else. The rule is then applied in the
 * sections that hold it only — unless every section where it rewrites a URL of the crawl holds it,
 * when it keeps its whole site. A rule that rewrites its own rewrites without end holds nowhere; one
 * validated in some sections only (after a refutation across its site) holds in no other.
 */
import { canonizationOrder, clearOrderCache } from './canonize';
import { originMove, originTargets } from './origin-moves';
import { applyRule, UrlIndex } from './rules';
import { documentsSimilar } from './similarity';
import { groupBySite } from './url-list';
import { originOf, sectionKey } from './sections';
import type { DustParams, DustUrl, FetchFn, Rule } from './types';

/**
 * Gives each applied rule (valid, not made redundant) its scope, as canonisation applies it: spelled
 * on the origins the site's origin rules lead to, after the rules before it. Sections are listed on
 * every origin that leads to the one the rule held on, so a URL that came in on `http://www.s/` is in
 * the scope a rule earned on `https://s/` before the origin rules have moved it as after.
 */
export function scopeRules(
  rules: readonly Rule[],
  urls: readonly DustUrl[],
  fetch: FetchFn,
  params: Pick<DustParams, 'site' | 'dustJaccard' | 'scopeLanding'>,
): void {
  clearOrderCache();
  const bySite = new Map<string, Rule[]>();
  for (const r of rules) {
    delete r.scope;
    if (r.status !== 'valid' || r.coveredBy) continue;
    bySite.set(r.site, [...(bySite.get(r.site) ?? []), r]);
  }
  const lists = groupBySite(urls, params.site);
  for (const [site, mine] of bySite) {
    const L = new UrlIndex(lists.get(site) ?? []);
    const targets = originTargets(mine.map(originMove).filter((m): m is [string, string] => m !== null));
    // Every origin that leads to o, o included ('^http://www.s' → '^https://s').
    const from = new Map<string, string[]>();
    for (const [a, b] of targets) from.set(b.slice(1), [...(from.get(b.slice(1)) ?? []), a.slice(1)]);
    const lead = (o: string) => targets.get(`^${o}`)?.slice(1) ?? o;
    const original = new Map(mine.map((r) => [r.id, r]));
    // The site's parameter rules: a rewrite lands where it lands once they have run (a print view's
    // /print/x?fbclid=1 lands on /x, as canonisation takes it there).
    const params_ = mine.filter((r) => r.kind !== 'substring');
    const settle = (t: string): string => {
      for (const p of params_) t = applyRule(p, t) ?? t;
      return t;
    };
    for (const a of canonizationOrder(mine)) {
      // Per section: URLs the rule rewrites, and those whose rewrite is a fetched, similar page.
      const seen = new Map<string, { applicable: number; landed: number }>();
      const landedUrls: string[] = [];
      // A rule valid in some sections only (validation.ts validateBySection) holds nowhere else.
      const validIn = original.get(a.id)!.validIn ? new Set(original.get(a.id)!.validIn) : null;
      let instances = 0;
      let regrows = 0;
      for (const c of L.candidates(a)) {
        const u = L.urls[c];
        const t = applyRule(a, u.url, u.tokens);
        if (t === null) continue;
        const again = applyRule(a, t);
        if (again !== null && again !== u.url) regrows++;
        const o = originOf(u.url);
        const key = `${lead(o)}${sectionKey(u.url).slice(o.length)}`;
        let sec = seen.get(key);
        if (!sec) seen.set(key, (sec = { applicable: 0, landed: 0 }));
        sec.applicable++;
        if (validIn && !validIn.has(sectionKey(u.url))) continue;
        const fu = fetch(u.url);
        if (!fu) continue;
        const lands = (to: string | null): boolean => {
          if (to === null) return false;
          const fv = fetch(to) ?? fetch(settle(to));
          return !!fv && (fv.status ?? 200) < 400 && documentsSimilar(fu, fv, params.dustJaccard) === true;
        };
        // Canonisation reaches the rule with the site's parameters dropped and its origin led
        // (x?utm_medium=1 on m.s is x on www.s by then): a rule applied by name is named so too.
        const led = (x: string) => `${lead(originOf(x))}${x.slice(originOf(x).length)}`;
        if (!lands(t)) {
          const s = settle(u.url);
          if (s !== u.url && lands(applyRule(a, s))) landedUrls.push(s, led(s));
          continue;
        }
        sec.landed++;
        instances++;
        landedUrls.push(u.url, led(u.url));
      }
      const held = new Set<string>();
      // A rule that rewrites its own rewrite for most URLs ($ → .php$: x.php → x.php.php → …) grows
      // them without end: canonisation would stop at its cap on strings no server has. It is applied
      // to the URLs it was seen to hold on only (x → x.php where both were fetched), each by name.
      const unbounded =
        a.kind === 'substring' && 2 * regrows > [...seen.values()].reduce((n, x) => n + x.applicable, 0);
      if (!unbounded)
        for (const [key, sec] of seen)
          if (sec.landed > 0 && sec.landed >= params.scopeLanding * sec.applicable) held.add(key);
      const applicable = seen;
      if (held.size === applicable.size && !unbounded) continue;
      const sections = new Set<string>();
      for (const key of held) {
        const o = originOf(key);
        const rest = key.slice(o.length);
        sections.add(key);
        for (const f of from.get(o) ?? []) sections.add(`${f}${rest}`);
      }
      const r = original.get(a.id)!;
      r.scope = {
        sections: [...sections].sort(),
        applicable: applicable.size,
        instances,
        ...(unbounded ? { urls: [...new Set(landedUrls)] } : {}),
      };
    }
  }
  clearOrderCache();
}
