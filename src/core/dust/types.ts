/**
 * Domain types of DustBuster (Bar-Yossef, Keidar, Schonfeld, "Do not crawl in the DUST: different URLs
 * with similar text", WWW 2007). Plain data only: rules and metrics cross worker boundaries
 * (structured clone) and are printed by the CLI.
 */

/** What the URL list knows about a URL's document (§3: "(3) the size … (4) the document's sketch"). */
export interface DustContent {
  /** Smallest and largest size seen for the URL (§4: the interval I_u); -1 unknown. */
  sizeMin: number;
  sizeMax: number;
  /** MinHash signature of the document's shingles (signatures/minhash.ts); null when not fetched. */
  sketch: Uint32Array | null;
  /** Exact content identity (text fingerprint or payload digest); '' unknown. */
  digest: string;
}

/** One unique URL of the list, tokenised as §3 defines URLs. */
export interface DustUrl extends DustContent {
  /** The URL, WHATWG-normalised (url/normalize.ts) when it parses. */
  url: string;
  host: string;
  /**
   * §3: "Tokens are either alphanumeric strings or non-alphanumeric characters … every URL [starts]
   * with the special token ^ and [ends] with the special token $". The frames are tokens[0] and the
   * last token; a literal '^' or '$' inside the URL is a token of its own with the same spelling.
   */
  tokens: string[];
  /**
   * For a redirect (3xx) whose chain ends at a URL of the list: that URL. doc(u) is "the returned
   * document" (§3), and fetching u returns the target's, so u carries the target's content; '' else.
   */
  redirect: string;
  /**
   * The crawl fetched the URL itself with a 2xx (or the source states no status, as a URL list):
   * a URL a canonical URL may name. Absent: true. A redirect, even one whose document is known, is not.
   */
  served?: boolean;
  /** Links to the URL from the dataset's pages (one per linking page); absent: 0. */
  inlinks?: number;
}

/** A page-like input record: PageRecord (src/core/types.ts) fits, so do URL lists and log lines. */
export interface DustRecord {
  url: string;
  /** HTTP status; 0 when the source does not say. */
  status?: number;
  /** Ingest's record type; Heritrix crawl logs ('crawl-log line') use 0 for "never fetched". */
  recordType?: string;
  sizeMin?: number;
  sizeMax?: number;
  sketch?: Uint32Array | null;
  digest?: string;
  /** Fingerprint of the normalised text; preferred over the payload digest as content identity. */
  fingerprint?: string;
  /** A 3xx response's Location, resolved and normalised; the URL's document is the target's. */
  redirectTo?: string;
  /** Links to this URL from the dataset's other pages, one per linking page (dust/inlinks.ts). */
  inlinks?: number;
}

/** A page looked up for validation (Fig. 3 line 7, "fetch u and v"); status ≥ 400 is a failed fetch. */
export interface FetchResult extends DustContent {
  status?: number;
}

/** Fetches a URL's document; null when the dataset does not hold it (neither success nor failure). */
export type FetchFn = (url: string) => FetchResult | null;

export type RuleStatus = 'likely' | 'valid' | 'refuted';

/**
 * Why validation left a rule likely: it refines a valid rule or restates one (Fig. 4 lines 4–7), its
 * instances are a composition of valid rules, or Fig. 3 judged no sample: the rule changes no URL of
 * the test list, the list has no documents or digests, R(u) is never in the dataset, or the samples
 * it had could not decide either direction.
 */
export type PendingCause =
  | 'refines-valid'
  | 'special-case'
  | 'composition'
  | 'no-change'
  | 'no-content'
  | 'target-missing'
  | 'unjudged';

/**
 * Direction of a rule. Detection finds unordered pairs (§4: "|support_L(α → β)| = |support_L(β → α)|
 * … It therefore outputs the pair ⟨α, β⟩"); §5.3 decides the direction. 'undecided': alpha → beta is
 * the shrinking direction of a pair not yet validated; 'shrinking' / 'growing': the validated
 * direction, which is always alpha → beta; 'one-way': parameter rules, which have one direction only.
 */
