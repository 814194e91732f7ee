import { useEffect, useMemo, useState } from 'react';
import { diffWords, type DiffRun } from '../core/text/diff';
import { loadContent } from '../db/queries';
import { db } from '../db/schema';

/** Two pages' texts side by side with word differences marked — text only, never crawled markup. */
export function TextCompare({ datasetId, seqA, seqB }: { datasetId: number; seqA: number; seqB: number }) {
  const [texts, setTexts] = useState<{ key: string; a: string; b: string } | null>(null);
  const key = `${datasetId}:${seqA}:${seqB}`;
  useEffect(() => {
    let live = true;
    void Promise.all([loadContent(db(), datasetId, seqA), loadContent(db(), datasetId, seqB)]).then(
      ([x, y]) => {
        if (live) setTexts({ key, a: x?.text ?? '', b: y?.text ?? '' });
      },
    );
    return () => {
      live = false;
    };
  }, [datasetId, seqA, seqB, key]);
  const current = texts?.key === key ? texts : null;
  const runs = useMemo(() => (current ? diffWords(current.a, current.b) : null), [current]);
  return (
    <div className="columns">
      <Column runs={runs} side="a" fallback={current?.a} />
      <Column runs={runs} side="b" fallback={current?.b} />
    </div>
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
