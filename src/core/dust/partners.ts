/**
 * DUST on a designed sample (issue 45): rules are mined on every URL of the crawl's index, but a rule is
 * validated only on instances whose two URLs the analyst has (§5.3, Fig. 3: "fetch u and v := R(u)").
 * A design draws whole sites and directories, so the two URLs of an instance are seldom both drawn
 * (`/story?id=N` and `/story_N` sit in two directories). Here: each likely rule's instances as
 * validation draws them, how many the sample holds both URLs of, and the partners — the other URL of
 * an instance one URL of which is in the sample — to read by byte range, at most N per rule (the
 * paper's validation count, §6) and an overall cap, spread over the rules in rank order.
 */
import { hash32, mix32 } from '../hash';
import { seededRandom } from '../random';
import { normaliseUrl } from '../url/normalize';
import { applyRule, reversed, ruleSides, UrlIndex } from './rules';
import { groupBySite } from './url-list';
import { splitUrls } from './validation';
import type { DustParams, DustUrl, Rule, SampleCoverage } from './types';

/** Bounds of the partner read. */
export interface PartnerCaps {
  /** Instances a rule is given partners for (its instances in the sample count): the paper's N. */
  perRule: number;
  /** Partner records read in all, and their bytes as the index states them. */
  records: number;
  bytes: number;
}

/**
 * The overall cap: about what the sample itself costs at its usual sizes (a 20,000-page sample of the
 * bench's crawl reads 330 MB), chosen on docsite and the generated crawl (README "DUST on a sample").
 */
export const PARTNER_CAPS: Readonly<Omit<PartnerCaps, 'perRule'>> = { records: 5_000, bytes: 256e6 };

/**
 * A rule's instances as validation draws them (validation.ts validateRule): u from the rule's site in
 * the test list (the list's held-out part when it is split, as runDustBuster splits it), v = R(u) a URL
 * of the crawl's list, in either direction of a substring rule; each unordered pair once.
 */
export class SampleInstances {
  private readonly sites: Map<string, DustUrl[]>;
  private readonly indexes = new Map<string, UrlIndex>();
  /** Every URL of the list (normalised) → its entry. */
  readonly byUrl: Map<string, DustUrl>;

  constructor(urls: readonly DustUrl[], params: DustParams) {
    // As runDustBuster splits the list (index.ts): a list shorter than splitMinUrls is not split.
    const share = urls.length < params.splitMinUrls ? 0 : params.validationShare;
    const { validation } = splitUrls(urls, share, params.seed);
    this.sites = groupBySite(validation, params.site);
    this.byUrl = new Map(urls.map((u) => [u.url, u]));
  }

  /** Pairs by rule (both directions: a rule and its reverse have the same instances). */
  private readonly cache = new Map<string, [string, string][]>();

  /** The distinct instances {u, R(u)} of `rule`, each as [u, v] in the direction found first. */
  pairs(rule: Rule): [string, string][] {
    const sides = ruleSides(rule);
    const key = [rule.site, rule.kind, ...[sides.alpha, sides.beta].sort()].join('\n');
    let pairs = this.cache.get(key);
    if (!pairs) this.cache.set(key, (pairs = this.find(rule)));
    return pairs;
  }

  private find(rule: Rule): [string, string][] {
    let L = this.indexes.get(rule.site);
    if (!L) this.indexes.set(rule.site, (L = new UrlIndex(this.sites.get(rule.site) ?? [])));
    const out: [string, string][] = [];
    const seen = new Set<string>();
    for (const r of rule.kind === 'substring' ? [rule, reversed(rule)] : [rule]) {
      for (const c of L.candidates(r)) {
        const u = L.urls[c];
        const v = applyRule(r, u.url, u.tokens);
        if (v === null) continue;
        // As validation fetches R(u): as spelled, else normalised (datasetFetch); never u itself.
        let w = this.byUrl.get(v);
        if (!w) {
          const n = normaliseUrl(v).href;
          if (n === u.url) continue;
          w = this.byUrl.get(n);
        }
        if (!w || w.url === u.url) continue;
        const key = u.url < w.url ? `${u.url}\n${w.url}` : `${w.url}\n${u.url}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push([u.url, w.url]);
      }
    }
    return out;
  }
}

/** The partners chosen to read, and how the caps were met. */
export interface PartnerChoice {
  /** URLs to read (normalised), in the order they were given out. */
  urls: string[];
  /** Their bytes as the index states them (unknown sizes count 0). */
  bytes: number;
  /** Rules given at least one partner. */
  rules: number;
  /** Partners the rules asked for (each rule up to its share of N) before the overall cap. */
  wanted: number;
  /** Whether the overall cap left some out. */
  capped: boolean;
}

/**
 * Partners for `rules` (the likely rules, in rank order): for each, the instances with exactly one URL
 * in hand, in a seeded random order, up to N minus the instances already whole; then given out a round
 * at a time (every rule its first, then its second, …) until the caps are met, so a cap spreads the
 * reads over the rules instead of spending them on the first ones. A URL two rules need is read once.
 */
export function choosePartners(
  rules: readonly Rule[],
  instances: SampleInstances,
  inHand: (url: string) => boolean,
  caps: PartnerCaps,
  seed: number,
): PartnerChoice {
  const lists: string[][] = [];
  let wanted = 0;
  for (const rule of rules) {
    let whole = 0;
    const open: string[] = [];
    const mine = new Set<string>();
    for (const [u, v] of instances.pairs(rule)) {
      const a = inHand(u);
      const b = inHand(v);
      if (a && b) whole++;
      else if (a !== b) {
        const other = a ? v : u;
        if (!mine.has(other)) {
          mine.add(other);
          open.push(other);
        }
      }
    }
    const random = seededRandom(mix32(seed ^ hash32(`${rule.site} ${rule.id}`)));
    for (let i = open.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [open[i], open[j]] = [open[j], open[i]];
    }
    const list = open.slice(0, Math.max(0, caps.perRule - whole));
    wanted += list.length;
    lists.push(list);
  }
  const chosen = new Set<string>();
  const given = new Set<number>();
  let bytes = 0;
  let capped = false;
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) {
    lists.forEach((list, k) => {
      if (i >= list.length) return;
      const url = list[i];
      if (chosen.has(url)) {
        given.add(k);
        return;
      }
      const size = Math.max(0, instances.byUrl.get(url)?.sizeMax ?? 0);
      if (chosen.size >= caps.records || bytes + size > caps.bytes) {
        capped = true;
        return;
      }
      chosen.add(url);
      given.add(k);
      bytes += size;
    });
  }
  return { urls: [...chosen], bytes, rules: given.size, wanted, capped };
}

/**
 * Rule.sample for each likely rule: its instances in the crawl's list, those whose two URLs the sample
 * holds, and those whose two URLs were in hand for validation (the sample's and the partners read).
 */
export function sampleCoverage(
  rule: Rule,
  instances: SampleInstances,
  inSample: (url: string) => boolean,
  inHand: (url: string) => boolean,
): SampleCoverage {
  let both = 0;
  let hand = 0;
  const pairs = instances.pairs(rule);
  for (const [u, v] of pairs) {
    if (inSample(u) && inSample(v)) both++;
    if (inHand(u) && inHand(v)) hand++;
  }
  return { instances: pairs.length, inSample: both, inHand: hand };
}