export type RuleDirection = 'undecided' | 'shrinking' | 'growing' | 'one-way';

interface RuleBase {
  id: number;
  /** The site the rule belongs to (host or registrable domain, SiteMode; '' for the whole list). */
  site: string;
  /** Instances in the URL list: shared envelopes in buckets of size ≤ T_low (§5.1, Fig. 1). */
  support: number;
  /** Of those, instances whose two URLs are LikelySimilar (§4): the support Fig. 1 ranks by. */
  likelySimilarSupport: number;
  /** Likely-similar support with buckets of size ≤ T_high, the size Fig. 2 compares (§5.2). */
  redundancySupport: number;
  status: RuleStatus;
  direction: RuleDirection;
  /** Validation samples (Fig. 3) that were similar / not similar, in the direction last tried. */
  positives: number;
  negatives: number;
  /** A few instances from the URL list, likely-similar ones first. */
  instances: [string, string][];
  /**
   * The sampled instances (u, R(u)) validation found not similar (or R(u) failed), in the direction
   * last tried — the negatives a refuted or mixed rule is judged on. Absent when there were none.
   */
  negativeSamples?: [string, string][];
  /** Id of the valid rule this one refines (dropped by Fig. 4 lines 4–7), else null. */
  refinesValid: number | null;
  /**
   * The valid rules that already merge every instance of this one (composition.ts composedOf): one id,
   * a special case, folded under that rule; several, a composition. Absent when not so.
   */
  coveredBy?: number[];
  /** Why the rule has its status, in words. */
  reason: string;
  /** Why a likely rule stayed likely (validation.ts), as a kind the UI words; absent when not judged so. */
  pending?: PendingCause;
  /**
   * Special cases folded under this valid rule: rules whose every instance it merges on its own
   * (?sessionid=4015$ → $ under "drop sessionid", one date's permalink rule under the wildcard one).
   * Their spellings, a few; absent when none.
   */
  absorbs?: { count: number; spellings: string[] };
  /**
   * Where the rule is applied (scope.ts): the sections (an origin as the site's origin rules lead it,
   * and a first path directory) whose URLs it was seen to merge with a fetched page of the same text.
   * Absent: everywhere on its site — every section where it rewrites a URL of the crawl showed it.
   */
  scope?: RuleScope;
  /**
   * A rule refuted across its site but valid, judged on its own, in these sections (validation.ts
   * validateBySection; section keys as sectionKey gives them): applied there only, whatever else it
   * rewrites. Absent for a rule judged on its whole site.
   */
  validIn?: string[];
  /**
   * On a designed sample, a rule validation left likely: what the sample holds of its instances
   * (dust/partners.ts). Absent elsewhere.
   */
  sample?: SampleCoverage;
}

/** The sections a valid rule holds in, and how many of the sections where it rewrites a URL. */
export interface RuleScope {
  /** Section keys (scope.ts sectionKey): 'http://s/docs/', 'http://s/' for files at the root. */
  sections: string[];
  /** Sections where the rule rewrites a URL of the crawl. */
  applicable: number;
  /** Instances seen (a URL and its rewrite both fetched, similar), over all sections. */
  instances: number;
  /**
   * The rule rewrites its own rewrites for most URLs ($ → .php$: x.php → x.php.php): it is applied to
   * these URLs only, the ones it was seen to hold on, by name (the crawler file lists each).
   */
  urls?: string[];
  /**
   * Validation's own reading (validation.ts, never exported): the origins where the rule has
   * instances; while later rules are judged, it rewrites there only.
   */
  origins?: string[];
}

/** A rule's instances on a sample (dust/partners.ts): what validation could judge it on. */
export interface SampleCoverage {
  /** Instances in the crawl's URL list (the index's), as validation draws them. */
  instances: number;
  /** Of those, instances whose two URLs the sample holds. */
  inSample: number;
  /** Instances whose two URLs were in hand for validation: the sample's and the partners read. */
  inHand: number;
}

