import { comparable } from '../candidates/comparable';
import { minhashSignature } from '../signatures/minhash';
import { shingleSet } from '../signatures/shingles';
import { normaliseUrl } from '../url/normalize';
import type { PageRecord } from '../types';
import type { DustRecord } from './types';

/** A 3xx response's Location header resolved against the page URL and normalised; '' when none. */
export function redirectTarget(page: PageRecord, headers: readonly [string, string][] = []): string {
  if (page.status < 300 || page.status >= 400) return '';
  const location = headers.find(([name]) => name.toLowerCase() === 'location')?.[1].trim();
  if (!location) return '';
  const n = normaliseUrl(location, page.url);
  return n.ok ? n.href : '';
}

/**
 * A page as DustBuster sees it: normalised URL, status, size range, content identity and — when the
 * page has text to compare — the MinHash sketch of its shingles (128 permutations, the engine's);
 * for a redirect, where it leads (the list gives the URL its target's document).
 */
export function dustRecordOf(
  page: PageRecord,
  text: string | undefined,
  headers?: readonly [string, string][],
): DustRecord {
  const t = comparable(page) ? text : '';
  const redirectTo = redirectTarget(page, headers);
  return {
    url: page.normUrl,
    status: page.status,
    recordType: page.recordType,
    sizeMin: page.sizeMin,
    sizeMax: page.sizeMax,
    digest: page.digest,
    fingerprint: page.fingerprint,
    sketch: t ? minhashSignature(shingleSet(t), { permutations: 128, seed: 1 }) : null,
    ...(redirectTo ? { redirectTo } : {}),
  };
}
