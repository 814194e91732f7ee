import type { EnginePage } from './analyse-pages';

/**
 * Pages that take part in signatures: a text to compare, a successful (or unknown) status, and not a
 * revisit record (the page it revisits stands for it).
 */
export function comparable(p: { textLength: number; recordType: string; status: number }): boolean {
  return (
    p.textLength > 0 && p.recordType !== 'revisit' && (p.status === 0 || (p.status >= 200 && p.status < 300))
  );
}

/**
 * A page as the engine reads it, when it takes part in signatures (comparable, and its text was read);
 * else null. The one check before `engine.add` / `analysePages`.
 */
export function enginePage(
  page: {
    textLength: number;
    recordType: string;
    status: number;
    normUrl: string;
    fingerprint: string;
    fetchedAt?: string;
  },
  content:
    { text: string; outlinks: readonly string[]; templateHints?: readonly number[] } | null | undefined,
): EnginePage | null {
  if (!comparable(page) || !content?.text) return null;
  return {
    text: content.text,
    normUrl: page.normUrl,
    fetchedAt: page.fetchedAt ?? '',
    outlinks: content.outlinks,
    fingerprint: page.fingerprint,
    templateHints: content.templateHints,
  };
}
