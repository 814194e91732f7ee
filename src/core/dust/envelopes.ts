/**
 * Envelopes and buckets (§4, Fig. 1 lines 5–13). "Consider a substring α of a URL u = pαs. We call
 * the pair (p, s) the envelope of α in u" — p and s are the whole prefix and suffix, frames included:
 * the envelope of "index" in http://www.site.com/index.html is ("^http://www.site.com/", ".html$").
 * "bucket(p, s) is the set of all substrings α s.t. pαs ∈ L."
 *
 * Fig. 1 writes a tuple (α, p, s) for every substring of up to S tokens and sorts the table by (p, s).
 * Here no substring, prefix or suffix is ever a string: tokens are interned to integers, every
 * distinct prefix (suffix) of the list gets an exact integer id from the URLs sorted by their token
 * sequences (reversed sequences), and an envelope is the pair of ids. Two facts prune the table:
 * a bucket needs two URLs sharing p and s, so only prefixes and suffixes some other URL shares are
 * enumerated; and the URLs sharing a prefix are contiguous in sorted order, so buckets are grouped
 * one prefix at a time by linked lists over suffix ids, without a global sort.
 */
import type { DustUrl } from './types';

/** Interned token ids of the frames: positions, never spellings (see DustUrl.tokens). */
export const START_ID = 0;
export const END_ID = 1;

export interface EnvelopeIndex {
  urls: readonly DustUrl[];
  /** Token ids of all URLs back to back: URL u holds tok[start[u] … start[u + 1]). */
  tok: Int32Array;
  start: Uint32Array;
  /** Spelling of each token id (ids 0 and 1 are the frames ^ and $). */
  tokenNames: string[];
  /**
   * Per slot start[u] + u + i (i = 0 … m_u): id of the prefix tokens[0, i) and of the suffix
   * tokens[i, m_u). Equal ids ⇔ equal token sequences; id 0 is the empty prefix (suffix).
   */
  prefixId: Uint32Array;
  suffixId: Uint32Array;
  suffixIds: number;
  /** Longest prefix (suffix), in tokens, that u shares with some other URL of the list. */
  sharedPrefix: Uint32Array;
  sharedSuffix: Uint32Array;
  /** URLs in lexicographic order of their token ids: URLs sharing a prefix are contiguous. */
  prefixOrder: Uint32Array;
}

/** Interns tokens to ids; the frames get START_ID / END_ID by position. */
export function internTokens(urls: readonly DustUrl[]): Pick<EnvelopeIndex, 'tok' | 'start' | 'tokenNames'> {
  const n = urls.length;
  const start = new Uint32Array(n + 1);
  for (let u = 0; u < n; u++) start[u + 1] = start[u] + urls[u].tokens.length;
  const tok = new Int32Array(start[n]);
  const ids = new Map<string, number>();
  const tokenNames = ['^', '$'];
  for (let u = 0; u < n; u++) {
    const t = urls[u].tokens;
    const base = start[u];
    tok[base] = START_ID;
    tok[base + t.length - 1] = END_ID;
    for (let i = 1; i < t.length - 1; i++) {
      let id = ids.get(t[i]);
      if (id === undefined) {
        id = tokenNames.length;
        ids.set(t[i], id);
        tokenNames.push(t[i]);
      }
      tok[base + i] = id;
    }
  }
  return { tok, start, tokenNames };
}

/** URLs ordered by their token ids read forwards (or backwards), and the LCP of each with its predecessor. */
function sortedWithLcp(tok: Int32Array, start: Uint32Array, reversed: boolean): [Uint32Array, Uint32Array] {
  const n = start.length - 1;
  const at = reversed
    ? (u: number, i: number) => tok[start[u + 1] - 1 - i]
    : (u: number, i: number) => tok[start[u] + i];
  const lcpOf = (a: number, b: number): number => {
    const m = Math.min(start[a + 1] - start[a], start[b + 1] - start[b]);
    let i = 0;
    while (i < m && at(a, i) === at(b, i)) i++;
    return i;
  };
  const order = Array.from({ length: n }, (_, u) => u).sort((a, b) => {
    const l = lcpOf(a, b);
    const la = start[a + 1] - start[a];
    const lb = start[b + 1] - start[b];
    if (l === la || l === lb) return la - lb;
    return at(a, l) - at(b, l);
  });
  const lcp = new Uint32Array(n);
  for (let k = 1; k < n; k++) lcp[k] = lcpOf(order[k - 1], order[k]);
  return [Uint32Array.from(order), lcp];
}

/**
 * Prefix (suffix) ids per slot and the shared lengths. In sorted order a URL's prefix of length i
 * equals its predecessor's iff i ≤ their LCP, so ids are handed out by one scan.
 */
function assignIds(
  tok: Int32Array,
  start: Uint32Array,
  reversed: boolean,
  ids: Uint32Array,
  shared: Uint32Array,
): { order: Uint32Array; count: number } {
  const n = start.length - 1;
  const [order, lcp] = sortedWithLcp(tok, start, reversed);
  let next = 1;
  for (let k = 0; k < n; k++) {
    const u = order[k];
    const m = start[u + 1] - start[u];
    const prev = k > 0 ? order[k - 1] : 0;
    const l = k > 0 ? lcp[k] : 0;
    shared[u] = Math.max(l, k + 1 < n ? lcp[k + 1] : 0);
    // Prefix of length i sits at slot i; suffix of length i at slot m − i.
    for (let i = 0; i <= m; i++) {
      const slot = start[u] + u + (reversed ? m - i : i);
      if (i === 0) ids[slot] = 0;
      else if (i <= l) {
        const pm = start[prev + 1] - start[prev];
        ids[slot] = ids[start[prev] + prev + (reversed ? pm - i : i)];
      } else ids[slot] = next++;
    }
  }
  return { order, count: next };
}