/**
 * The carried token of a rule from pairs (pair-rules.ts): in α it matches any one alphanumeric token,
 * which β repeats where it has GAP. No URL token is spelled so (a token is one alphanumeric run or one
 * other character). GAP is one of the wildcards of wildcards.ts: {x} any alphanumeric token; {n},
 * {y}, {m}, {d} a run of digits (named for reading: year, month, day); {s} a slug (words joined by
 * '-'); a digit suffix ({n2}) tells two wildcards of one kind apart.
 */
export const GAP = '{x}';

/** Substring substitution α → β (Definition 3.1) over tokens; ^ and $ are the frames. */
export interface SubstringRule extends RuleBase {
  kind: 'substring';
  alpha: string[];
  beta: string[];
  /**
   * Where the rule came from: Fig. 1's envelopes over the URL list (the paper); pairs of URLs with
   * the same content (pair-rules.ts, not in the paper; may hold wildcards); 'merged': likely rules of
   * Figs. 1–2 that differ only where a wildcard stands, merged into one (wildcards.ts); 'transfer': a
   * rule valid on another site, validated again on this one (transfer.ts). Absent: envelopes.
   */
  origin?: 'envelopes' | 'pairs' | 'merged' | 'transfer';
}

/** Parameter substitution: drop the parameter (§1: "replaces the value of a parameter … by some default"). */
export interface ParamDropRule extends RuleBase {
  kind: 'param-drop';
  param: string;
}

/** Parameter substitution: set the parameter to a default value. */
export interface ParamDefaultRule extends RuleBase {
  kind: 'param-default';
  param: string;
  value: string;
}

/**
 * Path parameter removal: drop every ';name=value' of the path (Java's ;jsessionid=, ;sid=, …). Not
 * in the paper, whose parameters are the query's (§1); the same syntax argument holds for RFC 3986's
 * path parameters.
 */
export interface PathParamDropRule extends RuleBase {
  kind: 'path-param-drop';
  param: string;
}

export type Rule = SubstringRule | ParamDropRule | ParamDefaultRule | PathParamDropRule;

/**
 * What makes a site: its host (name and port), its registrable domain (sub-domains and ports together:
 * the paper's forum site "supports multiple domain names" and its news site "several sub-domains",
 * §6; url/site.ts), or the whole list as one site.
 */
export type SiteMode = 'host' | 'domain' | 'list';

