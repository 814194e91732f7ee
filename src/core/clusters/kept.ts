/**
 * One decision per cluster: the copy kept, why, and the cluster's name. The workbench's exports, the
 * CLI, and the batch's SQL (sql/dedup.sql `ranked`/`kept`, the ORDER BY and reason built by
 * keepOrderSql/keepReasonSql) apply the same ordered policy, stored in the profile (`keep`):
 *
 * - `canonical`: the member whose URL is its own DUST canonical URL (a URL the site serves, #45);
 * - `original`: the member the most other members lead to (their canonical URL is its URL: the mirror
 *   and the alias lead to the original, by the site's redirects, the rules' direction and its links,
 *   which chose the canonical URL);
 * - `ok`: a 2xx capture;
 * - `longest-text`: the longest extracted text (the copy that holds the most);
 * - `earliest`: the earliest capture (an unknown time last).
 *
 * Ties after the policy: the shortest URL (in code points), the URL (code point order, the byte order
 * of UTF-8, as both SQL engines compare), the capture time. The reason of a decision is the first key
 * of the policy on which the kept copy beats the runner-up (`kept: canonical URL`), or `kept: first by
 * URL` when none does.
 *
 * A cluster is named by its kept copy's capture key (captureKey: its URL and capture time hashed), so
 * the name is the same in every run, on every machine and in every engine, whatever the page numbers.
 */
import { hash64 } from '../hash';

export const KEEP_KEYS = ['canonical', 'original', 'ok', 'longest-text', 'earliest'] as const;
export type KeepKey = (typeof KEEP_KEYS)[number];
/** The default policy: every key, in KEEP_KEYS's order. */
export const DEFAULT_KEEP: readonly KeepKey[] = KEEP_KEYS;

/** What each key says in a decision's reason (`kept: …`), and when no key decides. */
export const KEEP_REASONS: Record<KeepKey | 'tie', string> = {
  canonical: 'canonical URL',
  original: 'original',
  ok: '2xx capture',
  'longest-text': 'longest text',
  earliest: 'earliest capture',
  tie: 'first by URL',
};

/** One line per key for the policy editor and --help. */
export const KEEP_HELP: Record<KeepKey, string> = {
  canonical: 'the member whose URL is its own DUST canonical URL',
  original: 'the member most other members lead to (their canonical URL is its URL)',
  ok: 'a 2xx capture',
  'longest-text': 'the longest extracted text',
  earliest: 'the earliest capture',
};

export interface Capture {
  /** The page's number in its dataset (the batch's page id): reported, never a tie-break. */
  id: number;
  url: string;
  status: number;
  /** ISO 8601; '' unknown. */
  fetchedAt: string;
  /** The URL is its own DUST canonical form (true for every page when no rules were mined). */
  isCanonical: boolean;
  /** The DUST canonical URL (the normalised URL itself when no rules were mined, as in the batch). */
  canonicalUrl: string;
  /** Length of the extracted text (UTF-16 code units, as PageRecord.textLength). */
  textLength: number;
}

