import { combine32, mix32 } from '../hash';
import type { PackedCodes } from './feature-codes-packed';

/**
 * Feature code + length (Peng, Zhao, Zheng, Yu, HIT — 基于内容的大规模网页去重研究).
 *
 * §2.2: the first full stop 「。」 of the body text, and L Chinese characters on each side of it, form
 * the page's feature code (a 10-gram for L = 5). Editing slips shift characters, so two codes match
 * when their longest common subsequence has at least 2L − tolerance symbols (L−1 or L−2 per side in the
 * paper's words). §3.2: codes that match are the same page only if the longer body is at most `a`
 * times the shorter (a = 1.10 was best, §4).
 *
 * Text without 。 (our rule, not the paper's): the first '.', '!' or '?' followed by white space or
 * the end of the text, after a word of 2+ letters (so "e.g." and "3.5" do not count); the code is then
 * L *words* on each side, since five Latin letters carry far less than five of 6,763 Han characters.
 * Symbols are letters and digits only (white space and punctuation skipped), lowercased.
 *
 * The text is the page's main text (src/core/text/template.ts): on real sites the first sentence of the
 * whole page is the site's shared header or menu line, so every page of a site got one code (docsite,
 * whole pages: precision 77.6%, recall 79.3%; main text: 95.9% / 98.1%; Chinese pages alone 89.3% /
 * 100%; the sample 68.2% / 80.4% → 100% / 96.0%, `npm run bench:quality`, `bench:sample`).
 */
export interface FeatureCodeOptions {
  /** Symbols on each side of the full stop (§2.2: L = 5). */
  L: number;
  /** LCS may fall short of 2L by this many symbols (§2.2: L−1 or L−2 per side → 2). */
  tolerance: number;
  /** Same page iff longer/shorter body length ≤ a (§4: 1.10 best of 1.05, 1.10, 1.12, 1.14). */
  a: number;
}

export const FEATURE_CODE_DEFAULTS: FeatureCodeOptions = { L: 5, tolerance: 2, a: 1.1 };

const SYMBOL = /[\p{L}\p{N}]/u;
const CJK_STOP = '。';

/** The feature code of a text as an array of symbols, or null when it has no usable full stop. */
export function featureCode(text: string, L = FEATURE_CODE_DEFAULTS.L): string[] | null {
  const stop = text.indexOf(CJK_STOP);
  if (stop >= 0) {
    const left: string[] = [];
    for (let i = stop - 1; i >= 0 && left.length < L; i--)
      if (SYMBOL.test(text[i])) left.unshift(text[i].toLowerCase());
    const right: string[] = [];
    for (let i = stop + 1; i < text.length && right.length < L; i++)
      if (SYMBOL.test(text[i])) right.push(text[i].toLowerCase());
    return left.length + right.length > 0 ? [...left, ...right] : null;
  }
  const m = /\p{L}{2,}[.!?](?=\s|$)/u.exec(text);
  if (!m) return null;
  const at = m.index + m[0].length;
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  // A short window first: when it holds more than L words, the word it may cut at its far end is not
  // among the L kept, so the code is the 400-character window's (which it was always read from).
  const side = (from: number, to: number, last: boolean): string[] => {
    const near = last
      ? words(text.slice(Math.max(0, from, to - 120), to))
      : words(text.slice(from, Math.min(to, from + 120)));
    if (
      near.length > L ||
      (last
        ? Math.max(0, from, to - 120) === Math.max(0, from)
        : Math.min(to, from + 120) >= Math.min(to, text.length))
    )
      return last ? near.slice(-L) : near.slice(0, L);
    const all = words(text.slice(from, to));
    return last ? all.slice(-L) : all.slice(0, L);
  };
  const left = side(Math.max(0, at - 400), at, true);
  const right = side(at, at + 400, false);
  return left.length + right.length > 0 ? [...left, ...right] : null;
}

/** Length of the longest common subsequence (dynamic programming; codes are ~10 symbols). */
let prevRow = new Uint16Array(64);
let curRow = new Uint16Array(64);

export function lcsLength(a: ArrayLike<string | number>, b: ArrayLike<string | number>): number {
  if (b.length + 1 > prevRow.length) {
    prevRow = new Uint16Array(2 * (b.length + 1));
    curRow = new Uint16Array(2 * (b.length + 1));
  }
  // Scratch rows reused across calls: this runs once per candidate pair.
  const prev = prevRow;
  const cur = curRow;
  prev.fill(0, 0, b.length + 1);
  cur.fill(0, 0, b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    }
    prev.set(cur.subarray(0, b.length + 1));
  }
  return prev[b.length];
}

export function codesMatch(
  a: ArrayLike<string | number>,
  b: ArrayLike<string | number>,
  opts: FeatureCodeOptions,
): boolean {
  return lcsLength(a, b) >= 2 * opts.L - opts.tolerance;
}

/** Body length for §3.2's ratio: characters that are not white space. */
export function bodyLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 0x3000 && c !== 0xa0) n++;
  }
  return n;
}

/** longer / shorter (Infinity when one body is empty and the other is not; 1 when both are). */
export function lengthRatio(a: number, b: number): number {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  return lo === 0 ? (hi === 0 ? 1 : Infinity) : hi / lo;
}

