import { useEffect, useMemo, useState } from 'react';
import { compareTexts, type Comparison } from '../core/text/compare';
import type { StoredContent } from '../db/schema';
import { pageContent, templateSplit, usePages } from '../state/pages';
import { pageBySeq } from '../state/selectors';
import { CompareView, type SideInfo } from './CompareView';
import { plural } from './format';

interface Side {
  /** The page's own text: what the signatures compare when template text is left out. */
  main: string;
  /** Its template text (lines its site repeats), one run per line block. */
  template: string;
}

/** Comparisons kept: the pairs an analyst goes back and forth between are not diffed again. */
const CACHE_SIZE = 8;
const comparisons = new Map<string, { a: string; b: string; result: Comparison }>();

/**
 * The word comparison of a pair's main texts, computed once per pair and texts (the last few are kept,
 * newest last): a pane that opens the pair again, or a re-render, reads it back.
 */
export function comparePair(key: string, a: string, b: string): Comparison {
  const hit = comparisons.get(key);
  if (hit && hit.a === a && hit.b === b) {
    comparisons.delete(key);
    comparisons.set(key, hit);
    return hit.result;
  }
  const result = compareTexts(a, b);
  comparisons.delete(key);
  comparisons.set(key, { a, b, result });
  if (comparisons.size > CACHE_SIZE) comparisons.delete(comparisons.keys().next().value!);
  return result;
}

/**
 * Two pages' texts side by side with word differences marked and counted (CompareView) — text only,
 * never crawled markup. The main text comes first; the template text (src/core/text/template.ts)
 * follows, collapsed and dimmed.
 */
export function TextCompare({ datasetId, seqA, seqB }: { datasetId: number; seqA: number; seqB: number }) {
  const pages = usePages((s) => s.pages);
  const pagesOf = usePages((s) => s.datasetId);
  const [texts, setTexts] = useState<{ key: string; a: Side; b: Side } | null>(null);
  const key = `${datasetId}:${seqA}:${seqB}`;
  useEffect(() => {
    let live = true;
    // The site model needs the dataset's page list; another dataset's list cannot split these texts.
    const split = async (seq: number, c: StoredContent | undefined): Promise<Side> => {
      const text = c?.text ?? '';
      const page = pagesOf === datasetId ? pageBySeq(pages).get(seq) : undefined;
      if (!c || !text || !page) return { main: text, template: '' };
      const s = await templateSplit(datasetId, pages, page.normUrl, c);
      return { main: s.main, template: s.spans.map(([x, y]) => text.slice(x, y)).join('\n') };
    };
    void Promise.all([pageContent(datasetId, seqA), pageContent(datasetId, seqB)])
      .then(([x, y]) => Promise.all([split(seqA, x), split(seqB, y)]))
      .then(([a, b]) => {
        if (live) setTexts({ key, a, b });
      });
    return () => {
      live = false;
    };
  }, [datasetId, seqA, seqB, key, pages, pagesOf]);
  const current = texts?.key === key ? texts : null;
  const comparison = useMemo(
    () => (current ? comparePair(current.key, current.a.main, current.b.main) : null),
    [current],
  );
  const sides = useMemo((): [SideInfo, SideInfo] => {
    const of = (seq: number): SideInfo => {
      const p = pagesOf === datasetId ? pageBySeq(pages).get(seq) : undefined;
      return p ? { url: p.url, title: p.title, size: p.sizeMax } : {};
    };
    return [of(seqA), of(seqB)];
  }, [pages, pagesOf, datasetId, seqA, seqB]);
  const lines = (s: string) => (s ? s.split('\n').length : 0);
  return (
    <>
      <CompareView
        comparison={comparison}
        sides={sides}
        texts={current ? [current.a.main, current.b.main] : undefined}
      />
      {current && (current.a.template || current.b.template) && (
        <details className="template-text-block" data-testid="compare-template">
          <summary>
            Template text: {plural(lines(current.a.template), 'line')} and{' '}
            {plural(lines(current.b.template), 'line')} (repeated on many pages of each site; left out of the
            signatures when “Template text” is strip)
          </summary>
          <div className="columns">
            <pre className="page-text template-text">{current.a.template || '(none)'}</pre>
            <pre className="page-text template-text">{current.b.template || '(none)'}</pre>
          </div>
        </details>
      )}
    </>
  );
}
