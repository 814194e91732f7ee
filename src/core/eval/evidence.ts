/**
 * The evidence for one pair (issue "The analyst's decisions persist", scope 4): why two pages are, or are
 * not, called duplicates — every method's measure beside its threshold, the word shingles the two texts
 * share and those only one has (marked in the texts), the DUST rules linking their URLs. Pure: the
 * workbench shows it (ui/clusters/EvidenceCard.tsx) and exports it with the labels.
 */
import { METHOD_LABELS, storedThresholds, type MethodId, type Thresholds } from '../candidates/methods';
import { SOURCE, type PairTable } from '../candidates/pairs';
import { wordShingleRun } from '../signatures/shingles';

export interface MeasureRow {
  method: MethodId;
  name: string;
  /** The measure as shown (a number, or match/differ for the feature code). */
  value: string;
  /** The method's rule at the thresholds, in words: "≥ 0.80", "< 0.022". */
  rule: string;
  passes: boolean;
}

const f3 = (x: number) => x.toFixed(3);

/** Every method's measure of stored pair k against the thresholds, as the clusters apply them. */
export function pairMeasures(p: PairTable, k: number, thresholds: Thresholds): MeasureRow[] {
  const t = storedThresholds(thresholds);
  const lsh = (p.sources[k] & SOURCE.lsh) !== 0;
  const sim = (p.sources[k] & SOURCE.simhash) !== 0;
  const fc = p.fcMatch[k];
  return [
    {
      method: 'exact',
      name: 'exact fingerprint',
      value: p.exact[k] === 1 ? 'equal' : 'differ',
      rule: 'equal',
      passes: p.exact[k] === 1,
    },
    {
      method: 'rp-hm',
      name: 'RP ‖ΔR‖∞ and HM ‖ΔX‖∞',
      value: `${f3(p.dR[k])} and ${f3(p.dX[k])}`,
      rule: `< ${t.D.toFixed(3)}${t.C >= 1 ? ' (C = 1: RP only)' : ` and < ${t.C.toFixed(3)}`}`,
      passes: p.dR[k] < t.D && (t.C >= 1 || p.dX[k] < t.C),
    },
    {
      method: 'feature-code',
      name: 'feature code, length ratio',
      value: `${fc === 2 ? 'none' : fc === 1 ? 'match' : 'differ'}, ${f3(p.lengthRatio[k])}`,
      rule: `match${t.fcLengthCheck ? `, ≤ ${t.a.toFixed(2)}` : ''}`,
      passes: fc === 1 && (!t.fcLengthCheck || p.lengthRatio[k] <= t.a),
    },
    {
      method: 'minhash',
      name: 'exact Jaccard (MinHash estimate)',
      value: `${f3(p.jaccard[k])} (${f3(p.jaccardEst[k])})${lsh ? '' : ', not an LSH candidate'}`,
      rule: `≥ ${t.jaccard.toFixed(2)}, proposed by LSH`,
      passes: lsh && p.jaccard[k] >= t.jaccard,
    },
    {
      method: 'simhash',
      name: 'SimHash Hamming distance',
      value: `${p.simhash[k]} bits${sim ? '' : ', not a SimHash candidate'}`,
      rule: `≤ ${t.hamming}, proposed by its blocks`,
      passes: sim && p.simhash[k] <= t.hamming,
    },
  ].map((r) => ({
    ...r,
    method: r.method as MethodId,
    name: `${METHOD_LABELS[r.method as MethodId]}: ${r.name}`,
  }));
}

/** A run of a text: a word (in a shingle both texts have, or not) or what lies between words. */
export interface Segment {
  text: string;
  /** true: the word is in a shingle both texts have; false: only in shingles of this text; null: not a word. */
  shared: boolean | null;
}

const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;
/**
 * Two texts' words marked by their word w-shingles: a word is shared when a shingle holding it is in
 * both texts, else its own. Counts are of distinct shingles: shared, only in A, only in B (their
 * Jaccard is shared / (shared + onlyA + onlyB)). Words are read as the engine reads them for
 * alphabetic text (lowercased runs of letters and digits).
 */
export function shingleHighlights(
  a: string,
  b: string,
  w: number,
): { a: Segment[]; b: Segment[]; shared: number; onlyA: number; onlyB: number } {
  const parse = (text: string) => {
    const spans: [number, number][] = [];
    for (const m of text.matchAll(WORD)) spans.push([m.index!, m.index! + m[0].length]);
    const words = spans.map(([x, y]) => text.slice(x, y).toLowerCase());
    return { spans, run: wordShingleRun(words, w) };
  };
  const pa = parse(a);
  const pb = parse(b);
  const setA = new Set(pa.run);
  const setB = new Set(pb.run);
  let shared = 0;
  for (const h of setA) if (setB.has(h)) shared++;
  const mark = (text: string, p: ReturnType<typeof parse>, other: Set<number>): Segment[] => {
    const width = Math.min(w, p.spans.length);
    const inShared = new Uint8Array(p.spans.length);
    p.run.forEach((h, i) => {
      if (other.has(h)) for (let j = i; j < i + width; j++) inShared[j] = 1;
    });
    const out: Segment[] = [];
    let at = 0;
    p.spans.forEach(([x, y], i) => {
      if (x > at) out.push({ text: text.slice(at, x), shared: null });
      const s = inShared[i] === 1;
      const last = out[out.length - 1];
      // Runs of words with the same mark (and the gaps between them) are one segment.
      if (last && last.shared === s) last.text += text.slice(x, y);
      else if (last && last.shared === null && out[out.length - 2]?.shared === s) {
        out.pop();
        out[out.length - 1].text += last.text + text.slice(x, y);
      } else out.push({ text: text.slice(x, y), shared: s });
      at = y;
    });
    if (at < text.length) out.push({ text: text.slice(at), shared: null });
    return out;
  };
  return {
    a: mark(a, pa, setB),
    b: mark(b, pb, setA),
    shared,
    onlyA: setA.size - shared,
    onlyB: setB.size - shared,
  };
}
