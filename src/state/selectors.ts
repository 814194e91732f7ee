/**
 * The derived indexes components read, each built once per input by a memoised getter (keyed by the
 * input's identity, as speedscope's getters are): a component never rebuilds an index in a render, and
 * every component that needs one shares it.
 */
import type { Dataset, StoredAnalysis, StoredPage } from '../db/schema';
import type { Capture } from '../core/clusters/kept';

/** `build`, computed once per input object (a store's array or analysis is replaced, never mutated). */
export function memoByIdentity<K extends object, V>(build: (input: K) => V): (input: K) => V {
  const cache = new WeakMap<K, V>();
  return (input) => {
    if (cache.has(input)) return cache.get(input)!;
    const v = build(input);
    cache.set(input, v);
    return v;
  };
}

/**
 * The page (seq) each normalised URL of the dataset leads to: a page's outlinks are normalised the same
 * way, so a link can open the page it points at.
 */
export const pageOfUrl = memoByIdentity(
  (pages: readonly StoredPage[]): ReadonlyMap<string, number> =>
    new Map(pages.map((p) => [p.normUrl, p.seq])),
);

/** Each page by its seq: the page detail, the clusters, the pair view and the labels read this one index. */
export const pageBySeq = memoByIdentity(
  (pages: readonly StoredPage[]): ReadonlyMap<number, StoredPage> => new Map(pages.map((p) => [p.seq, p])),
);

/** The seq of each URL as found in the source (the first page with it). */
export const seqOfUrl = memoByIdentity((pages: readonly StoredPage[]): ReadonlyMap<string, number> => {
  const m = new Map<string, number>();
  for (const p of pages) if (!m.has(p.url)) m.set(p.url, p.seq);
  return m;
});

/** Page seq → index in the analysis' pair table. */
export const seqIndex = memoByIdentity(
  (analysis: StoredAnalysis): ReadonlyMap<number, number> =>
    new Map(Array.from(analysis.seqs, (seq, i) => [seq, i])),
);

/** Each dataset by its id. */
export const datasetById = memoByIdentity(
  (datasets: readonly Dataset[]): ReadonlyMap<number, Dataset> => new Map(datasets.map((d) => [d.id!, d])),
);

/** The dataset selected in the list, if any: `useDatasets(selectedDataset)`, or a field of it. */
export function selectedDataset(s: {
  datasets: readonly Dataset[];
  selectedId: number | null;
}): Dataset | undefined {
  return s.selectedId === null ? undefined : datasetById(s.datasets).get(s.selectedId);
}

/**
 * What the kept-copy policy reads of a page (core/clusters/kept.ts): its DUST canonical URL from the
 * mined rules' map (null: not mined, every URL its own canonical form, as in the batch).
 */
export function pageCapture(
  p: StoredPage | undefined,
  seq: number,
  canonical: ReadonlyMap<string, string> | null,
): Capture {
  const canonicalUrl = p ? (canonical?.get(p.normUrl) ?? p.normUrl) : '';
  return {
    id: seq,
    url: p?.url ?? '',
    status: p?.status ?? 0,
    fetchedAt: p?.fetchedAt ?? '',
    isCanonical: !canonical || (p !== undefined && canonicalUrl === p.normUrl),
    canonicalUrl,
    textLength: p?.textLength ?? 0,
  };
}
