import { comparable } from '../candidates/comparable';
import { minhashSignature } from '../signatures/minhash';
import { shingleSet } from '../signatures/shingles';
import type { PageRecord } from '../types';
import type { DustRecord } from './types';

/**
 * A page as DustBuster sees it: normalised URL, status, size range, content identity and — when the
 * page has text to compare — the MinHash sketch of its shingles (128 permutations, the engine's).
 */
export function dustRecordOf(page: PageRecord, text: string | undefined): DustRecord {
  const t = comparable(page) ? text : '';
  return {
    url: page.normUrl,
    status: page.status,
    recordType: page.recordType,
    sizeMin: page.sizeMin,
    sizeMax: page.sizeMax,
    digest: page.digest,
    fingerprint: page.fingerprint,
    sketch: t ? minhashSignature(shingleSet(t), { permutations: 128, seed: 1 }) : null,
  };
}