export function buildEnvelopeIndex(urls: readonly DustUrl[]): EnvelopeIndex {
  const { tok, start, tokenNames } = internTokens(urls);
  const n = urls.length;
  const slots = start[n] + n;
  const prefixId = new Uint32Array(slots);
  const suffixId = new Uint32Array(slots);
  const sharedPrefix = new Uint32Array(n);
  const sharedSuffix = new Uint32Array(n);
  const { order } = assignIds(tok, start, false, prefixId, sharedPrefix);
  const { count } = assignIds(tok, start, true, suffixId, sharedSuffix);
  return {
    urls,
    tok,
    start,
    tokenNames,
    prefixId,
    suffixId,
    suffixIds: count,
    sharedPrefix,
    sharedSuffix,
    prefixOrder: order,
  };
}

/** One bucket: its members are the substrings tok[start[url[k]] + from[k], … + to[k]). */
export interface Bucket {
  size: number;
  url: Uint32Array;
  from: Uint32Array;
  to: Uint32Array;
}

/**
 * Calls visit for every bucket of 2 … maxSize substrings of at most S tokens (Fig. 1 lines 11–13: "if
 * (|B| = 1 or |B| > T) continue"). The Bucket is scratch space, overwritten by the next call.
 */
export function forEachBucket(
  index: EnvelopeIndex,
  S: number,
  maxSize: number,
  visit: (b: Bucket) => void,
): void {
  const { start, prefixId, suffixId, sharedPrefix, sharedSuffix, prefixOrder } = index;
  const n = index.urls.length;
  if (n < 2 || maxSize < 2) return;
  const head = new Int32Array(index.suffixIds).fill(-1);
  const count = new Uint32Array(index.suffixIds);
  let touched: Uint32Array = new Uint32Array(1024);
  let entUrl: Uint32Array = new Uint32Array(1024);
  let entTo: Uint32Array = new Uint32Array(1024);
  let entNext = new Int32Array(1024);
  // A bucket holds at most one substring per URL (its envelope fixes where α starts and ends).
  const cap = Math.min(maxSize, n);
  const bucket: Bucket = {
    size: 0,
    url: new Uint32Array(cap),
    from: new Uint32Array(cap),
    to: new Uint32Array(cap),
  };
  // URLs sharing the depth-i prefix with another URL, in sorted order; shrinks as i grows.
  let active = prefixOrder.slice();
  for (let i = 0; active.length > 1; i++) {
    let lo = 0;
    while (lo < active.length) {
      const p = prefixId[start[active[lo]] + active[lo] + i];
      let hi = lo + 1;
      while (hi < active.length && prefixId[start[active[hi]] + active[hi] + i] === p) hi++;
      // Group the range's candidate suffixes by suffix id (one linked list per id).
      let entries = 0;
      let touchedCount = 0;
      for (let r = lo; r < hi; r++) {
        const u = active[r];
        const m = start[u + 1] - start[u];
        const base = start[u] + u;
        const jHi = Math.min(i + S, m);
        for (let j = Math.max(i, m - sharedSuffix[u]); j <= jHi; j++) {
          const sid = suffixId[base + j];
          if (entries === entUrl.length) {
            entUrl = grow(entUrl);
            entTo = grow(entTo);
            const nx = new Int32Array(entNext.length * 2);
            nx.set(entNext);
            entNext = nx;
          }
          if (head[sid] < 0) {
            if (touchedCount === touched.length) touched = grow(touched);
            touched[touchedCount++] = sid;
          }
          entUrl[entries] = u;
          entTo[entries] = j;
          entNext[entries] = head[sid];
          head[sid] = entries++;
          count[sid]++;
        }
      }
      for (let t = 0; t < touchedCount; t++) {
        const sid = touched[t];
        const c = count[sid];
        if (c >= 2 && c <= maxSize) {
          let k = 0;
          for (let e = head[sid]; e >= 0; e = entNext[e], k++) {
            bucket.url[k] = entUrl[e];
            bucket.from[k] = i;
            bucket.to[k] = entTo[e];
          }
          bucket.size = c;
          visit(bucket);
        }
        head[sid] = -1;
        count[sid] = 0;
      }
      lo = hi;
    }
    const depth = i + 1;
    active = active.filter((u) => sharedPrefix[u] >= depth);
  }
}

function grow(a: Uint32Array): Uint32Array {
  const b = new Uint32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Envelopes (p, s) of α in a tokenised URL, one per occurrence (§4), spelled out: for display and tests. */
export function envelopesOf(tokens: readonly string[], alpha: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let k = 0; k + alpha.length <= tokens.length; k++) {
    let ok = true;
    for (let t = 0; t < alpha.length && ok; t++) ok = tokens[k + t] === alpha[t];
    if (ok) out.push([tokens.slice(0, k).join(''), tokens.slice(k + alpha.length).join('')]);
  }
  return out;
}
