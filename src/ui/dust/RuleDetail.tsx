import { useMemo, useState } from 'react';
import { ruleSides } from '../../core/dust';
import { normaliseUrl } from '../../core/url/normalize';
import { useDust } from '../../state/dust';
import { usePages } from '../../state/pages';
import { plural } from '../format';
import { TextCompare } from '../TextCompare';
import { Url } from '../Url';
import { charsThatFit, useElementWidth } from '../useElementWidth';
import { useListKeys } from '../useListKeys';

/** A rule's instances (URL pairs from the list); one opens the two pages side by side. */
export function RuleDetail() {
  const rule = useDust((s) => s.run?.rules.find((r) => r.id === s.selectedRule));
  const pages = usePages((p) => p.pages);
  const datasetId = usePages((p) => p.datasetId);
  const byUrl = useMemo(() => {
    const m = new Map<string, number>();
    for (const p of pages) if (!m.has(p.normUrl)) m.set(p.normUrl, p.seq);
    return m;
  }, [pages]);
  const [chosen, setChosen] = useState<{ rule: number; i: number } | null>(null);
  const count = rule?.instances.length ?? 0;
  // Two URLs share a line of the list: each gets half of it, less the arrow between them.
  const [list, listWidth, listEl] = useElementWidth<HTMLOListElement>();
  const max = listWidth > 0 ? charsThatFit(listEl, (listWidth - 40) / 2) : 90;
  const i = rule && chosen && chosen.rule === rule.id ? chosen.i : 0;
  // One tab stop for the instance list: ↑/↓ move to another pair and open it at once.
  const onKeyDown = useListKeys(count, i, (k) => rule && setChosen({ rule: rule.id, i: k }));
  if (!rule || datasetId === null) return null;
  const t = ruleSides(rule);
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
      {rule.absorbs && (
        <p className="meta" data-testid="rule-absorbs">
          Absorbs {plural(rule.absorbs.count, 'special case')} (every instance merged by this rule):{' '}
          {rule.absorbs.spellings.join('; ')}
          {rule.absorbs.count > rule.absorbs.spellings.length ? '; …' : ''}
        </p>
      )}
      {rule.instances.length === 0 ? (
        <p className="empty">No instance of this rule is kept for display.</p>
      ) : (
        <ol
          ref={list}
          className="instances"
          role="listbox"
          aria-label="Instances (u, R(u))"
          tabIndex={0}
          aria-activedescendant={`rule-inst-${i}`}
          onKeyDown={onKeyDown}
        >
          {rule.instances.map(([a, b], k) => (
            <li
              key={k}
              id={`rule-inst-${k}`}
              role="option"
              aria-selected={k === i}
              className={k === i ? 'selected' : ''}
              onClick={() => setChosen({ rule: rule.id, i: k })}
            >
              <Url url={a} max={max} /> ↔ <Url url={b} max={max} />
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
