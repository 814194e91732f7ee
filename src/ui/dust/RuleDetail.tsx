import { useMemo, useState } from 'react';
import { normaliseUrl } from '../../core/url/normalize';
import { useDust } from '../../state/dust';
import { usePages } from '../../state/pages';
import { TextCompare } from '../TextCompare';
import { ruleText } from './format-rule';

/** A rule's instances (URL pairs from the list); one opens the two pages side by side. */
export function RuleDetail() {
  const { run, selectedRule } = useDust();
  const pages = usePages((p) => p.pages);
  const datasetId = usePages((p) => p.datasetId);
  const byUrl = useMemo(() => {
    const m = new Map<string, number>();
    for (const p of pages) if (!m.has(p.normUrl)) m.set(p.normUrl, p.seq);
    return m;
  }, [pages]);
  const rule = run?.rules.find((r) => r.id === selectedRule);
  const [chosen, setChosen] = useState<{ rule: number; i: number } | null>(null);
  if (!run || !rule || datasetId === null) return null;
  const t = ruleText(rule);
  const i = chosen && chosen.rule === rule.id ? chosen.i : 0;
  const inst = rule.instances[i];
  const seqA = inst ? byUrl.get(normaliseUrl(inst[0]).href) : undefined;
  const seqB = inst ? byUrl.get(normaliseUrl(inst[1]).href) : undefined;
  return (
    <section className="rule-detail" aria-label="Rule instances">
      <h2>
        <code>{t.alpha}</code> → <code>{t.beta}</code>{' '}
        <span className={`badge rule-${rule.status}`}>{rule.status}</span>
      </h2>
      <p className="meta">{rule.reason}</p>
      {rule.instances.length === 0 ? (
        <p className="empty">No instance of this rule is kept for display.</p>
      ) : (
        <ol className="instances">
          {rule.instances.map(([a, b], k) => (
            <li key={k}>
              <button
                type="button"
                className={k === i ? 'selected' : ''}
                onClick={() => setChosen({ rule: rule.id, i: k })}
              >
                <span className="url">{a}</span> ↔ <span className="url">{b}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {inst && seqA !== undefined && seqB !== undefined ? (
        <div className="side-by-side">
          <TextCompare datasetId={datasetId} seqA={seqA} seqB={seqB} />
        </div>
      ) : (
        inst && (
          <p className="empty">One of these URLs has no page in this dataset (URL list without contents).</p>
        )
      )}
    </section>
  );
}