export interface DustParams {
  /** §6: "The maximum substring length, S, was set to 35 tokens." */
  S: number;
  /** §6: "The maximum bucket size used for detecting dust rules, T_low, was set to 6". */
  Tlow: number;
  /** §6: "the maximum bucket size used for eliminating redundant rules, T_high, was set to 11". */
  Thigh: number;
  /** §6: "The value of MS, the minimum support size, was set to 3." */
  MS: number;
  /** §6: "we allowed a relative deficiency, MRD, of up to 5%". */
  MRD: number;
  /** §6: "and an absolute deficiency, MAD, of 1". */
  MAD: number;
  /** §6: "The maximum window size, MW, was set to 1100 rules." */
  MW: number;
  /** §6: "The algorithm uses a validation count, N, of 100". */
  N: number;
  /** §6: "and a refutation threshold, ε, of 5%-10%" (10% in the news-site runs of Table 4). */
  epsilon: number;
  /** §6: "the canonization uses a maximum of 10 iterations". */
  maxIterations: number;
  /** Not in the paper: estimated Jaccard at which two sketches are LikelySimilar (lecture: > 80%). */
  likelySimilarJaccard: number;
  /** Not in the paper: resemblance at which validation calls u and R(u) similar (§3: shingling, [7]). */
  dustJaccard: number;
  /** Not in the paper (it used separate logs, §6): share of URLs held out as Fig. 4's test list L. */
  validationShare: number;
  /**
   * Not in the paper: lists with fewer unique URLs are not split — detection and validation both read
   * the whole list. Halving a small list leaves a quarter of its instances (both URLs must fall on
   * the detection side) and starves rules of support; §1: rules are found "from moderate sized URL
   * lists, with as little as 20,000 entries". Validation still samples every URL a rule applies to,
   * not only the likely-similar instances detection counted.
   */
  splitMinUrls: number;
  /** Seed of the detection/validation split and of validation sampling. */
  seed: number;
  /** Rules are per site (§1: "we focus on mining dust rules within a given web site"). */
  site: SiteMode;
  /** Fig. 3 line 9 counts a failed fetch of v as negative; a URL missing from a dataset is skipped unless set. */
  missingIsNegative: boolean;
  /** Detect parameter substitution rules (§5, third phase) besides substring rules. */
  paramRules: boolean;
  /**
   * Not in the paper: also derive rules from pairs of URLs whose documents are identical (pair-rules.ts)
   * — rules whose envelopes overflow every bucket (dir/index.html ↔ dir/ in a large directory) and
   * two-place rules carrying one token (/archive/2024/N/ ↔ /story_N).
   */
  pairRules: boolean;
  /** Groups of identical documents larger than this give no pairs (pairs grow as its square). */
  pairGroupMax: number;
  /**
   * Not in the paper: the steps this tool adds after Fig. 1–2 — path parameters, rules with wildcards
   * merging likely rules, rules carried to other sites, the origin wildcard {o}, valid rules the
   * others make redundant folded. Off (with pairRules off): DustBuster as the paper describes it
   * (PAPER_SETTING), one click away in the workbench.
   */
  extensions: boolean;
  /** Instances kept per rule for display. */
  instanceSample: number;
  /**
   * Not in the paper: a valid rule is applied only in the sections of its site where it was seen to
   * hold (scope.ts), and a class of URLs is named by a URL the crawl fetched (representatives.ts).
   * Off: every valid rule rewrites wherever its α matches on its site (the analyst asks for it).
   */
  scoped: boolean;
  /**
   * Not in the paper: share of a section's URLs a rule rewrites that must land on a fetched page of
   * similar text for the rule to be applied in that section (scope.ts); 0: one such URL is enough.
   * 0 (one): chosen on generated worlds 41–48, 5002, 5006, 7102, 7103. Half left the rules alone
   * sending fewer URLs to unfetched ones (0% against 1–16% in three of five worlds) but lost merges
   * wherever an alias is crawled for under half its pages (5 of 8 worlds of the folding test): the
   * crawler file's last part (representatives.ts) sends those URLs to fetched ones either way.
   */
  scopeLanding: number;
}

export const DUST_DEFAULTS: Readonly<DustParams> = {
  S: 35,
  Tlow: 6,
  Thigh: 11,
  MS: 3,
  MRD: 0.05,
  MAD: 1,
  MW: 1100,
  N: 100,
  epsilon: 0.05,
  maxIterations: 10,
  likelySimilarJaccard: 0.8,
  dustJaccard: 0.8,
  validationShare: 0.5,
  splitMinUrls: 20_000,
  seed: 1,
  site: 'domain',
  missingIsNegative: false,
  paramRules: true,
  pairRules: true,
  pairGroupMax: 50,
  extensions: true,
  instanceSample: 5,
  scoped: true,
  scopeLanding: 0,
};

/** The paper's DustBuster: its defaults (§6) and none of the steps this tool adds. */
export const PAPER_SETTING: Readonly<DustParams> = {
  ...DUST_DEFAULTS,
  pairRules: false,
  extensions: false,
  scoped: false,
};

/** Phases reported to onPhase, in order (§5: detect, eliminate redundancy, parameters, validate). */
export type DustPhase =
  'url-list' | 'detect' | 'redundancy' | 'params' | 'pairs' | 'validate' | 'canonize' | 'metrics' | 'done';