/**
 * The keys of every subsequence of `code` with `k` symbols (k ≥ code.length − 2 in practice: ≤ 45 for
 * L = 5), written to out from `at`; returns the end. A key folds the symbols' own hashes in order
 * (combine32, then mix32), so no subsequence is built as an array or a string: equal subsequences get
 * equal keys, and codes under one key are confirmed by lcsLength anyway.
 */
function subsequenceKeys(
  code: Uint32Array,
  codes: PackedCodes,
  k: number,
  out: Float64Array,
  at: number,
  page: number,
): number {
  const n = code.length;
  const h = symbolHashes.length >= n ? symbolHashes : (symbolHashes = new Uint32Array(2 * n));
  for (let i = 0; i < n; i++) h[i] = codes.hashOf(code[i]);
  let end = at;
  const rec = (from: number, left: number, acc: number) => {
    if (left === 0) {
      out[end++] = mix32(acc ^ k) * 2 ** 21 + page;
      return;
    }
    for (let i = from; i <= n - left; i++) rec(i + 1, left - 1, combine32(acc, h[i]));
  };
  rec(0, k, 0);
  return end;
}

let symbolHashes = new Uint32Array(64);

/** C(n, k): the subsequences subsequenceKeys writes for a code of n symbols. */
function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return Math.round(c);
}

/**
 * The ordered index of §2.2 (a balanced search tree there; here a sorted typed array searched by
 * binary search). Two codes match iff they share a common subsequence of length 2L − tolerance, so
 * every code is entered under each of its subsequences of that length (a deletion neighbourhood);
 * codes under one key are candidates, confirmed by lcsLength.
 */
export class FeatureCodeIndex {
  /** (key << 21 | page) packed in doubles, sorted. */
  private readonly entries: Float64Array;

  constructor(
    private readonly codes: PackedCodes,
    private readonly opts: FeatureCodeOptions = FEATURE_CODE_DEFAULTS,
  ) {
    if (codes.length >= 1 << 21) throw new Error('feature-code index: more than 2M pages');
    const k = 2 * opts.L - opts.tolerance;
    // Keys straight into a typed array grown by a quarter (a number[] and its copy were ~1.1 KB a page
    // at the peak of the engine's finish, 1.4 GB at 1M pages), sorted in place.
    let keys = new Float64Array(1024);
    let m = 0;
    for (let p = 0; p < codes.length; p++) {
      const code = codes.code(p);
      if (!code || code.length < k) continue;
      const need = m + choose(code.length, k);
      if (need > keys.length) {
        const next = new Float64Array(Math.max(need, Math.ceil(keys.length * 1.25)));
        next.set(keys.subarray(0, m));
        keys = next;
      }
      m = subsequenceKeys(code, codes, k, keys, m, p);
    }
    this.entries = keys.subarray(0, m).sort();
  }

  /** Pages whose code matches page p's (LCS ≥ 2L − tolerance), found by binary search per key. */
  matchesOf(p: number): number[] {
    const code = this.codes.code(p);
    const k = 2 * this.opts.L - this.opts.tolerance;
    if (!code || code.length < k) return [];
    const own = new Float64Array(choose(code.length, k));
    subsequenceKeys(code, this.codes, k, own, 0, 0);
    const found = new Set<number>();
    for (const s of own) {
      const key = Math.floor(s / 2 ** 21);
      for (let i = lowerBound(this.entries, key * 2 ** 21); i < this.entries.length; i++) {
        const e = this.entries[i];
        if (Math.floor(e / 2 ** 21) !== key) break;
        const q = e % 2 ** 21;
        if (q !== p && !found.has(q) && codesMatch(code, this.codes.code(q)!, this.opts)) found.add(q);
      }
    }
    return [...found].sort((x, y) => x - y);
  }

  /** Keys shared by more pages than maxBucket were skipped by the last pairs() call. */
  skippedBuckets = 0;

  /**
   * Every matching pair once (i < j), flat [i0, j0, i1, j1, …]: one pass over the sorted keys. A key
   * shared by more than `maxBucket` pages (boilerplate whose first sentence every page repeats) is
   * skipped and counted: its all-pairs would dominate the run and say nothing about replicas.
   */
  pairs(maxBucket = 2000): Uint32Array {
    const out: number[] = [];
    const seen = new Set<number>();
    const e = this.entries;
    this.skippedBuckets = 0;
    for (let s = 0; s < e.length;) {
      const key = Math.floor(e[s] / 2 ** 21);
      let t = s + 1;
      while (t < e.length && Math.floor(e[t] / 2 ** 21) === key) t++;
      if (t - s > maxBucket) {
        this.skippedBuckets++;
        s = t;
        continue;
      }
      for (let x = s; x < t; x++) {
        for (let y = x + 1; y < t; y++) {
          const i = e[x] % 2 ** 21;
          const j = e[y] % 2 ** 21;
          if (i === j) continue;
          const [lo, hi] = i < j ? [i, j] : [j, i];
          const id = lo * 2 ** 21 + hi;
          if (seen.has(id)) continue;
          seen.add(id);
          if (codesMatch(this.codes.code(lo)!, this.codes.code(hi)!, this.opts)) out.push(lo, hi);
        }
      }
      s = t;
    }
    return Uint32Array.from(out);
  }
}

function lowerBound(a: Float64Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
