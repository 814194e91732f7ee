/** Small builders shared by the DustBuster tests. */
import { minhashSignature } from '../../../src/core/signatures/minhash';
import { buildUrlList, tokenizeUrl } from '../../../src/core/dust/url-list';
import { likelySubstringRule } from '../../../src/core/dust/rules';
import {
  DUST_DEFAULTS,
  type DustParams,
  type DustRecord,
  type DustUrl,
  type SubstringRule,
} from '../../../src/core/dust/types';

export function params(over: Partial<DustParams> = {}): DustParams {
  return { ...DUST_DEFAULTS, ...over };
}

const sketches = new Map<number, Uint32Array>();

/** MinHash sketch of "document" doc: 40 features of its own, so different documents share none. */
export function sketchOf(doc: number): Uint32Array {
  let s = sketches.get(doc);
  if (!s) {
    const features = Uint32Array.from({ length: 40 }, (_, k) => doc * 1000 + k);
    sketches.set(doc, (s = minhashSignature(features, { permutations: 64 })));
  }
  return s;
}

/** A crawled page: status 200, one size, the sketch of its document. */
export function page(url: string, doc: number, size = 1000 + doc): DustRecord {
  return { url, status: 200, sizeMin: size, sizeMax: size, sketch: sketchOf(doc), digest: '' };
}

/** An access-log entry: a size range and no content. */
export function logged(url: string, sizeMin: number, sizeMax = sizeMin): DustRecord {
  return { url, status: 200, sizeMin, sizeMax };
}

export function urlsOf(records: DustRecord[]): DustUrl[] {
  return buildUrlList(records).urls;
}

/** A rule side from its spelling: "/index.html$" → ['/', 'index', '.', 'html', '$']. */
export function side(s: string): string[] {
  return tokenizeUrl(s).slice(1, -1);
}

/** A likely substring rule built by hand. */
export function substringRule(
  alpha: string,
  beta: string,
  support: number,
  over: Partial<SubstringRule> = {},
): SubstringRule {
  return likelySubstringRule('s.com', side(alpha), side(beta), {
    support,
    likelySimilarSupport: support,
    redundancySupport: support,
    ...over,
  });
}
