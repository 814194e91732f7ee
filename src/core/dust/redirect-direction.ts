/**
 * Which way a site's own redirects point a substring rule (validation.ts tries that direction first:
 * the server has named its canonical URL).
 */
import { movesOrigin } from './origin-moves';
import { applyRule, reversed, type UrlIndex } from './rules';
import type { SubstringRule } from './types';

/**
 * Whether the site points the other way: more of the rule's instances in L are redirects from β-side
 * to α-side than the other way (u redirects to R(u) for the reverse rule more often than for the
 * rule). When none of its instances redirects along it, the URLs the site redirects to elsewhere
 * decide: an alias family whose /permalink/N answers 301 to /nodes/N.html has /nodes/N.html as its
 * canonical URL, so /?p=N ↔ /nodes/N.html points to it, whichever side is longer. Only redirects of
 * the rule's own kind count: those that change the path for a rule that keeps the origin, those that
 * change the origin for one that moves it (a www. → bare redirect names the origin, not the path).
 * When no redirect says either way and `lands` (the tool's extensions): landsAgainst.
 */
export function redirectsAgainst(rule: SubstringRule, L: UrlIndex, lands = true): boolean {
  let forward = 0;
  let backward = 0;
  const back = reversed(rule);
  for (const [r, add] of [
    [rule, () => forward++],
    [back, () => backward++],
  ] as const) {
    for (const c of L.candidates(r)) {
      const u = L.urls[c];
      if (u.redirect === '') continue;
      if (applyRule(r, u.url, u.tokens) === u.redirect) add();
    }
  }
  if (forward !== backward) return backward > forward;
  const targets = redirectTargets(L)[movesOrigin(rule) ? 'origin' : 'path'];
  if (targets.size > 0) {
    let toward = 0;
    let away = 0;
    for (const c of L.candidates(rule)) {
      const u = L.urls[c];
      const v = applyRule(rule, u.url, u.tokens);
      if (v === null || v === u.url || !L.byUrl.has(v)) continue;
      const tu = targets.has(u.url);
      const tv = targets.has(v);
      if (tv && !tu) toward++;
      else if (tu && !tv) away++;
    }
    if (toward !== away) return away > toward;
  }
  return lands && landsAgainst(rule, back, L);
}

/**
 * When nothing the site redirects says which way (not in the paper): the way whose rewrites land on
 * URLs the crawl fetched, then the way the site's own links go. An alias family crawled whole under
 * one spelling (/posts/N.html) and in part under another (/amp/N) points to the one crawled whole:
 * /posts/N.html → /amp/N would send most pages to URLs nobody fetched. So does a directory's
 * dir/ ↔ dir/index.html, where the site links dir/. A way needs a clear lead: a fifth more of its
 * rewrites landing, or two thirds of the instances' links; and never a way that rewrites its own
 * rewrites (scope.ts).
 */
function landsAgainst(rule: SubstringRule, back: SubstringRule, L: UrlIndex): boolean {
  const share = (r: SubstringRule) => {
    let rewrites = 0;
    let landed = 0;
    let regrows = 0;
    for (const c of L.candidates(r)) {
      const u = L.urls[c];
      const v = applyRule(r, u.url, u.tokens);
      if (v === null) continue;
      rewrites++;
      if (L.byUrl.get(v)?.served !== false && L.byUrl.has(v)) landed++;
      const again = applyRule(r, v);
      if (again !== null && again !== u.url) regrows++;
    }
    return { landed: rewrites === 0 ? 0 : landed / rewrites, unbounded: 2 * regrows > rewrites };
  };
  const f = share(rule);
  const b = share(back);
  // Never toward a way that rewrites its own rewrites ($ → .html?utm_campaign=x$ grows without end).
  if (b.unbounded) return false;
  if (Math.abs(b.landed - f.landed) >= 0.2) return b.landed > f.landed;
  // The site's links: per instance, which of the two URLs more pages link to.
  let toward = 0;
  let away = 0;
  for (const c of L.candidates(rule)) {
    const u = L.urls[c];
    const v = L.byUrl.get(applyRule(rule, u.url, u.tokens) ?? '');
    if (!v || v === u) continue;
    const lu = u.inlinks ?? 0;
    const lv = v.inlinks ?? 0;
    if (lv > lu) toward++;
    else if (lu > lv) away++;
  }
  return 3 * away >= 2 * (toward + away) && away > 0;
}

/** The URLs of L that some URL of L redirects to, by what the redirect changes. */
const targetsOf = new WeakMap<UrlIndex, { path: Set<string>; origin: Set<string> }>();

function redirectTargets(L: UrlIndex): { path: Set<string>; origin: Set<string> } {
  let t = targetsOf.get(L);
  if (t) return t;
  t = { path: new Set(), origin: new Set() };
  for (const u of L.urls) {
    if (u.redirect === '' || !L.byUrl.has(u.redirect)) continue;
    (pathOf(u.url) === pathOf(u.redirect) ? t.origin : t.path).add(u.redirect);
  }
  targetsOf.set(L, t);
  return t;
}

/** A URL's path and query: what follows its origin. */
function pathOf(url: string): string {
  const i = url.indexOf('/', url.indexOf('//') + 2);
  return i < 0 ? '/' : url.slice(i);
}
