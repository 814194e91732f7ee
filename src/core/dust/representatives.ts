/**
 * The canonical URL of a class of URLs is a URL the site serves. Canonisation (§5.4) gives each URL
 * the form its rules rewrite it to — a string, which for an alias family whose members were crawled
 * under different spellings (/story_7 and /a/7 for one story, /archive/2024/9/ and /story?id=9 for
 * another) names URLs no record has. Here each class (the URLs with one rule form) is named by one of
 * its members that the crawl fetched with a 2xx, chosen by the site's own evidence:
 *   1. the member the class's redirects lead to (the server named it),
 *   2. the rule form itself, when fetched (the rules' direction already follows the site's redirects
 *      and where its rewrites land: validation.ts, redirect-direction.ts),
 *   3. the member the dataset's pages link to most (inlinks.ts),
 *   4. the shortest, then the first in code-point order.
 * A class with no member fetched with a 2xx (redirects whose targets were not crawled) is named by
 * its best member by the same order and reported as not fetched, never by a string no record has.
 */
import type { DustUrl } from './types';

export interface Representatives {
  /** Every URL → the member that names its class. */
  canonical: Map<string, string>;
  /**
   * Classes whose name is not their rule form: [rule form, name]. A crawler's regex list ends with
   * these (regex-export.ts), so one pass over it gives the same URL as the workbench.
   */
  renamed: [string, string][];
  /** Names of classes none of whose members the crawl fetched with a 2xx. */
  unfetched: Set<string>;
}

export function chooseRepresentatives(
  urls: readonly DustUrl[],
  ruleForm: ReadonlyMap<string, string>,
): Representatives {
  const classes = new Map<string, DustUrl[]>();
  for (const u of urls) {
    const k = ruleForm.get(u.url) ?? u.url;
    const list = classes.get(k);
    if (list) list.push(u);
    else classes.set(k, [u]);
  }
  const canonical = new Map<string, string>();
  const renamed: [string, string][] = [];
  const unfetched = new Set<string>();
  for (const [form, members] of classes) {
    const name = members.length === 1 ? members[0] : best(form, members);
    if (name.served === false) unfetched.add(name.url);
    if (name.url !== form) renamed.push([form, name.url]);
    for (const m of members) canonical.set(m.url, name.url);
  }
  return { canonical, renamed, unfetched };
}

function best(form: string, members: readonly DustUrl[]): DustUrl {
  const redirectsTo = new Map<string, number>();
  for (const m of members)
    if (m.redirect !== '') redirectsTo.set(m.redirect, (redirectsTo.get(m.redirect) ?? 0) + 1);
  const served = members.filter((m) => m.served !== false);
  const pool = served.length > 0 ? served : members;
  let top = pool[0];
  for (let i = 1; i < pool.length; i++) if (before(pool[i], top, form, redirectsTo)) top = pool[i];
  return top;
}

/** Whether a names the class before b (the order above). */
function before(a: DustUrl, b: DustUrl, form: string, redirectsTo: ReadonlyMap<string, number>): boolean {
  const ra = redirectsTo.get(a.url) ?? 0;
  const rb = redirectsTo.get(b.url) ?? 0;
  if (ra !== rb) return ra > rb;
  if ((a.url === form) !== (b.url === form)) return a.url === form;
  const la = a.inlinks ?? 0;
  const lb = b.inlinks ?? 0;
  if (la !== lb) return la > lb;
  if (a.url.length !== b.url.length) return a.url.length < b.url.length;
  return a.url < b.url;
}

/**
 * The classes named by a member other than their rules' form, as the profile carries them: rule form →
 * canonical URL (the fetched member representatives chose), one entry per such class. Applied after
 * the rules (profile.ts profileCanonizer), it gives another run on the same URLs the workbench's
 * canonical URL, not the rules' string.
 */
export function classNames(
  canonical: Iterable<readonly [string, string]>,
  ruleForm: ReadonlyMap<string, string>,
): [string, string][] {
  // Both maps may hold only the URLs they change (as stored runs do): a URL its class is named by has
  // no canonical entry, yet its rule form names the class.
  const named = new Map<string, string>();
  for (const [url, c] of canonical) named.set(url, c);
  const names = new Map<string, string>();
  for (const url of new Set([...named.keys(), ...ruleForm.keys()])) {
    const form = ruleForm.get(url) ?? url;
    const c = named.get(url) ?? url;
    if (c !== form) names.set(form, c);
  }
  return [...names].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
