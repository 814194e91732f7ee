import { useEffect, useMemo, useState } from 'react';
import { diffWords, type DiffRun } from '../core/text/diff';
import { loadContent } from '../db/queries';
import { db, type StoredContent } from '../db/schema';
import { templateSplit, usePages } from '../state/pages';
import { plural } from './format';

interface Side {
  /** The page's own text: what the signatures compare when template text is left out. */
  main: string;
  /** Its template text (lines its site repeats), one run per line block. */
  template: string;
}

/**
 * Two pages' texts side by side with word differences marked — text only, never crawled markup. The
 * main text comes first; the template text (src/core/text/template.ts) follows, collapsed and dimmed.
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
      const page = pagesOf === datasetId ? pages.find((p) => p.seq === seq) : undefined;
      if (!c || !text || !page) return { main: text, template: '' };
      const s = await templateSplit(datasetId, pages, page.normUrl, c);
      return { main: s.main, template: s.spans.map(([x, y]) => text.slice(x, y)).join('\n') };
    };
    void Promise.all([loadContent(db(), datasetId, seqA), loadContent(db(), datasetId, seqB)])
      .then(([x, y]) => Promise.all([split(seqA, x), split(seqB, y)]))
      .then(([a, b]) => {
        if (live) setTexts({ key, a, b });
      });
    return () => {
      live = false;
    };
  }, [datasetId, seqA, seqB, key, pages, pagesOf]);
  const current = texts?.key === key ? texts : null;
  const runs = useMemo(() => (current ? diffWords(current.a.main, current.b.main) : null), [current]);
  const lines = (s: string) => (s ? s.split('\n').length : 0);
  return (
    <>
      <div className="columns">
        <Column runs={runs} side="a" fallback={current?.a.main} />
        <Column runs={runs} side="b" fallback={current?.b.main} />
      </div>
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

function Column({ runs, side, fallback }: { runs: DiffRun[] | null; side: 'a' | 'b'; fallback?: string }) {
  if (!runs) return <pre className="page-text">{fallback ?? 'loading…'}</pre>;
  return (
    <pre className="page-text">
      {runs.map((r, i) =>
        r.op === 'same' ? (
          <span key={i}>{side === 'a' ? r.text : r.textB}</span>
        ) : (side === 'a') === (r.op === 'del') ? (
          <mark key={i} className={r.op}>
            {r.text}
          </mark>
        ) : null,
      )}
    </pre>
  );
}
