/**
 * The measures of §3 ("Metrics") and §6: precision of the likely rules, discovered redundancy and
 * coverage, plus the rule counts of Table 2 (detected → after redundancy elimination) and Table 3
 * (valid rules).
 */
import { combine32, mix32 } from '../hash';
import type { DustUrl, Rule } from './types';

/**
 * A rule counts as valid for precision when validation found it valid in at least one direction
 * (§6: "which percentage of them are later deemed valid … in at least one direction"), or when it
 * was skipped as a refinement of a valid rule: every instance of a refinement is an instance of the
 * broader rule (Definition 5.2), so it is valid too.
 */
function deemedValid(r: Rule): boolean {
  return r.status === 'valid' || r.refinesValid !== null;
}

/** §6, Fig. 5: precision@k of a list ordered by likeliness. k is capped at the list's length; 0 when empty. */
export function precisionAtK(ranked: readonly Rule[], k: number): number {
  const top = Math.min(k, ranked.length);
  if (top === 0) return 0;
  let good = 0;
  for (let i = 0; i < top; i++) if (deemedValid(ranked[i])) good++;
  return good / top;
}

/** precision@k for k = 1 … |ranked| (the curves of Fig. 5). */
export function precisionCurve(ranked: readonly Rule[]): number[] {
  const out: number[] = [];
  let good = 0;
  ranked.forEach((r, i) => {
    if (deemedValid(r)) good++;
    out.push(good / (i + 1));
  });
  return out;
}

export interface Redundancy {
  /** U_b and U_a: unique URLs before and after canonization. */
  before: number;
  after: number;
  /** §6: "The discovered redundancy is then given by (U_b − U_a) / U_b"; 0 for an empty list. */
  value: number;
}

export function discoveredRedundancy(
  urls: Iterable<string>,
  canonical: ReadonlyMap<string, string>,
): Redundancy {
  const before = new Set(urls);
  const after = new Set<string>();
  for (const u of before) after.add(canonical.get(u) ?? u);
  const value = before.size === 0 ? 0 : (before.size - after.size) / before.size;
  return { before: before.size, after: after.size, value };
}

export interface Coverage {
  /** Duplicate URLs before and after canonization. */
  before: number;
  after: number;
  /** (before − after) / before; null when the list has no duplicates (or no content to tell). */
  value: number | null;
}

/** A document's identity for coverage: its sketch when there is one, else its content digest. */
function documentKey(u: DustUrl): string {
  if (u.sketch) {
    // Two independent 32-bit lanes: 64 bits keep 100k distinct sketches apart (collision ≈ 3·10⁻¹⁰).
    let a = 0x1b873593;
    let b = 0x5bd1e995 ^ u.sketch.length;
    for (let i = 0; i < u.sketch.length; i++) {
      a = combine32(a, u.sketch[i]);
      b = combine32(b, u.sketch[i] ^ 0x9e3779b9);
    }
    return `sketch:${mix32(a)}:${mix32(b ^ a)}`;
  }
  return u.digest;
}

/**
 * §3: "The number of duplicate URLs in a given URL list is defined as the difference between the
 * number of unique URLs and the number of unique document sketches … We count the number of
 * duplicate URLs in the list before and after canonization, and the difference between them
 * divided by the former is the coverage." After canonization a document's duplicates are its
 * distinct canonical URLs minus one, so merging two different documents never counts as coverage.
 * URLs without sketch or digest are left out.
 */
export function coverage(urls: readonly DustUrl[], canonical: ReadonlyMap<string, string>): Coverage {
  const byDocument = new Map<string, { urls: Set<string>; canon: Set<string> }>();
  for (const u of urls) {
    const key = documentKey(u);
    if (key === '') continue;
    let d = byDocument.get(key);
    if (!d) byDocument.set(key, (d = { urls: new Set(), canon: new Set() }));
    d.urls.add(u.url);
    d.canon.add(canonical.get(u.url) ?? u.url);
  }
  let before = 0;
  let after = 0;
  for (const d of byDocument.values()) {
    before += d.urls.size - 1;
    after += d.canon.size - 1;
  }
  return { before, after, value: before === 0 ? null : (before - after) / before };
}

export interface DustMetrics {
  /** Table 2: likely rules from Fig. 1 (T_low, support ≥ MS), and after Fig. 2. */
  detected: number;
  afterRedundancy: number;
  paramRules: number;
  /** Rules from pairs of identical documents (pair-rules.ts, not in the paper). */
  pairRules: number;
  /** Rules with wildcards merging likely rules of Figs. 1–2 (pair-rules.ts mergeLikelyRules). */
  mergedRules: number;
  /** Valid rules of one site found valid on another too (transfer.ts). */
  transferred: number;
  /** Special cases folded under a valid rule and not listed (redundancy.ts foldSpecialCases). */
  folded: number;
  /** Candidates whose instances several valid rules merge together, not listed (foldSpecialCases). */
  compositions: number;
  /**
   * Table 3: rules found valid; refuted; left likely (undecided, or refinements of valid rules) — of
   * the rules listed (runDustBuster counts them after folding, so the headline equals the table).
   */
  valid: number;
  refuted: number;
  likely: number;
  /** The same over every rule validation judged, folded ones included (§6 judges the ranked list). */
  judged?: { valid: number; refuted: number; likely: number };
  /** Validation fetches avoided by dropping refinements of valid rules (Fig. 4 lines 4–7). */
  refinementsSkipped: number;
  /**
   * Fig. 5: precision@k of the substring rules after redundancy elimination, k = 1 … n; empty when no
   * rule could be judged (validation needs documents).
   */
  precision: number[];
  redundancy: Redundancy;
  coverage: Coverage;
  /** URLs whose canonization hit the iteration cap. */
  cycles: number;
}

export function dustMetrics(
  counts: { detected: number; afterRedundancy: number },
  rules: readonly Rule[],
  urls: readonly DustUrl[],
  canonical: ReadonlyMap<string, string>,
  cycles: number,
): DustMetrics {
  const substring = rules.filter((r) => r.kind === 'substring');
  // Fig. 5 measures what Figs. 1–2 predict from the URL list alone: rules from pairs read the
  // documents, merged and transferred rules are not the paper's.
  const fromList = substring.filter((r) => r.origin === undefined || r.origin === 'envelopes');
  return {
    detected: counts.detected,
    afterRedundancy: counts.afterRedundancy,
    paramRules: rules.length - substring.length,
    pairRules: substring.filter((r) => r.origin === 'pairs').length,
    mergedRules: substring.filter((r) => r.origin === 'merged').length,
    transferred: substring.filter((r) => r.origin === 'transfer').length,
    folded: 0,
    compositions: 0,
    valid: rules.filter((r) => r.status === 'valid').length,
    refuted: rules.filter((r) => r.status === 'refuted').length,
    likely: rules.filter((r) => r.status === 'likely').length,
    refinementsSkipped: rules.filter((r) => r.refinesValid !== null).length,
    // Without any rule judged (a URL list without documents) precision@k is unknown, not 0.
    precision: fromList.some((r) => r.status !== 'likely' || r.refinesValid !== null)
      ? precisionCurve(fromList)
      : [],
    redundancy: discoveredRedundancy(
      urls.map((u) => u.url),
      canonical,
    ),
    coverage: coverage(urls, canonical),
    cycles,
  };
}