/** A capture's stable key: its URL and capture time hashed, 16 hex digits. */
export function captureKey(url: string, fetchedAt: string): string {
  const [hi, lo] = hash64(`${url}\t${fetchedAt}`);
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** Whether a policy is a list of distinct known keys. */
export function parseKeepPolicy(v: unknown, where: string): KeepKey[] {
  if (!Array.isArray(v)) throw new Error(`${where}: expected a list of ${KEEP_KEYS.join(', ')}`);
  const out: KeepKey[] = [];
  for (const k of v) {
    if (!(KEEP_KEYS as readonly string[]).includes(k))
      throw new Error(`${where}: unknown key ${JSON.stringify(k)} (known: ${KEEP_KEYS.join(', ')})`);
    if (out.includes(k)) throw new Error(`${where}: ${k} is listed twice`);
    out.push(k as KeepKey);
  }
  return out;
}

interface Ranked {
  c: Capture;
  leads: number;
}

/** Negative when a is kept before b under the key. */
function byKey(k: KeepKey, a: Ranked, b: Ranked): number {
  switch (k) {
    case 'canonical':
      return Number(b.c.isCanonical) - Number(a.c.isCanonical);
    case 'original':
      return b.leads - a.leads;
    case 'ok':
      return Number(!is2xx(a.c.status)) - Number(!is2xx(b.c.status));
    case 'longest-text':
      return b.c.textLength - a.c.textLength;
    case 'earliest':
      return (
        Number(a.c.fetchedAt === '') - Number(b.c.fetchedAt === '') ||
        byCodePoint(a.c.fetchedAt, b.c.fetchedAt)
      );
  }
}

const is2xx = (s: number) => s >= 200 && s <= 299;

function ties(a: Capture, b: Capture): number {
  return (
    codePoints(a.url) - codePoints(b.url) ||
    byCodePoint(a.url, b.url) ||
    byCodePoint(a.fetchedAt, b.fetchedAt)
  );
}

export interface Decision {
  /** The member kept (an element of the members given). */
  kept: number;
  /** The cluster's name: the kept copy's capture key. */
  cluster: string;
  /** `kept: canonical URL`, … (KEEP_REASONS). */
  reason: string;
  /** The key that decided, or 'tie'. */
  by: KeepKey | 'tie';
}

/**
 * The decision for one cluster (members non-empty): the first member by the policy, then the ties.
 * `leads` of a member counts the other members whose canonical URL is its canonical URL, when its URL
 * is its own canonical form.
 */
export function decide(
  members: readonly number[],
  capture: (i: number) => Capture,
  policy: readonly KeepKey[] = DEFAULT_KEEP,
): Decision {
  const caps = members.map(capture);
  const byCanonical = new Map<string, number>();
  for (const c of caps)
    if (c.canonicalUrl) byCanonical.set(c.canonicalUrl, (byCanonical.get(c.canonicalUrl) ?? 0) + 1);
  const ranked: Ranked[] = caps.map((c) => ({
    c,
    leads: c.isCanonical && c.canonicalUrl ? (byCanonical.get(c.canonicalUrl) ?? 1) - 1 : 0,
  }));
  const cmp = (a: Ranked, b: Ranked) => {
    for (const k of policy) {
      const d = byKey(k, a, b);
      if (d !== 0) return d;
    }
    return ties(a.c, b.c);
  };
  let best = 0;
  for (let i = 1; i < ranked.length; i++) if (cmp(ranked[i], ranked[best]) < 0) best = i;
  let second = -1;
  for (let i = 0; i < ranked.length; i++)
    if (i !== best && (second < 0 || cmp(ranked[i], ranked[second]) < 0)) second = i;
  let by: KeepKey | 'tie' = 'tie';
  if (second >= 0)
    for (const k of policy)
      if (byKey(k, ranked[best], ranked[second]) !== 0) {
        by = k;
        break;
      }
  const kept = ranked[best].c;
  return {
    kept: members[best],
    cluster: captureKey(kept.url, kept.fetchedAt),
    reason: `kept: ${KEEP_REASONS[by]}`,
    by,
  };
}

/** The member kept under the default policy (members non-empty). */
export function keptOf(members: readonly number[], capture: (i: number) => Capture): number {
  return decide(members, capture).kept;
}

/**
 * The SQL ORDER BY of a policy, over a row `p` of sql/dedup.sql's `base` (kept):
 * the same order as decide(), ties included.
 */
export function keepOrderSql(policy: readonly KeepKey[]): string {
  const terms: Record<KeepKey, string> = {
    canonical: 'p.is_canonical DESC',
    original: 'p.leads DESC',
    ok: 'p.ok',
    'longest-text': 'p.text_length DESC',
    earliest: 'p.unknown_time, p.fetched_at',
  };
  return [...policy.map((k) => terms[k]), 'LENGTH(p.url)', 'p.url', 'p.fetched_at', 'p.page'].join(', ');
}

/** The SQL CASE naming a decision's reason: k the kept row, r the runner-up (NULL when alone). */
export function keepReasonSql(policy: readonly KeepKey[]): string {
  const differs: Record<KeepKey, string> = {
    canonical: 'k.is_canonical <> r.is_canonical',
    original: 'k.leads <> r.leads',
    ok: 'k.ok <> r.ok',
    'longest-text': 'k.text_length <> r.text_length',
    earliest: 'k.unknown_time <> r.unknown_time OR k.fetched_at <> r.fetched_at',
  };
  const whens = policy.map((k) => `WHEN ${differs[k]} THEN 'kept: ${KEEP_REASONS[k]}'`).join(' ');
  return `CASE WHEN r.page IS NULL THEN 'kept: ${KEEP_REASONS.tie}' ${whens} ELSE 'kept: ${KEEP_REASONS.tie}' END`;
}

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) n++;
    else {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      n++;
    }
  }
  return n;
}

/** Code point order (UTF-16 order differs only where a surrogate pair meets U+E000–U+FFFF). */
function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
