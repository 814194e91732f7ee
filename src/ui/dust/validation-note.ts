import type { PendingCause, Rule } from '../../core/dust';
import { fmtInt, plural } from '../format';

/** What the dataset offers validation when it has no page contents (access logs, crawl.log, URL lists). */
export interface UrlOnlyFacts {
  urls: number;
  /** URLs with a payload digest (crawl.log gives one per fetch): equal digests count as similar. */
  withDigest: number;
  /** URLs answered with 4xx/5xx: a rewritten URL that failed is a negative sample (Fig. 3 line 9). */
  withError: number;
  /** Whether a rewritten URL missing from the dataset counted against the rule. */
  missingIsNegative: boolean;
}

export interface ValidationSummary {
  valid: number;
  refuted: number;
  likely: number;
  /** Why the likely rules stayed likely, most frequent first: [cause, rules]. */
  likelyCauses: [string, number][];
}

/**
 * Groups the rules by status, and the likely ones by why validation left them so (Rule.pending, set by
 * core/dust/validation.ts: Fig. 4's refinements and compositions, Fig. 3's samples that judged nothing).
 */
export function summariseValidation(rules: readonly Rule[]): ValidationSummary {
  const causes = new Map<string, number>();
  let valid = 0;
  let refuted = 0;
  for (const r of rules) {
    if (r.status === 'valid') valid++;
    else if (r.status === 'refuted') refuted++;
    else {
      const c = PENDING[r.pending ?? 'not-validated'];
      causes.set(c, (causes.get(c) ?? 0) + 1);
    }
  }
  return {
    valid,
    refuted,
    likely: rules.length - valid - refuted,
    likelyCauses: [...causes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
  };
}

/** Each cause in the pane's words ("N rules stay likely: …"). */
const PENDING: Record<PendingCause | 'not-validated', string> = {
  'refines-valid': 'refine a valid rule, so they were not tried (Fig. 4)',
  'special-case': 'are special cases of a valid rule, so they were not tried (Fig. 4)',
  composition: 'only compose valid rules',
  'no-content': 'had no sample with a document or digest to compare',
  'target-missing': 'rewrite URLs into ones the dataset does not hold',
  'no-change': 'change no URL of the test list',
  unjudged: 'had no sample that could be judged',
  'not-validated': 'were not validated',
};

/**
 * The pane's words for a dataset without page contents, consistent with the statuses in the table: what
 * was detected from what, which rules could be validated and by what evidence, which stay likely and why.
 */
export function urlOnlyNote(s: ValidationSummary, f: UrlOnlyFacts): string[] {
  const total = s.valid + s.refuted + s.likely;
  if (total === 0)
    return [
      'This dataset has URLs but no page contents (an access log, crawl.log or URL list), and no rule was found in its URL list: no substitution has the minimum support (MS) among its URLs.',
    ];
  const lines = [
    `This dataset has URLs but no page contents (an access log, crawl.log or URL list): the ${plural(total, 'rule was', 'rules were')} detected from the URL list, ${total === 1 ? 'its' : 'their'} likely-similar support from size ranges.`,
  ];
  const evidence: string[] = [];
  if (f.withDigest > 0)
    evidence.push(`${fmtInt(f.withDigest)} of ${plural(f.urls, 'URL')} carry a content digest`);
  if (f.withError > 0) evidence.push(`${plural(f.withError, 'URL', 'URLs')} answered with an error status`);
  const judged = s.valid + s.refuted;
  if (judged === 0) {
    const none = total === 1 ? 'It could not be validated' : 'None could be validated';
    lines.push(
      evidence.length === 0
        ? `${none}: validation compares the two pages of a rule’s instances (§5.3), and here there is neither a document nor a digest to compare, so every rule stays likely.`
        : `${none} although ${evidence.join(' and ')}: no sampled instance had both sides to compare, so every rule stays likely.`,
    );
  } else {
    const how: string[] = [];
    if (s.valid > 0) how.push(`${s.valid} valid (their sampled URL pairs have the same digest)`);
    if (s.refuted > 0) {
      const why = [
        f.withError > 0 ? 'an error status' : '',
        f.withDigest > 0 ? 'a different digest' : '',
        f.missingIsNegative ? 'no entry in the dataset' : '',
      ].filter(Boolean);
      how.push(`${s.refuted} refuted (the rewritten URL had ${why.join(' or ') || 'a failed fetch'})`);
    }
    lines.push(
      `${judged === total ? (total === 1 ? 'It' : 'All') : 'Some'} could be validated without documents${evidence.length ? `, as ${evidence.join(' and ')}` : ''}: ${how.join(', ')}.`,
    );
  }
  if (s.likely > 0 && s.valid + s.refuted > 0) {
    const why = s.likelyCauses.map(([c, n]) => `${n} ${c}`).join('; ');
    lines.push(`${plural(s.likely, 'rule stays', 'rules stay')} likely: ${why}.`);
  }
  return lines;
}
